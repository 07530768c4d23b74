"""The resolver and the moves every ability step and Dynamic shares: HP, MP, LP, Dynamics.

`RingResolver.follow` applies the rules' own consequences of each event before any
reaction sees it (seed 000, HP and LP): 0 HP is a KO, a KO costs 1 LP, 0 LP removes the
unit, restoring a KO'd unit's HP revives it.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import compress
from operator import is_not
from typing import Any, TypeGuard, TypeVar

from msgspec.structs import replace

from domain.engine.events import Event
from domain.engine.hooks import BoundEffect, Effect, EventT, Handler, HookContext, Phase, Resolver, Resolving

from . import events as ev
from .content import content
from .evolve import evolve
from .hooks import HOOKS, SEAT_BOUND, TEAM_BOUND
from .state import DisabledEquipment, Dyn, Ring, seat_of

UNIT_BOUND = ("unit", "equipment")          # seed 000: inactive while their unit is KO'd


Query = TypeVar("Query")

_last: tuple[object, object, object, tuple[Effect, ...]] = (None, None, None, ())


def active_effects(s: Ring) -> tuple[Effect, ...]:
    global _last
    if not s.dynamics:
        return ()
    # Reducers keep the same tuple and set objects while they do not change, so the last
    # answer is usually still right; identity is far cheaper than hashing the records.
    # One tuple, read once: safe when battles run in several threads.
    last = _last
    if last[0] is s.dynamics and last[1] is s.down and last[2] is s.disabled:
        return last[3]
    if last[1] is s.down and last[2] is s.disabled and _same_names(last[0], s.dynamics):
        found = last[3]             # only what `_active` does not read changed (a severity, say)
    else:
        found = _active(s.dynamics, s.down, s.disabled)
    _last = (s.dynamics, s.down, s.disabled, found)
    return found


def _same_names(old: object, new: tuple[Dyn, ...]) -> TypeGuard[tuple[Dyn, ...]]:
    """Whether `old` is a tuple of Dynamics that match `new`'s, place by place, in what
    `_active` reads of them (id, kind, source, seat, carrier, target). A severity change makes a new
    tuple with one new record in the old one's place: the records that stay the same objects
    are passed over without a Python step each."""
    if type(old) is not tuple or len(old) != len(new):
        return False
    return not any([1 for a, b in compress(zip(old, new), map(is_not, old, new))
                    if a.id != b.id or a.kind != b.kind or a.source != b.source or a.unit != b.unit
                    or a.target != b.target or a.seat != b.seat])


def _active(dynamics: tuple[Dyn, ...], down: frozenset[str],
            disabled: tuple[DisabledEquipment, ...]) -> tuple[Effect, ...]:
    """Dynamics in effect, in the order they came into play. A seal blocks its target; a
    seal never targets a Dynamic-on-Dynamic, so one pass is enough. Unit and Equipment
    Dynamics are out while their unit is KO'd; Equipment Dynamics while its equipment is
    disabled (seed 000, Add Dynamics)."""
    sealed = {d.target for d in dynamics if d.kind == "seal" and d.target is not None}
    disarmed = {off.unit for off in disabled} if disabled else ()
    # An effect names its Dynamic, its carrier and its team, which never change (hooks read
    # the rest from the state), so a severity change gives the same effects: the same tuple
    # object, whose hook plans stay known, found by those names (plain strings, quick to hash).
    # The carrier or team lets hooks on a unit's or a team's events skip other Dynamics.
    named = tuple([(d.kind, d.id, d.unit, d.seat) for d in dynamics
                   if d.id not in sealed and not (d.source in UNIT_BOUND and d.unit in down)
                   and not (d.source == "equipment" and d.unit in disarmed)])
    found = _INTERNED.get(named)
    if found is None:
        if len(_INTERNED) > 8192:
            _INTERNED.clear()
        found = _INTERNED[named] = tuple([_effect(*names) for names in named])
    return found


def _effect(kind: str, owner: str, unit: str | None, seat: str | None) -> Effect:
    """The effect of a Dynamic, bound to its carrier; a `SEAT_BOUND` kind's to the carrier's
    seat, a `TEAM_BOUND` kind's to its team (bound to nothing on the battlefield)."""
    if kind in TEAM_BOUND:
        return Effect(kind=kind, owner=owner) if seat is None else BoundEffect(kind=kind, owner=owner, subject=seat)
    subject = seat_of(unit) if unit is not None and kind in SEAT_BOUND else unit
    return BoundEffect(kind=kind, owner=owner, subject=subject)


_INTERNED: dict[tuple[tuple[str, str, str | None, str | None], ...], tuple[Effect, ...]] = {}
_index: tuple[object, dict[str, Dyn]] = (None, {})


def dynamics_by_id(s: Ring) -> dict[str, Dyn]:
    """The Dynamics in play by id (the last answer kept by identity, as above)."""
    last = _index
    return last[1] if last[0] is s.dynamics else _reindex(s.dynamics)


