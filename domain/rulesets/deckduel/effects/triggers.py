"""Defense triggers (seed 004, Dealing Damage step 4). Each returns the damage still to take."""
from __future__ import annotations

from domain.engine.hooks import Resolver

from .. import events as ev
from ..content import Card
from ..hooks import defense_trigger
from ..state import Duel
from .moves import deal_damage, discard_random, draw


@defense_trigger("counter")
def counter(b: Resolver[Duel], seat: str, card: Card, remaining: int, dealt: ev.DamageDealt,
            flip: ev.DamageFlipped) -> int:
    # Only attacks are countered, so two counter cards can never ping-pong (README: choices).
    if dealt.by == "attack" and dealt.source is not None:
        deal_damage(b, dealt.source, card.trigger_amount, source=seat, by="counter")
    return remaining


@defense_trigger("brace")
def brace(b: Resolver[Duel], seat: str, card: Card, remaining: int, dealt: ev.DamageDealt,
            flip: ev.DamageFlipped) -> int:
    return max(0, remaining - card.trigger_amount)


@defense_trigger("draw")
def draw_on_defense(b: Resolver[Duel], seat: str, card: Card, remaining: int, dealt: ev.DamageDealt,
            flip: ev.DamageFlipped) -> int:
    draw(b, seat, card.trigger_amount)
    return remaining


@defense_trigger("recycle")
def recycle(b: Resolver[Duel], seat: str, card: Card, remaining: int, dealt: ev.DamageDealt,
            flip: ev.DamageFlipped) -> int:
    # "This card": only the flip just made, which is in the discard pile unless it was perfect.
    if not flip.perfect:
        b.emit(ev.CardRecycled(seat=seat, card=card.id))
    return remaining


@defense_trigger("disrupt")
def disrupt(b: Resolver[Duel], seat: str, card: Card, remaining: int, dealt: ev.DamageDealt,
            flip: ev.DamageFlipped) -> int:
    if dealt.source is not None:
        for _ in range(card.trigger_amount):
            discard_random(b, dealt.source)
    return remaining
