"""Ring reducer: one small function per event. No rules here: every number was decided."""
from __future__ import annotations

from collections.abc import Callable

import msgspec
from msgspec.structs import replace

from domain.engine.choices import ChoicesRevealed, PendingChoices
from domain.engine.reducer import Reducer

from . import events as ev
from .content import content
from .state import (SEATS, DisabledEquipment, Dyn, Fighter, Params, PoolSlot, Ring, Side, opponent, pool_gained,
                    pool_lost, pool_replaced)


evolve: Reducer[Ring] = Reducer("ring")


# The state with one fighter or one side changed. Each handler makes the changed record itself
# (`replace` with its own keywords): handing the keywords on would build them twice.

def _unit(s: Ring, unit: Fighter) -> Ring:
    # A copy of the dict, then one entry: quicker than unpacking it into a new one.
    units = s.units.copy()
    units[unit.key] = unit
    return replace(s, units=units)


def _side(s: Ring, seat: str, side: Side) -> Ring:
    return replace(s, p1=side) if seat == "p1" else replace(s, p2=side)


def _own(s: Ring, seat: str) -> Side:
    return s.p1 if seat == "p1" else s.p2


def _dyn(s: Ring, dyn_id: str, **changes: object) -> Ring:
    return replace(s, dynamics=tuple([replace(d, **changes) if d.id == dyn_id else d for d in s.dynamics]))


@evolve.on()
def _(e: ev.RingStarted, s: None) -> Ring:
    sides = {}
    for seat in SEATS:
        leader = content().leaders[e.leaders[seat]]
        sides[seat] = Side(leader=leader.id, leader_hp=leader.hp, leader_max_hp=leader.hp, max_ap=leader.ap, deck=())
    return Ring(params=Params(**e.params), p1=sides["p1"], p2=sides["p2"], units={},
                battlefield=e.fixed_battlefield)


@evolve.on()
def _(e: ev.DeckBuilt, s: Ring) -> Ring:
    fighters = [msgspec.convert(f, type=Fighter) for f in e.fighters]
    down = s.down | {f.key for f in fighters if f.down}
    s = replace(s, units={**s.units, **{f.key: f for f in fighters}}, down=down)
    return _side(s, e.seat, replace(_own(s, e.seat), deck=tuple(f.key for f in fighters)))


@evolve.on()
def _(e: ev.InventoryPacked, s: Ring) -> Ring:
    return _side(s, e.seat, replace(_own(s, e.seat), items=tuple(e.items or ())))


@evolve.on()
def _(e: ev.InitiativeRolled, s: Ring) -> Ring:
    return replace(s, initiative=e.winner, advantage=e.advantage, phase="battlefield")


@evolve.on(ev.BattlefieldDrawn, ev.BattlefieldChosen)
def _(e: ev.BattlefieldDrawn | ev.BattlefieldChosen, s: Ring) -> Ring:
    return replace(s, battlefield=e.battlefield)


@evolve.on()
def _(e: ev.PickStarted, s: Ring) -> Ring:
    phase = "team" if e.kind == "pick_team" else "ring"
    return replace(s, phase=phase, choices=PendingChoices(kind=e.kind, awaiting=e.order),
                   pick_sequential=e.sequential)


evolve.unchanged(ev.TeamPreviewed)


@evolve.on()
def _(e: ChoicesRevealed, s: Ring) -> Ring:
    s = replace(s, choices=None)
    for seat, choice in e.choices.items():
        if e.kind == "pick_team":
            team = tuple(f"{seat}.{u}" for u in choice["units"])
            s = _side(s, seat, replace(_own(s, seat), team=team))
        else:
            s = _side(s, seat, replace(_own(s, seat), ring=f"{seat}.{choice['unit']}"))
    return s


@evolve.on()
def _(e: ev.AttributeBoosted, s: Ring) -> Ring:
    unit = s.units[e.unit]
    return _unit(s, replace(unit, base={**unit.base, e.attr: unit.base[e.attr] + e.amount}))