def _reindex(dynamics: tuple[Dyn, ...]) -> dict[str, Dyn]:
    global _index
    last = _index
    if _same_names(last[0], dynamics):
        # The same ids in the same places: the last index, with the records that changed
        found = last[1].copy()
        for a, b in compress(zip(last[0], dynamics), map(is_not, last[0], dynamics)):
            found[b.id] = b
    else:
        found = {d.id: d for d in dynamics}
    _index = (dynamics, found)
    return found


def dyn(ctx: HookContext, s: Ring) -> Dyn:
    """The Dynamic behind a hook's effect, as it stands in `s` (`dynamics_by_id`, inlined:
    every Dynamic hook starts here)."""
    last = _index
    return (last[1] if last[0] is s.dynamics else _reindex(s.dynamics))[ctx.effect.owner]


def strength(ctx: HookContext, s: Ring) -> int:
    """`magnitude(dyn(ctx, s))` in one call: the number most hooks start from."""
    last = _index
    d = (last[1] if last[0] is s.dynamics else _reindex(s.dynamics))[ctx.effect.owner]
    spec = content().dynamics[d.kind]
    return spec.value + spec.scale * d.severity


def active(s: Ring, dyn: Dyn) -> bool:
    return any(e.owner == dyn.id for e in active_effects(s))


def effective(s: Ring, query: Query) -> Query | None:
    """A query after every BEFORE modifier in effect (None: blocked): the engine's `modify`
    pass, without noting which effects changed it."""
    return through(s, modifiers(s, type(query)), query)


Modifiers = list[tuple[HookContext, Handler]]


# query type -> (the effects in play, their modifiers of it): kept while the effects stay
# the same tuple, which holds no state and no content.
_MODIFIERS: dict[type, tuple[tuple[Effect, ...], Modifiers]] = {}


def modifiers(s: Ring, query_type: type) -> Modifiers:
    """The BEFORE hooks in effect on a type of query, each with its context, in order: what
    `effective` runs, found once for several queries of that type on one state."""
    effects = active_effects(s)
    if not effects:
        return []
    known = _MODIFIERS.get(query_type)
    if known is not None and known[0] is effects:
        return known[1]
    found = [(HookContext(effect, None), fn) for effect, fn in HOOKS.handlers(Phase.BEFORE, query_type, effects)]
    _MODIFIERS[query_type] = (effects, found)
    return found


def through(s: Ring, found: Modifiers, query: Query) -> Query | None:
    """`query` after the modifiers in `found` (None: blocked)."""
    for ctx, fn in found:
        query = fn(ctx, s, query)
        if query is None:
            return None
    return query


def _hp_reduced(b: Resolver[Ring], event: ev.HpReduced) -> None:
    unit = b.state.units[event.unit]
    if unit.hp == 0 and not unit.ko:
        b.emit(ev.UnitKnockedOut(unit=event.unit))


def _knocked_out(b: Resolver[Ring], event: ev.UnitKnockedOut) -> None:
    b.emit(ev.LpLost(unit=event.unit, amount=1))


def _lp_lost(b: Resolver[Ring], event: ev.LpLost) -> None:
    unit = b.state.units[event.unit]
    if unit.lp == 0 and not unit.removed:
        b.emit(ev.UnitRemoved(unit=event.unit))


def _hp_restored(b: Resolver[Ring], event: ev.HpRestored) -> None:
    unit = b.state.units[event.unit]
    if unit.ko and unit.hp > 0:
        b.emit(ev.UnitRevived(unit=event.unit))


def _turn_ended(b: Resolver[Ring], event: ev.TurnEnded) -> None:
    """Disabled equipment counts down its team's turns, as Stunned does."""
    for off in b.state.disabled:
        if seat_of(off.unit) != event.seat:
            continue
        if off.turns > 1:
            b.emit(ev.EquipmentDisableChanged(unit=off.unit, turns=off.turns - 1, delta=-1))
        else:
            equipment_back(b, off.unit, reason="expired")


# `RingResolver.follow`, by the type of the event applied (events have no subclasses).
_CONSEQUENCES: dict[type, Callable[[Resolver[Ring], Any], None]] = {
    ev.HpReduced: _hp_reduced, ev.UnitKnockedOut: _knocked_out, ev.LpLost: _lp_lost,
    ev.HpRestored: _hp_restored, ev.TurnEnded: _turn_ended,
}


class RingResolver(Resolver[Ring]):
    SETTLES = frozenset({ev.HpRestored})
    FOLLOWS = frozenset(_CONSEQUENCES)
    # A Dynamic removed by an earlier reaction to the same event (eroded to severity 0, say)
    # reacts no more: every ring hook reads its own Dynamic first, so in every version such a
    # reaction failed the command instead of being recorded.
    REACT_WHEN_GONE = False

    def holds(self, effect: Effect) -> bool:
        """Its Dynamic is still in play, in effect or not (a KO'd carrier's, a disabled
        equipment's): only a Dynamic that left play is skipped, whose hook would fail."""
        return effect.owner in dynamics_by_id(self.state)

    def settle(self, event: EventT) -> EventT | None:
        """A heal records the HP it restores: what it asked for, after every modifier, up to
        the HP missing; a heal of a unit at full HP restores nothing and is not recorded
        (`Params.heal_records`; ring 1.0.0 recorded the amount asked for)."""
        s = self.state
        if isinstance(event, ev.HpRestored) and s.params.heal_records == "restored":
            unit = s.units[event.unit]
            restored = min(event.amount, unit.max_hp - unit.hp)
            if restored <= 0:
                return None
            return replace(event, amount=restored) if restored != event.amount else event
        return event

    def follow(self, event: Event) -> None:
        consequence = _CONSEQUENCES.get(type(event))
        if consequence is not None:
            consequence(self, event)


