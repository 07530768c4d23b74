"""Drills: continuous effects while in play (seed 004, Playing a drill, step 2)."""
from __future__ import annotations

from msgspec.structs import replace

from domain.engine.hooks import HookContext, Phase

from .. import events as ev
from ..hooks import HOOKS, Cost, HandSize, PowerUp, ReadyDraw
from ..state import Duel


@HOOKS.hook(Phase.BEFORE, on=ev.DamageDealt, kind="whetstone")
def whetstone(ctx: HookContext, s: Duel, e: ev.DamageDealt) -> ev.DamageDealt:
    if e.source == ctx.effect.owner and e.by == "attack":
        return replace(e, amount=e.amount + 1)
    return e


@HOOKS.hook(Phase.BEFORE, on=ev.DamageDealt, kind="iron_skin", priority=1)
def iron_skin(ctx: HookContext, s: Duel, e: ev.DamageDealt) -> ev.DamageDealt:
    if e.seat == ctx.effect.owner and e.amount > 0:
        return replace(e, amount=e.amount - 1)
    return e


@HOOKS.hook(Phase.BEFORE, on=Cost, kind="focus_lens")
def focus_lens(ctx: HookContext, s: Duel, q: Cost) -> Cost:
    if q.seat == ctx.effect.owner and q.kind == "attack" and q.amount > 0:
        return replace(q, amount=q.amount - 1)
    return q


@HOOKS.hook(Phase.BEFORE, on=PowerUp, kind="generator")
def generator(ctx: HookContext, s: Duel, q: PowerUp) -> PowerUp:
    return replace(q, amount=q.amount + 1) if q.seat == ctx.effect.owner else q


@HOOKS.hook(Phase.BEFORE, on=ReadyDraw, kind="scholar")
def scholar(ctx: HookContext, s: Duel, q: ReadyDraw) -> ReadyDraw:
    return replace(q, amount=q.amount + 1) if q.seat == ctx.effect.owner else q


@HOOKS.hook(Phase.BEFORE, on=HandSize, kind="deep_pockets")
def deep_pockets(ctx: HookContext, s: Duel, q: HandSize) -> HandSize:
    return replace(q, amount=q.amount + 2) if q.seat == ctx.effect.owner else q
