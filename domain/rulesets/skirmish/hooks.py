"""The queries skirmish's effects and talents modify (BEFORE hooks change them; they are not
events), the hook registry `HOOKS`, and the answers the rules read from them."""
from __future__ import annotations

from typing import Any

import msgspec

from domain.engine.hooks import Effect, Hooks, modify

from .state import Skirmish, Unit, effects

HOOKS = Hooks()


class StrikePower(msgspec.Struct, frozen=True, kw_only=True):
    """The power of an attack (seed 001, Combat: the defender takes the attacker's power)."""
    attacker: str
    target: str
    power: int
    round: int


class Allowance(msgspec.Struct, frozen=True, kw_only=True):
    """Whether a unit may `act` (move, attack or counter) now; `spent` says it already has this
    turn; `adrenaline` that Adrenaline pays for it."""
    unit: str
    act: str
    spent: bool
    allowed: bool
    adrenaline: bool = False


class Targetable(msgspec.Struct, frozen=True, kw_only=True):
    unit: str
    by: str                         # the seat targeting it
    allowed: bool = True


class Provokes(msgspec.Struct, frozen=True, kw_only=True):
    """Aggression: whether `target` forces `attacker` to attack it at the start of its turn."""
    attacker: str
    target: str
    provoked: bool = False


def ask(s: Skirmish, query: Any) -> tuple[Any, list[Effect]]:
    """The query after every effect's modifiers, and the effects that changed it."""
    return modify(HOOKS, effects(s), s, query)


def allowance(s: Skirmish, unit: Unit, act: str) -> Allowance:
    spent = {"move": unit.moved, "attack": unit.attacked, "counter": unit.countered}[act]
    result: Allowance = ask(s, Allowance(unit=unit.key, act=act, spent=spent, allowed=not spent))[0]
    return result


def targetable(s: Skirmish, unit: Unit, by: str) -> bool:
    return bool(ask(s, Targetable(unit=unit.key, by=by))[0].allowed)
