"""The queries skirmish's effects and talents modify (BEFORE hooks change them; they are not
events), the hook registry `HOOKS`, and the answers the rules read from them."""
from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any

import msgspec

from domain.engine.hooks import Effect, Hooks, Phase, modify

from .state import Skirmish, Unit, effects, kinds

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
    if not hooked(s, type(query)):
        return query, []
    return modify(HOOKS, effects(s), s, query)


def hooked(s: Skirmish, query: type) -> bool:
    """Whether an effect in force in `s` hooks `query` (a BEFORE handler on it): if none does,
    every answer to such a query is the query as asked."""
    return not HOOKS.kinds_on(Phase.BEFORE, query).isdisjoint(kinds(s))


_SPENT = {"move": attrgetter("moved"), "attack": attrgetter("attacked"), "counter": attrgetter("countered")}


def allowance(s: Skirmish, unit: Unit, act: str) -> Allowance:
    spent = _SPENT[act](unit)
    result: Allowance = ask(s, Allowance(unit=unit.key, act=act, spent=spent, allowed=not spent))[0]
    return result


def may(s: Skirmish, unit: Unit, act: str) -> bool:
    """`allowance(s, unit, act).allowed`."""
    return may_each(s, (unit,), act)[0]


def may_each(s: Skirmish, units: Sequence[Unit], act: str) -> list[bool]:
    """`may` for each of `units`: while no effect in force hooks an allowance, whether each has
    not yet acted so this turn."""
    if hooked(s, Allowance):
        return [allowance(s, unit, act).allowed for unit in units]
    spent = _SPENT[act]
    return [not spent(unit) for unit in units]


def targetable(s: Skirmish, unit: Unit, by: str) -> bool:
    if not hooked(s, Targetable):
        return True
    return bool(ask(s, Targetable(unit=unit.key, by=by))[0].allowed)


def targetable_of(s: Skirmish, units: list[Unit], by: str) -> list[Unit]:
    """Those of `units` that `by` may target: while no effect in force hooks targeting, all."""
    if not hooked(s, Targetable):
        return units
    return [unit for unit in units if ask(s, Targetable(unit=unit.key, by=by))[0].allowed]