@evolve.on()
def _(e: ev.DynamicAdded, s: Ring) -> Ring:
    dyn = Dyn(id=e.id, kind=e.kind, source=e.source, seat=e.seat, unit=e.unit, target=e.target,
              severity=e.severity, by=e.by)
    return replace(s, dynamics=s.dynamics + (dyn,), next_dynamic=s.next_dynamic + 1)


@evolve.on()
def _(e: ev.SeverityChanged, s: Ring) -> Ring:
    return _dyn(s, e.id, severity=e.severity)


@evolve.on()
def _(e: ev.DynamicRemoved, s: Ring) -> Ring:
    # A Dynamic-on-Dynamic whose target leaves play leaves with it.
    return replace(s, dynamics=tuple(d for d in s.dynamics if d.id != e.id and d.target != e.id))


@evolve.on()
def _(e: ev.TurnStarted, s: Ring) -> Ring:
    s = _side(s, e.seat, replace(_own(s, e.seat), ap=e.ap))
    return replace(s, phase="battle", turn=e.turn, active=e.seat, swap_required=False, strike_open=None)


@evolve.on()
def _(e: ev.SwapRequired, s: Ring) -> Ring:
    return replace(s, swap_required=True)


@evolve.on(ev.AbilityUsed)
def _(e: ev.AbilityUsed, s: Ring) -> Ring:
    unit = s.units[e.unit]
    return _unit(s, replace(unit, uses={**unit.uses, e.ability: unit.uses.get(e.ability, 0) + 1}))


evolve.unchanged(ev.LeaderAbilityUsed, ev.LeaderStruck, ev.TurnYielded, ev.EffectivenessRolled)


@evolve.on()
def _(e: ev.ItemUsed, s: Ring) -> Ring:
    items = s.side(e.seat).items
    i = items.index(e.item)
    return _side(s, e.seat, replace(_own(s, e.seat), items=items[:i] + items[i + 1:]))


@evolve.on()
def _(e: ev.UnitSwapped, s: Ring) -> Ring:
    return replace(_side(s, e.seat, replace(_own(s, e.seat), ring=f"{e.seat}.{e.unit}")), swap_required=False)


@evolve.on()
def _(e: ev.ApSpent, s: Ring) -> Ring:
    side = _own(s, e.seat)
    return _side(s, e.seat, replace(side, ap=side.ap - e.amount))


@evolve.on()
def _(e: ev.ApGained, s: Ring) -> Ring:
    side = _own(s, e.seat)
    return _side(s, e.seat, replace(side, ap=side.ap + e.amount))


@evolve.on()
def _(e: ev.HpReduced, s: Ring) -> Ring:
    unit = s.units[e.unit]
    return _unit(s, replace(unit, hp=max(0, unit.hp - e.amount), hits=unit.hits + (e.by is not None)))


@evolve.on()
def _(e: ev.HpRestored, s: Ring) -> Ring:
    unit = s.units[e.unit]
    return _unit(s, replace(unit, hp=min(unit.max_hp, unit.hp + e.amount)))


@evolve.on()
def _(e: ev.MpChanged, s: Ring) -> Ring:
    unit = s.units[e.unit]
    return _unit(s, replace(unit, mp=unit.mp + e.delta))


@evolve.on()
def _(e: ev.Augmented, s: Ring) -> Ring:
    unit = s.units[e.unit]
    return _unit(s, replace(unit, aug={**unit.aug, e.attr: unit.aug.get(e.attr, 0) + e.delta}))


@evolve.on()
def _(e: ev.ExhaustionChanged, s: Ring) -> Ring:
    return _unit(s, replace(s.units[e.unit], exs=e.exs))


@evolve.on()
def _(e: ev.TagAdded, s: Ring) -> Ring:
    unit = s.units[e.unit]
    return _unit(s, replace(unit, tags=unit.tags + (e.tag,)))


def _pools(s: Ring, key: str, change: Callable[[tuple[PoolSlot, ...]], tuple[PoolSlot, ...]]) -> Ring:
    """A pool change in battle; with the unit's equipment disabled, the pools that come back
    with it take the same change."""
    unit = s.units[key]
    s = _unit(s, replace(unit, pools=change(unit.pools)))
    return _disabled(s, key, lambda off: replace(off, worn=change(off.worn)))