# How ring resolves a command: every resolver of a battle is built from this declaration.
RESOLVING: Resolving[Ring, RingResolver] = Resolving(hooks=HOOKS, effects=active_effects, evolve=evolve,
                                                     resolver=RingResolver)


def equipment_back(b: Resolver[Ring], unit: str, *, reason: str) -> None:
    """Disabled equipment works again, and the pools it shaped come back."""
    off = b.state.disabled_equipment(unit)
    if off is not None:
        b.emit(ev.EquipmentRestored(unit=unit, equipment=off.equipment, pools=off.worn, reason=reason))


def magnitude(dyn: Dyn) -> int:
    spec = content().dynamics[dyn.kind]
    return spec.value + spec.scale * dyn.severity


def scaled(amount: int, bp: int) -> int:
    """`amount` changed by `bp` basis points (+2500: a quarter more), rounded down (floor
    division of integers is the exact floor, as `formulas` rounds)."""
    return max(0, amount * (10_000 + bp) // 10_000)


def part(amount: int, bp: int) -> int:
    """`bp` basis points of `amount`, rounded down."""
    return max(0, amount * bp // 10_000)


def reduce_hp(b: Resolver[Ring], unit: str, amount: int, *, by: str | None = None,
              ability: str | None = None, kind: str = "ability") -> None:
    """Seed 000, HP: a KO'd unit cannot be targeted for HP damage."""
    if unit in b.state.down:
        return
    b.emit(ev.HpReduced(unit=unit, amount=max(0, amount), by=by, ability=ability, kind=kind))


def reduce_hp_events(s: Ring, unit: str, amount: int, *, by: str | None, kind: str) -> list[Event]:
    """The same rule for AFTER reactions, which return their events."""
    if unit in s.down or amount <= 0:
        return []
    return [ev.HpReduced(unit=unit, amount=amount, by=by, kind=kind)]


def restore_hp(b: Resolver[Ring], unit: str, amount: int, *, by: str | None = None,
               ability: str | None = None) -> None:
    fighter = b.state.units[unit]
    if fighter.removed or amount <= 0:
        return
    b.emit(ev.HpRestored(unit=unit, amount=amount, by=by, ability=ability))


def change_mp(b: Resolver[Ring], unit: str, delta: int, ability: str | None = None) -> None:
    fighter = b.state.units[unit]
    delta = max(-fighter.mp, min(delta, fighter.max_mp - fighter.mp))
    if delta:
        b.emit(ev.MpChanged(unit=unit, delta=delta, ability=ability))


def severity_events(s: Ring, dyn: Dyn, delta: int) -> list[Event]:
    """Seed 000, Severity 1-10. A removable Dynamic lowered to 0 leaves play; the others
    (unit, leader, equipment, battlefield) cannot be removed and stop at 1."""
    new = min(10, dyn.severity + delta)
    if new <= 0 and dyn.removable:
        return [ev.DynamicRemoved(id=dyn.id, reason="severity")]
    new = max(1, new)
    return [ev.SeverityChanged(id=dyn.id, severity=new, delta=new - dyn.severity)] if new != dyn.severity else []


def add_dynamic(b: Resolver[Ring], kind: str, *, source: str, severity: int, seat: str | None = None,
                unit: str | None = None, target: str | None = None, by: str | None = None) -> None:
    """Put a Dynamic into play; the same removable Dynamic on the same carrier grows instead."""
    severity = max(1, min(10, severity))
    s = b.state
    if source in ("ability", "item"):
        for dyn in s.dynamics:
            if (dyn.kind == kind and dyn.seat == seat and dyn.unit == unit and dyn.target == target
                    and dyn.removable):
                for event in severity_events(s, dyn, severity):
                    b.emit(event)
                return
    b.apply(ev.DynamicAdded(id=f"d{s.next_dynamic}", kind=kind, source=source, seat=seat, unit=unit,
                            target=target, severity=severity, by=by))


def grants(b: Resolver[Ring], grants_: Iterable[object], *, source: str, seat: str | None,
           unit: str | None = None) -> None:
    for grant in grants_:
        add_dynamic(b, grant.kind, source=source, severity=grant.severity, seat=seat, unit=unit,  # type: ignore[attr-defined]
                    by=seat)


def covers(dyn: Dyn, seat: str) -> bool:
    """A team Dynamic covers its own team; one on the battlefield covers both."""
    return dyn.seat is None or dyn.seat == seat


def carried_by(dyn: Dyn, unit: str | None) -> bool:
    return unit is not None and dyn.unit == unit


def alive_team(s: Ring, seat: str) -> Sequence[str]:
    return [k for k in s.side(seat).team if k not in s.down]
