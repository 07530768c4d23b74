"""Dynamics that act as turns start and end: damage and healing over time, MP springs,
the battlefield's own rules, Stunned wearing off, and erosion of other Dynamics."""
from __future__ import annotations

from domain.engine.hooks import HookContext, Phase

from .. import events as ev
from ..content import content
from ..hooks import HOOKS
from ..moves import covers, dyn, dynamics_by_id, magnitude, part, reduce_hp_events, severity_events
from ..state import Ring, seat_of


def _carrier_turn(ctx: HookContext, s: Ring, e: ev.TurnStarted) -> str | None:
    """The carrier, when the turn starting is its team's and it can be hit or healed."""
    d = dyn(ctx, s)
    if d.unit is None or seat_of(d.unit) != e.seat or d.unit in s.down:
        return None
    return d.unit


@HOOKS.hook(Phase.AFTER, on=ev.TurnStarted, kind="burning", subject="seat")
def burning(ctx: HookContext, s: Ring, e: ev.TurnStarted) -> list[ev.Event]:
    unit = _carrier_turn(ctx, s, e)
    return reduce_hp_events(s, unit, magnitude(dyn(ctx, s)), by=None, kind="dynamic") if unit else []


@HOOKS.hook(Phase.AFTER, on=ev.TurnStarted, kind="venom", subject="seat")
def venom(ctx: HookContext, s: Ring, e: ev.TurnStarted) -> list[ev.Event]:
    unit = _carrier_turn(ctx, s, e)
    if unit is None:
        return []
    return reduce_hp_events(s, unit, max(1, part(s.units[unit].max_hp, magnitude(dyn(ctx, s)))), by=None,
                            kind="dynamic")


@HOOKS.hook(Phase.AFTER, on=ev.TurnStarted, kind="regeneration", subject="seat")
def regeneration(ctx: HookContext, s: Ring, e: ev.TurnStarted) -> list[ev.Event]:
    unit = _carrier_turn(ctx, s, e)
    if unit is None or s.units[unit].hp >= s.units[unit].max_hp:
        return []
    return [ev.HpRestored(unit=unit, amount=magnitude(dyn(ctx, s)))]


@HOOKS.hook(Phase.AFTER, on=ev.TurnStarted, kind="mana_spring", subject="seat")
def mana_spring(ctx: HookContext, s: Ring, e: ev.TurnStarted) -> list[ev.Event]:
    d = dyn(ctx, s)
    ring = s.ring_unit(e.seat)
    if not covers(d, e.seat) or ring is None or ring.down:
        return []
    gain = min(magnitude(d), ring.max_mp - ring.mp)
    return [ev.MpChanged(unit=ring.key, delta=gain)] if gain > 0 else []


@HOOKS.hook(Phase.AFTER, on=ev.TurnStarted, kind="scorched_earth", subject="seat")
def scorched_earth(ctx: HookContext, s: Ring, e: ev.TurnStarted) -> list[ev.Event]:
    d = dyn(ctx, s)
    ring = s.ring_unit(e.seat)
    spared = content().dynamics[d.kind].tag
    if not covers(d, e.seat) or ring is None or spared in ring.tags:
        return []
    return reduce_hp_events(s, ring.key, magnitude(d), by=None, kind="dynamic")


@HOOKS.hook(Phase.AFTER, on=ev.TurnStarted, kind="erosion", subject="seat")
def erosion(ctx: HookContext, s: Ring, e: ev.TurnStarted) -> list[ev.Event]:
    """Dynamic-on-Dynamic: wears its target's severity down on its owner's turns."""
    d = dyn(ctx, s)
    if d.seat != e.seat:
        return []
    target = dynamics_by_id(s).get(d.target or "")      # `s.dynamic`, by the index `dyn` reads
    if target is None:
        return []
    return severity_events(s, target, -magnitude(d))


@HOOKS.hook(Phase.AFTER, on=ev.TurnEnded, kind="stunned")
def stun_wears_off(ctx: HookContext, s: Ring, e: ev.TurnEnded) -> list[ev.Event]:
    d = dyn(ctx, s)
    if d.unit is None or seat_of(d.unit) != e.seat:
        return []
    return severity_events(s, d, -1)
