"""What drills and cards hook: the numbers drills modify (BEFORE hooks change them; they are
not events), the registry of drill hooks `HOOKS`, the attack effects and defense triggers
content names, and how a duel resolves with them (`RESOLVING`).

Content names these ids; `tests/rulesets/deckduel/test_content.py` checks every id resolves.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import msgspec

from domain.engine.hooks import Effect, Hooks, Phase, Resolver, Resolving, modify
from domain.engine.registry import Registry

from .content import Card, content
from .evolve import evolve
from .state import SEATS, Duel

HOOKS = Hooks()


class Strike(msgspec.Struct, frozen=True):
    """An attack in resolution: its arrows and how many flips ignore defense icons."""
    arrows: int
    pierce: int = 0


ATTACK_EFFECTS: Registry[str, Callable[..., Strike]] = Registry("deckduel attack effect")
DEFENSE_TRIGGERS: Registry[str, Callable[..., int]] = Registry("deckduel defense trigger")
attack_effect = ATTACK_EFFECTS.register
defense_trigger = DEFENSE_TRIGGERS.register


class Cost(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    card: str
    kind: str
    amount: int


class PowerUp(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    amount: int


class ReadyDraw(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    amount: int


class HandSize(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    amount: int


def active_effects(s: Duel) -> tuple[Effect, ...]:
    """Drills in play, p1's then p2's, in the order they were played."""
    if not (s.p1.drills or s.p2.drills):
        return ()
    return _drill_effects(s.p1.drills, s.p2.drills)


@lru_cache(maxsize=4096)
def _drill_effects(*drills: tuple[str, ...]) -> tuple[Effect, ...]:
    return tuple(Effect(kind=_drill_kind(card), owner=seat, source=card)
                 for seat, pile in zip(SEATS, drills) for card in pile)


def _drill_kind(card_id: str) -> str:
    kind = content().cards[card_id].drill
    # Only drill cards reach play as drills, and the content test checks each names its effect.
    assert kind is not None, f"drill card {card_id!r} names no drill effect"
    return kind


RESOLVING: Resolving[Duel, Resolver[Duel]] = Resolving(hooks=HOOKS, effects=active_effects, evolve=evolve,
                                                       resolver=Resolver)


def effective(s: Duel, query: object) -> int:
    return modify(HOOKS, active_effects(s), s, query)[0].amount


def cost_of(s: Duel, seat: str, card: Card) -> int:
    if not (s.p1.drills or s.p2.drills):
        return card.cost
    return effective(s, Cost(seat=seat, card=card.id, kind=card.kind, amount=card.cost))


def costs_modified(s: Duel) -> bool:
    """Whether a drill in play hooks card costs (else every card costs what it says)."""
    effects = active_effects(s)
    return bool(effects) and bool(HOOKS.handlers(Phase.BEFORE, Cost, effects))
