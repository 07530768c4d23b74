"""Dynamic hooks on hits, healing, MP and permissions (seed 000, UD: Check Phase).

BEFORE hooks alter or neutralise a pending change; AFTER hooks react with new events.
Each reads its numbers from content: magnitude = value + scale x severity. Only direct
ability hits set off the shadow and retaliation, and a counter strike sets off nothing, so
reactions cannot feed each other without end.
"""
from __future__ import annotations

import sys
from collections.abc import Collection

from msgspec.structs import replace

from domain.engine.hooks import HookContext, Phase

from .. import events as ev
from ..content import content
from ..hooks import HOOKS, AbilityCheck, ApRestore, Odds, SwapCost
from ..moves import Modifiers, covers, dyn, magnitude, part, reduce_hp_events, scaled, severity_events, strength
from ..state import Ring, seat_of


# -- BEFORE: hits ------------------------------------------------------------------------
@HOOKS.hook(Phase.BEFORE, on=ev.HpReduced, kind="brutality", subject="by")
def brutality(ctx: HookContext, s: Ring, e: ev.HpReduced) -> ev.HpReduced:
    """"When this Unit is reducing another Unit's HP, that reduction is increased by 25%.\""""
    d = dyn(ctx, s)
    if e.by == d.unit and e.unit != d.unit and e.kind == "ability" and e.amount > 0:
        return replace(e, amount=scaled(e.amount, magnitude(d)))
    return e


@HOOKS.hook(Phase.BEFORE, on=ev.HpReduced, kind="fire_ward", priority=1, subject="unit")
def fire_ward(ctx: HookContext, s: Ring, e: ev.HpReduced) -> ev.HpReduced:
    """Seed 000, Descriptor Tags: fiery Abilities deal less HP damage to the rule's target."""
    d = dyn(ctx, s)
    tag = content().dynamics[d.kind].tag
    if e.unit == d.unit and e.ability is not None and e.amount > 0 and tag in content().ability(e.ability).tags:
        return replace(e, amount=scaled(e.amount, -magnitude(d)))
    return e


@HOOKS.hook(Phase.BEFORE, on=ev.HpReduced, kind="fortify", priority=1, subject="unit")
def fortify(ctx: HookContext, s: Ring, e: ev.HpReduced) -> ev.HpReduced:
    d = dyn(ctx, s)
    if e.unit == d.unit and e.amount > 0:
        return replace(e, amount=scaled(e.amount, -magnitude(d)))
    return e


@HOOKS.hook(Phase.BEFORE, on=ev.HpRestored, kind="nurturing")
def nurturing(ctx: HookContext, s: Ring, e: ev.HpRestored) -> ev.HpRestored:
    """"All ally HP restoration is increased by 10%.\""""
    d = dyn(ctx, s)
    if covers(d, seat_of(e.unit)) and e.amount > 0:
        return replace(e, amount=scaled(e.amount, magnitude(d)))
    return e


@HOOKS.hook(Phase.BEFORE, on=ev.LpLost, kind="soul_anchor")
def soul_anchor(ctx: HookContext, s: Ring, e: ev.LpLost) -> ev.LpLost | None:
    """No LP is lost while the anchor holds, to a KO or to LP damage; each save wears it
    down by its threshold."""
    d = dyn(ctx, s)
    threshold = content().dynamics[d.kind].threshold
    if covers(d, seat_of(e.unit)) and d.severity >= threshold:
        ctx.resolver.scheduled.extend(severity_events(s, d, -threshold))
        return None
    return e


# -- BEFORE: permissions and numbers ---------------------------------------------------
@HOOKS.hook(Phase.BEFORE, on=AbilityCheck, kind="mana_lock")
def mana_lock(ctx: HookContext, s: Ring, q: AbilityCheck) -> AbilityCheck | None:
    """"Prevent the use of ALL Abilities that reduce the user's MP by 10 or more.\""""
    return None if q.mp >= strength(ctx, s) else q


@HOOKS.hook(Phase.BEFORE, on=AbilityCheck, kind="stunned")
def stunned(ctx: HookContext, s: Ring, q: AbilityCheck) -> AbilityCheck | None:
    return None if q.unit is not None and q.unit == dyn(ctx, s).unit else q


# What `ability_blocks` gives with no `AbilityCheck` hook in force: no MP cost is locked (every
# one is below this) and no unit is stunned.
OPEN: tuple[int, Collection[str]] = (sys.maxsize, frozenset())


