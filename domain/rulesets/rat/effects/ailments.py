"""Seed 003, 2.1.4: the status ailments' behaviour, as hooks on the rules' queries and
events. Their numbers (durations, stat percentages) are content (`ailments.toml`)."""
from __future__ import annotations

from typing import Any

from domain.engine.events import Event
from domain.engine.hooks import Handler, HookContext, Phase
from msgspec.structs import replace

from .. import events as ev
from ..content import content
from ..hooks import HOOKS, Affliction, Aging, CanAct, KoCheck, StatQuery
from ..hp import deal_damage, triggered
from ..state import Rat, Status

MODIFIERS = ("burned", "chilled", "frozen", "blinded", "paralyzed")


def _mine(ctx: HookContext, q: Any) -> bool:
    return bool(ctx.effect.owner == q.entity)


def stat_modifier(ctx: HookContext, s: Rat, q: StatQuery) -> StatQuery:
    """ATK, DEF and SPD percentages (BURNED DEF 50%, CHILLED SPD 50%, PARALYZED SPD 150%,
    BLINDED ATK 0), and FROZEN's SPD of -infinity."""
    if not _mine(ctx, q):
        return q
    ailment = content().ailments[ctx.effect.kind]
    pct = {"atk": ailment.atk_pct, "def": ailment.def_pct, "spd": ailment.spd_pct}[q.stat]
    floor = q.floor or (q.stat == "spd" and ailment.spd_floor)
    return replace(q, pct=q.pct * pct // 100, floor=floor) if pct != 100 or floor != q.floor else q


for _kind in MODIFIERS:
    HOOKS.hook(Phase.BEFORE, on=StatQuery, kind=_kind)(stat_modifier)


def tick(fraction: int, cause: str) -> Handler:
    """on_turn_end: 1/`fraction` of max HP as damage (BLEEDING 1/8, POISONED and BURNED 1/16)."""
    def on_turn_end(ctx: HookContext, s: Rat, e: ev.TurnEnding) -> list[Event]:
        if e.entity != ctx.effect.owner:        # another entity's turn end: one per entity
            return []
        entity = s.entities[ctx.effect.owner]
        if entity.standing:
            triggered(ctx.resolver, ctx.effect.kind, entity.id, e.TOPIC)
            deal_damage(ctx.resolver, entity.id, max(1, entity.max_hp // fraction), cause, None)
        return []
    return on_turn_end


HOOKS.hook(Phase.AFTER, on=ev.TurnEnding, kind="bleeding")(tick(8, "bleeding"))
HOOKS.hook(Phase.AFTER, on=ev.TurnEnding, kind="poisoned")(tick(16, "poisoned"))
HOOKS.hook(Phase.AFTER, on=ev.TurnEnding, kind="burned")(tick(16, "burned"))


@HOOKS.hook(Phase.AFTER, on=ev.HpChanged, kind="bleeding")
@HOOKS.hook(Phase.AFTER, on=ev.EnemyHpChanged, kind="bleeding")
def bleeding_healed(ctx: HookContext, s: Rat, e: ev.HpChanged | ev.EnemyHpChanged) -> list[Event]:
    """BLEEDING: healed by any amount, the status is removed. An enemy counts as healed as its
    public `healed` says (since 1.1.0, a heal at full HP too: how much HP moved is hidden)."""
    healed = e.healed if isinstance(e, ev.EnemyHpChanged) else e.delta > 0
    if e.target == ctx.effect.owner and healed:
        return [ev.StatusRemoved(target=e.target, kind="bleeding", reason="healed")]
    return []


@HOOKS.hook(Phase.BEFORE, on=KoCheck, kind="poisoned", priority=0)
def poison_spares(ctx: HookContext, s: Rat, q: KoCheck) -> KoCheck:
    """POISONED: would be knocked out, the status is cured instead and HP set to 1."""
    return replace(q, result="spared:poisoned") if _mine(ctx, q) and q.result == "knocked_out" else q


@HOOKS.hook(Phase.BEFORE, on=KoCheck, kind="at_risk", priority=2)
def at_risk(ctx: HookContext, s: Rat, q: KoCheck) -> KoCheck:
    """AT_RISK: would be knocked out by any means, it dies instead."""
    return replace(q, result="killed") if _mine(ctx, q) and q.result == "knocked_out" else q


def cure_instead(q: Affliction, cured: str) -> Affliction:
    return replace(q, result="cure", cures=(*q.cures, cured))


def cured_by(incoming: str) -> Handler:
    """on_status_given: the owner would receive `incoming`, so this ailment is cured instead."""
    def meets(ctx: HookContext, s: Rat, q: Affliction) -> Affliction:
        if _mine(ctx, q) and q.kind == incoming and q.result in ("gain", "cure"):
            return cure_instead(q, ctx.effect.kind)
        return q
    return meets


BURN_CURES = cured_by("burned")
HOOKS.hook(Phase.BEFORE, on=Affliction, kind="burned")(cured_by("chilled"))    # BURNED: CHILLED cures it
HOOKS.hook(Phase.BEFORE, on=Affliction, kind="frozen")(BURN_CURES)             # FROZEN: BURNED cures it


@HOOKS.hook(Phase.BEFORE, on=Affliction, kind="chilled")
def chilled_meets(ctx: HookContext, s: Rat, q: Affliction) -> Affliction:
    """CHILLED: CHILLED again becomes FROZEN; BURNED cures CHILLED instead."""
    if _mine(ctx, q) and q.kind == "chilled" and q.result == "gain":
        return replace(q, result="freeze")
    return BURN_CURES(ctx, s, q)


@HOOKS.hook(Phase.BEFORE, on=CanAct, kind="stunned")
def stunned(ctx: HookContext, s: Rat, q: CanAct) -> CanAct:
    """STUNNED: may not act this turn."""
    return replace(q, reason="stunned") if _mine(ctx, q) and not q.reason else q


@HOOKS.hook(Phase.BEFORE, on=CanAct, kind="paralyzed")
def paralyzed(ctx: HookContext, s: Rat, q: CanAct) -> CanAct:
    """PARALYZED: every 2nd turn after it was gained (gained + 2, + 4, ...), no action."""
    assert isinstance(ctx.effect, Status), "rat keeps its effects as Status records"
    since = q.turn - ctx.effect.gained
    if _mine(ctx, q) and not q.reason and since > 0 and since % 2 == 0:
        return replace(q, reason="paralyzed")
    return q


@HOOKS.hook(Phase.BEFORE, on=Aging, kind="decelerated_status", priority=0)
def decelerated(ctx: HookContext, s: Rat, q: Aging) -> Aging:
    """DECELERATED_STATUS: on even turns, no counter but its own advances."""
    if _mine(ctx, q) and q.turn % 2 == 0 and q.kind != "decelerated_status":
        return replace(q, step=0)
    return q


@HOOKS.hook(Phase.BEFORE, on=Aging, kind="accelerated_status", priority=1)
def accelerated(ctx: HookContext, s: Rat, q: Aging) -> Aging:
    """ACCELERATED_STATUS: a counter that advances advances by 2."""
    return replace(q, step=q.step * 2) if _mine(ctx, q) and q.step > 0 else q