def _disabled(s: Ring, key: str, change: Callable[[DisabledEquipment], DisabledEquipment | None]) -> Ring:
    """The record of `key`'s disabled equipment changed (None: it is gone)."""
    if s.disabled_equipment(key) is None:
        return s
    changed = (change(off) if off.unit == key else off for off in s.disabled)
    return replace(s, disabled=tuple(off for off in changed if off is not None))


@evolve.on()
def _(e: ev.PoolChanged, s: Ring) -> Ring:
    return _pools(s, e.unit, lambda pools: pool_gained(pools, e.pool, e.level))


@evolve.on()
def _(e: ev.PoolReplaced, s: Ring) -> Ring:
    return _pools(s, e.unit, lambda pools: pool_replaced(pools, e.pool, e.into))


@evolve.on()
def _(e: ev.PoolLost, s: Ring) -> Ring:
    return _pools(s, e.unit, lambda pools: pool_lost(pools, e.pool))


@evolve.on()
def _(e: ev.EquipmentDisabled, s: Ring) -> Ring:
    off = DisabledEquipment(unit=e.unit, equipment=e.equipment, turns=e.turns, worn=s.units[e.unit].pools)
    return replace(_unit(s, replace(s.units[e.unit], pools=e.pools)), disabled=s.disabled + (off,))


@evolve.on()
def _(e: ev.EquipmentDisableChanged, s: Ring) -> Ring:
    return _disabled(s, e.unit, lambda off: replace(off, turns=e.turns))


@evolve.on()
def _(e: ev.EquipmentRestored, s: Ring) -> Ring:
    return _disabled(_unit(s, replace(s.units[e.unit], pools=e.pools)), e.unit, lambda off: None)


@evolve.on()
def _(e: ev.UnitKnockedOut, s: Ring) -> Ring:
    unit = replace(s.units[e.unit], ko=True)
    return replace(_unit(s, unit), down=s.down | {e.unit}, strike_open=_opened(s, e.unit))


@evolve.on()
def _(e: ev.LpLost, s: Ring) -> Ring:
    unit = s.units[e.unit]
    return _unit(s, replace(unit, lp=max(0, unit.lp - e.amount)))


@evolve.on()
def _(e: ev.LpRestored, s: Ring) -> Ring:
    unit = s.units[e.unit]
    return _unit(s, replace(unit, lp=min(unit.max_lp, unit.lp + e.amount)))


@evolve.on()
def _(e: ev.UnitRemoved, s: Ring) -> Ring:
    unit = replace(s.units[e.unit], removed=True)
    return replace(_unit(s, unit), down=s.down | {e.unit}, strike_open=_opened(s, e.unit))


def _opened(s: Ring, unit: str) -> str | None:
    """The side whose turn it is, if it just put the other side's Ring unit down: the strike
    window of seed 000's Battle section (`Params.strike_window`)."""
    if s.active is not None and s.side(opponent(s.active)).ring == unit:
        return s.active
    return s.strike_open


@evolve.on()
def _(e: ev.UnitRevived, s: Ring) -> Ring:
    return replace(_unit(s, replace(s.units[e.unit], ko=False)), down=s.down - {e.unit})


@evolve.on()
def _(e: ev.LeaderHpReduced, s: Ring) -> Ring:
    side = _own(s, e.seat)
    return _side(s, e.seat, replace(side, leader_hp=max(0, side.leader_hp - e.amount)))


@evolve.on()
def _(e: ev.LeaderHpRestored, s: Ring) -> Ring:
    side = s.side(e.seat)
    return _side(s, e.seat, replace(_own(s, e.seat), leader_hp=min(side.leader_max_hp, side.leader_hp + e.amount)))


@evolve.on()
def _(e: ev.TurnEnded, s: Ring) -> Ring:
    return replace(_side(s, e.seat, replace(_own(s, e.seat), ap=0)), active=None)


@evolve.on()
def _(e: ev.TimeLimitReached, s: Ring) -> Ring:
    return replace(s, time_limit=(e.winner, e.reason), active=None)