def ability_blocks(s: Ring, checks: Modifiers) -> tuple[int, Collection[str]] | None:
    """The `AbilityCheck` hooks in `checks` (`moves.modifiers`) as one test, worked out once for
    every ability a state lists: (the least MP cost a Mana Lock blocks, the units Stunned
    blocks). These hooks only ever block, so an ability of MP cost `mp` used by `unit` (a
    leader's: no unit, 0 MP) passes them all exactly when `mp` is below that cost and `unit` is
    not among those units. None when a hook other than these is in force: each ability then
    goes through them (`moves.through`)."""
    least, units = OPEN[0], set()
    for ctx, fn in checks:
        if fn is mana_lock:
            least = min(least, strength(ctx, s))
        elif fn is stunned:
            unit = dyn(ctx, s).unit
            if unit is not None:
                units.add(unit)
        else:
            return None
    return least, units


@HOOKS.hook(Phase.BEFORE, on=SwapCost, kind="quick_hands", subject="seat")
def quick_hands(ctx: HookContext, s: Ring, q: SwapCost) -> SwapCost:
    d = dyn(ctx, s)
    return replace(q, amount=max(0, q.amount - magnitude(d))) if covers(d, q.seat) else q


@HOOKS.hook(Phase.BEFORE, on=ApRestore, kind="tailwind", subject="seat")
def tailwind(ctx: HookContext, s: Ring, q: ApRestore) -> ApRestore:
    d = dyn(ctx, s)
    return replace(q, amount=q.amount + magnitude(d)) if covers(d, q.seat) else q


@HOOKS.hook(Phase.BEFORE, on=Odds, kind="keen_eye", subject="seat")
def keen_eye(ctx: HookContext, s: Ring, q: Odds) -> Odds:
    d = dyn(ctx, s)
    if not covers(d, q.seat) or q.normal == 0:
        return q
    moved = min(q.normal, magnitude(d))
    return replace(q, normal=q.normal - moved, critical=q.critical + moved)


# -- AFTER: reactions to hits and MP ---------------------------------------------------
@HOOKS.hook(Phase.AFTER, on=ev.HpReduced, kind="rage", subject="unit")
def rage(ctx: HookContext, s: Ring, e: ev.HpReduced) -> list[ev.Event]:
    """"When this Unit takes damage, it gains +1 ATK.\""""
    d = dyn(ctx, s)
    if e.unit == d.unit and e.amount > 0 and e.unit not in s.down:
        return [ev.Augmented(unit=e.unit, attr="atk", delta=magnitude(d))]
    return []


@HOOKS.hook(Phase.AFTER, on=ev.HpReduced, kind="shadow", subject="by")
def shadow(ctx: HookContext, s: Ring, e: ev.HpReduced) -> list[ev.Event]:
    """"When this Unit reduces another Unit's HP, this Unit's shadow also attacks for an
    additional 25% damage.\""""
    d = dyn(ctx, s)
    if e.by != d.unit or e.unit == d.unit or e.kind != "ability":
        return []
    return reduce_hp_events(s, e.unit, part(e.amount, magnitude(d)), by=d.unit, kind="shadow")


@HOOKS.hook(Phase.AFTER, on=ev.HpReduced, kind="retaliation")
def retaliation(ctx: HookContext, s: Ring, e: ev.HpReduced) -> list[ev.Event]:
    """A damage threshold exceeded in a single hit sets it off against the attacker."""
    d = dyn(ctx, s)
    threshold = content().dynamics[d.kind].threshold
    if e.kind != "ability" or e.by is None or e.amount < threshold or not covers(d, seat_of(e.unit)) \
            or seat_of(e.by) == seat_of(e.unit):
        return []
    return reduce_hp_events(s, e.by, magnitude(d), by=e.unit, kind="counter")


@HOOKS.hook(Phase.AFTER, on=ev.HpReduced, kind="counter_stance", priority=-1, subject="unit")
def counter_stance(ctx: HookContext, s: Ring, e: ev.HpReduced) -> list[ev.Event]:
    """A hit-count reaction: every third hit the carrier takes, it strikes back. A shadow's
    hit counts and can be the third (seed 000, Check Phase); a counter strike never is, so
    two counters cannot answer each other. It reacts before any other reaction, so the
    count it reads is this hit's."""
    d = dyn(ctx, s)
    every = max(1, content().dynamics[d.kind].threshold)
    carrier = s.units.get(d.unit or "")
    if e.unit != d.unit or e.kind not in ("ability", "shadow") or e.by is None or carrier is None \
            or carrier.down or carrier.hits % every:
        return []
    return reduce_hp_events(s, e.by, magnitude(d), by=d.unit, kind="counter")


@HOOKS.hook(Phase.AFTER, on=ev.MpChanged, kind="casters_bane")
def casters_bane(ctx: HookContext, s: Ring, e: ev.MpChanged) -> list[ev.Event]:
    """"When using an Ability, Units take HP damage equal to the MP cost of that Ability.\""""
    d = dyn(ctx, s)
    if e.ability is None or e.delta >= 0 or not covers(d, seat_of(e.unit)):
        return []
    return reduce_hp_events(s, e.unit, part(-e.delta, magnitude(d)), by=None, kind="dynamic")
