"""Seed 001, Effects: each of the seven as hooks on the queries the rules ask."""
from __future__ import annotations

from domain.engine.hooks import HookContext, Phase
from msgspec.structs import replace

from ..hooks import HOOKS, Allowance, Provokes, StrikePower, Targetable
from ..state import Skirmish


@HOOKS.hook(Phase.BEFORE, on=Provokes, kind="aggression")
def aggression(ctx: HookContext, s: Skirmish, q: Provokes) -> Provokes:
    """Opponents able to attack you do so at the beginning of their turns."""
    return replace(q, provoked=True) if ctx.effect.owner == q.target else q


@HOOKS.hook(Phase.BEFORE, on=Targetable, kind="concealed")
def concealed(ctx: HookContext, s: Skirmish, q: Targetable) -> Targetable:
    """Opponents can't target you (it ends when you attack, or at the start of the giver's turn)."""
    mine = ctx.effect.owner == q.unit and s.units[q.unit].seat != q.by
    return replace(q, allowed=False) if mine else q


@HOOKS.hook(Phase.BEFORE, on=StrikePower, kind="prowess", priority=0)
def prowess(ctx: HookContext, s: Skirmish, q: StrikePower) -> StrikePower:
    """Sharply increase your power on your next attack: + prowess_percent of it."""
    if ctx.effect.owner != q.attacker:
        return q
    return replace(q, power=q.power + q.power * s.params.prowess_percent // 100)


@HOOKS.hook(Phase.BEFORE, on=StrikePower, kind="amplify", priority=1)
def amplify(ctx: HookContext, s: Skirmish, q: StrikePower) -> StrikePower:
    """Additional damage based on the current turn: amplify_per_round x the round."""
    if ctx.effect.owner != q.attacker:
        return q
    return replace(q, power=q.power + s.params.amplify_per_round * q.round)


@HOOKS.hook(Phase.BEFORE, on=StrikePower, kind="fortified", priority=2)
def fortified(ctx: HookContext, s: Skirmish, q: StrikePower) -> StrikePower:
    """The next attack made against you has its power reduced to one."""
    if ctx.effect.owner != q.target:
        return q
    return replace(q, power=min(q.power, s.params.fortified_power))


@HOOKS.hook(Phase.BEFORE, on=Allowance, kind="adrenaline", priority=0)
def adrenaline(ctx: HookContext, s: Skirmish, q: Allowance) -> Allowance:
    """Move or attack without counting towards the turn's limit (not a counter-attack)."""
    if ctx.effect.owner != q.unit or not q.spent or q.act == "counter" or q.adrenaline:
        return q
    return replace(q, allowed=True, adrenaline=True)


@HOOKS.hook(Phase.BEFORE, on=Allowance, kind="restrained", priority=1)
def restrained(ctx: HookContext, s: Skirmish, q: Allowance) -> Allowance:
    """You can't move or attack (counter-attacks included)."""
    if ctx.effect.owner != q.unit or not q.allowed:
        return q
    return replace(q, allowed=False, adrenaline=False)
