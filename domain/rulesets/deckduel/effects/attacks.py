"""Attack effects (seed 004, Playing an attack, step 2: "do what it says")."""
from __future__ import annotations

from msgspec.structs import replace

from domain.engine.hooks import Resolver

from .. import events as ev
from ..content import Card
from ..hooks import Strike, attack_effect
from ..state import Duel, opponent
from .moves import discard_random, draw, energize


@attack_effect("draw")
def draw_cards(b: Resolver[Duel], seat: str, card: Card, strike: Strike) -> Strike:
    draw(b, seat, card.effect_amount)
    return strike


@attack_effect("energize")
def gain_energy(b: Resolver[Duel], seat: str, card: Card, strike: Strike) -> Strike:
    energize(b, seat, card.effect_amount)
    return strike


@attack_effect("pierce")
def pierce(b: Resolver[Duel], seat: str, card: Card, strike: Strike) -> Strike:
    return replace(strike, pierce=strike.pierce + card.effect_amount)


@attack_effect("mill")
def mill(b: Resolver[Duel], seat: str, card: Card, strike: Strike) -> Strike:
    target = opponent(seat)
    milled = b.state.side(target).deck[:card.effect_amount]
    if milled:
        b.emit(ev.CardsMilled(seat=target, cards=milled))
    return strike


@attack_effect("recover")
def recover(b: Resolver[Duel], seat: str, card: Card, strike: Strike) -> Strike:
    """The top card(s) of the discard pile, down to the first the card stops at: Second Wind
    stops at Second Wind, so two copies and a free cost cannot return each other forever."""
    discard = b.state.side(seat).discard
    taken = discard[len(discard) - min(card.effect_amount, len(discard)):]
    stops = [n for n, taken_card in enumerate(taken) if taken_card in card.effect_stops_at]
    taken = taken[stops[-1] + 1:] if stops else taken
    if taken:
        b.emit(ev.CardsRecovered(seat=seat, cards=taken))
    return strike


@attack_effect("shatter")
def shatter(b: Resolver[Duel], seat: str, card: Card, strike: Strike) -> Strike:
    target = opponent(seat)
    for drill in b.state.side(target).drills[:card.effect_amount]:
        b.emit(ev.DrillDestroyed(seat=target, card=drill))
    return strike


@attack_effect("disarm")
def disarm(b: Resolver[Duel], seat: str, card: Card, strike: Strike) -> Strike:
    for _ in range(card.effect_amount):
        discard_random(b, opponent(seat))
    return strike


@attack_effect("surge")
def surge(b: Resolver[Duel], seat: str, card: Card, strike: Strike) -> Strike:
    if b.state.side(seat).drills:
        return replace(strike, arrows=strike.arrows + card.effect_amount)
    return strike
