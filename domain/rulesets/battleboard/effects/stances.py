"""The guard stances as hooks: each lasts until the start of its owner's next turn."""
from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.engine.events import Event
from domain.engine.hooks import HookContext, Phase

from .. import events as ev
from ..board import distance, zone
from ..hooks import HOOKS, DefenseQuery, EvasionQuery
from ..state import Battleboard, Combatant


def _stance_owner(ctx: HookContext, s: Battleboard) -> Combatant:
    return s.units[ctx.effect.owner]


@HOOKS.hook(Phase.BEFORE, on=DefenseQuery, kind="shield_wall")
def _shield_wall(ctx: HookContext, s: Battleboard, q: DefenseQuery) -> DefenseQuery:
    return msgspec.structs.replace(q, defense=q.defense + ctx.effect.severity) if q.target == ctx.effect.owner else q


@HOOKS.hook(Phase.BEFORE, on=DefenseQuery, kind="bulwark")
def _bulwark(ctx: HookContext, s: Battleboard, q: DefenseQuery) -> DefenseQuery:
    owner, target = _stance_owner(ctx, s), s.units[q.target]
    if target.id != owner.id and target.side == owner.side and owner.cell and target.cell \
            and distance(owner.cell, target.cell) == 1:
        return msgspec.structs.replace(q, defense=q.defense + ctx.effect.severity)
    return q


@HOOKS.hook(Phase.BEFORE, on=EvasionQuery, kind="evade")
def _evade(ctx: HookContext, s: Battleboard, q: EvasionQuery) -> EvasionQuery:
    return msgspec.structs.replace(q, evasion=q.evasion + ctx.effect.severity) if q.target == ctx.effect.owner else q


@HOOKS.hook(Phase.AFTER, on=ev.Moved, kind="sentinel")
def _sentinel(ctx: HookContext, s: Battleboard, e: ev.Moved) -> list[Event]:
    """An enemy that steps into the sentinel's zone of control taps one of its tokens."""
    return _entered(ctx, s, e.unit, [e.to])


@HOOKS.hook(Phase.AFTER, on=ev.Charged, kind="sentinel")
def _sentinel_charge(ctx: HookContext, s: Battleboard, e: ev.Charged) -> list[Event]:
    """A charge steps into the zone too: one token for the charge (a straight line enters it once)."""
    return _entered(ctx, s, e.unit, e.cells)


def _entered(ctx: HookContext, s: Battleboard, key: str, cells: Sequence[Sequence[int]]) -> list[Event]:
    owner, mover = _stance_owner(ctx, s), s.units[key]
    if owner.cell is None or mover.side == owner.side or mover.defeated \
            or not any((c[0], c[1]) in zone(owner.cell) for c in cells):
        return []
    return [_loss(mover)]


@HOOKS.hook(Phase.AFTER, on=ev.DiceRolled, kind="riposte")
def _riposte(ctx: HookContext, s: Battleboard, e: ev.DiceRolled) -> list[Event]:
    """An enemy that attacks the riposting combatant from next to it taps one of its tokens."""
    owner, attacker = _stance_owner(ctx, s), s.units[e.attacker]
    if e.target != owner.id or owner.cell is None or attacker.cell is None or attacker.defeated \
            or distance(owner.cell, attacker.cell) != 1:
        return []
    return [_loss(attacker)]


def _loss(u: Combatant) -> Event:
    """A stance's token loss: the defeat of a combatant with none left, else the usual tap."""
    if u.tokens_left == 0:
        return ev.Defeated(unit=u.id)
    if u.untapped:
        return ev.TokenTapped(unit=u.id, reason="stance")
    return ev.TokenDiscarded(unit=u.id, tapped=True, reason="stance")
