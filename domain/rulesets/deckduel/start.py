"""The opening of a duel (seed 004, The Rules 1-2): the characters, each deck prepared, and
the initial hands drawn."""
from __future__ import annotations

from domain.engine.events import Event
from domain.engine.rng import Rng

from . import events as ev
from .setup import DuelSetup
from .state import SEATS


def start(setup: DuelSetup, rng: Rng) -> list[Event]:
    events: list[Event] = [ev.DuelStarted(params=setup.params_json(), characters=setup.characters(),
                                          first_player=setup.first_player)]
    for seat in SEATS:
        deck = setup.decks[seat]
        order = deck if not setup.shuffle[seat] else rng.shuffle(deck)
        events.append(ev.DeckPrepared(seat=seat, size=len(order), shuffled=setup.shuffle[seat], order=order))
        hand = order[:setup.params.initial_hand]
        events.append(ev.CardsDrawn(seat=seat, count=len(hand), cards=hand))
    return events
