"""`deckduel`: the deck-as-life duel of seed 004. See README.md for every open choice."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from domain.engine.events import Command, Event, Viewer
from domain.engine.rng import Rng
from domain.engine.ruleset import Outcome, register

from . import decide as rules
from .commands import CODEC
from .content import CONTENT
from .evolve import evolve as _evolve
from .setup import DEFAULT_SETUP, DuelSetup, parse_setup, withhold_setup
from .state import SEATS, Duel, Params
from .view import view as _view


class Deckduel:
    id = "deckduel"
    version = "1.0.0"
    content_hash = CONTENT.hash
    seats = SEATS
    state_type = Duel
    codec = CODEC

    def default_setup(self) -> dict[str, Any]:
        return dict(DEFAULT_SETUP)

    def setup_schema(self) -> dict[str, Any]:
        return {
            "seats": {"character": sorted(CONTENT.characters), "deck": "list of card ids, top first (optional)",
                      "shuffle": "bool, default true"},
            "first_player": "p1, p2 or null (null: the RNG picks)",
            "params": msgspec.to_builtins(Params()),
        }

    def content(self) -> dict[str, Any]:
        return CONTENT.as_json()

    def parse_setup(self, raw: Mapping[str, Any]) -> DuelSetup:
        return parse_setup(raw)

    def withhold_setup(self, setup: Mapping[str, Any]) -> dict[str, Any] | None:
        return withhold_setup(setup)

    def start(self, setup: DuelSetup, rng: Rng) -> Sequence[Event]:
        return rules.start(setup, rng)

    def evolve(self, state: Duel | None, event: Event) -> Duel:
        return _evolve(state, event)

    def awaiting(self, state: Duel) -> frozenset[str]:
        return rules.awaiting(state)

    def legal_commands(self, state: Duel, seat: str) -> Sequence[Command]:
        return rules.legal_commands(state, seat)

    def decide(self, state: Duel, seat: str, cmd: Command, rng: Rng) -> Sequence[Event]:
        return rules.decide(state, seat, cmd, rng)

    def view(self, state: Duel, viewer: Viewer) -> dict[str, object]:
        return _view(state, viewer, rules.awaiting(state), rules.effective)

    def outcome(self, state: Duel) -> Outcome | None:
        if not state.deck_out():
            return None
        p1_out, p2_out = not state.p1.deck, not state.p2.deck
        if p1_out and p2_out:
            return Outcome(winner=None, reason="both decks emptied at once")
        loser = "p1" if p1_out else "p2"
        return Outcome(winner="p2" if loser == "p1" else "p1", reason=f"{loser}'s deck is empty")


RULESET = register(Deckduel())
