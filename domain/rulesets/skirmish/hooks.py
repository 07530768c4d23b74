"""The queries skirmish's effects and talents modify (BEFORE hooks change them; they are not
events), the hook registry `HOOKS`, and the answers the rules read from them."""
from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any

import msgspec

from domain.engine.hooks import Effect, Hooks, Phase, modify

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
    if not hooked(s, type(query)):
        return query, []
    return modify(HOOKS, effects(s), s, query)


# The units dict last asked about, the effects in force for it, and the answers under those
# effects: by query type, whether any effect hooks it (`hooked`); by query, `answer`'s answers.
# Both read the effects alone, and the effects hand back one tuple while they stay equal
# (`state.effects`), so answers carry over from state to state until an effect or talent changes.
_scope: tuple[object, tuple[Effect, ...], dict[Any, Any]] = (None, (), {})


def _in_force(s: Skirmish) -> tuple[tuple[Effect, ...], dict[Any, Any]]:
    """The effects in force in `s`, and the answers kept for them."""
    global _scope
    units, in_force, answers = _scope   # one read of one triple: safe across threads
    if units is not s.units:
        found = effects(s)
        if found is not in_force:
            in_force, answers = found, {}
        _scope = (s.units, in_force, answers)
    return in_force, answers


def answer(s: Skirmish, query: Allowance | Targetable) -> Any:
    """`ask(s, query)[0]` for the queries whose handlers read nothing but their effect and the
    query (Allowance: adrenaline, restrained; Targetable: concealed, which reads the seat of
    the unit asked about, fixed by its key): the same effects give the same answer."""
    in_force, answers = _in_force(s)
    found = answers.get(query)
    if found is None:
        found = answers[query] = modify(HOOKS, in_force, s, query)[0]
    return found


def hooked(s: Skirmish, query: type) -> bool:
    """Whether an effect in force in `s` hooks `query` (a BEFORE handler on it): if none does,
    every answer to such a query is the query as asked."""
    in_force, answers = _in_force(s)
    found = answers.get(query)
    if found is None:
        wanted = HOOKS.kinds_on(Phase.BEFORE, query)
        found = False
        for effect in in_force:     # a loop, not a generator: a few effects at a time
            if effect.kind in wanted:
                found = True
                break
        answers[query] = found
    return found


_SPENT = {"move": attrgetter("moved"), "attack": attrgetter("attacked"), "counter": attrgetter("countered")}


def allowance(s: Skirmish, unit: Unit, act: str) -> Allowance:
    spent = _SPENT[act](unit)
    query = Allowance(unit=unit.key, act=act, spent=spent, allowed=not spent)
    if not hooked(s, Allowance):
        return query        # no effect in force changes it
    result: Allowance = answer(s, query)
    return result


def may(s: Skirmish, unit: Unit, act: str) -> bool:
    """`allowance(s, unit, act).allowed`."""
    return may_each(s, (unit,), act)[0]


def may_each(s: Skirmish, units: Sequence[Unit], act: str) -> list[bool]:
    """`may` for each of `units`. The effects that hook an allowance (Adrenaline, Restrained)
    change only their owner's: a unit whose own talent and chips hook none is allowed the act
    if it has not spent it, whatever else is in force."""
    wanted = HOOKS.kinds_on(Phase.BEFORE, Allowance) if hooked(s, Allowance) else frozenset()
    spent = _SPENT[act]
    found = []          # a loop, not a comprehension: cheaper for the few units of a side
    for unit in units:
        found.append(allowance(s, unit, act).allowed if wanted and _own_kinds(unit, wanted) else not spent(unit))
    return found


def targetable(s: Skirmish, unit: Unit, by: str) -> bool:
    if not hooked(s, Targetable):
        return True
    return bool(answer(s, Targetable(unit=unit.key, by=by)).allowed)


def targetable_of(s: Skirmish, units: list[Unit], by: str) -> list[Unit]:
    """Those of `units` that `by` may target: while no effect in force hooks targeting, all. The
    effect that does (Concealed) hides only its owner: a unit whose own talent and chips hook
    no targeting may be targeted, whatever else is in force."""
    if not hooked(s, Targetable):
        return units
    wanted = HOOKS.kinds_on(Phase.BEFORE, Targetable)
    found = []          # a loop, not a comprehension: cheaper for the few units of a side
    for unit in units:
        if not _own_kinds(unit, wanted) or answer(s, Targetable(unit=unit.key, by=by)).allowed:
            found.append(unit)
    return found


def _own_kinds(unit: Unit, kinds: frozenset[str]) -> bool:
    """Whether `unit`'s talent or one of its chips (the effects it owns) is of one of `kinds`."""
    if unit.talent in kinds:
        return True
    for chip in unit.chips:     # a loop, not a generator: a unit has few effects
        if chip.kind in kinds:
            return True
    return False
