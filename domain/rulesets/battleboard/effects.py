"""The resolver that runs a battleboard batch, the guard stances as hooks, and the small moves
every rule shares: losing a defense token, defeat, and the end of combat."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import msgspec

from domain.engine.events import Event
from domain.engine.hooks import HookContext, Hooks, Phase, Resolver, modify
from domain.engine.rng import Rng

from . import events as ev
from .board import distance, zone
from .evolve import evolve
from .state import Battleboard, Combatant, effects, other

HOOKS = Hooks()
Q = TypeVar("Q", bound=msgspec.Struct)


class DefenseQuery(msgspec.Struct, frozen=True, kw_only=True):
    """The Defense an attack on `target` compares with."""
    target: str
    defense: int


class EvasionQuery(msgspec.Struct, frozen=True, kw_only=True):
    """The evasion `target`'s hit dice must beat."""
    target: str
    evasion: int


class BoardResolver(Resolver[Battleboard]):
    def __init__(self, state: Battleboard, rng: Rng):
        super().__init__(state, evolve, HOOKS, effects, rng)

    def follow(self, event: Event) -> None:
        """Seed 002, Initiative: combat is decided by one side losing all its combatants."""
        if isinstance(event, ev.Defeated) and self.state.ended is None:
            side = self.state.units[event.unit].side
            if not self.state.living(side):
                self.emit(ev.CombatEnded(winner=other(side), reason=f"every combatant of the {side} was defeated"))

    @property
    def over(self) -> bool:
        return self.state.ended is not None


def ask(s: Battleboard, query: Q) -> Q:
    """The query after every stance's modifiers (for views and legal commands; `decide` asks
    its resolver, which logs each stance that changed it)."""
    answer: Q = modify(HOOKS, effects(s), s, query)[0]
    return answer


def defense_of(s: Battleboard, unit: Combatant) -> int:
    return ask(s, DefenseQuery(target=unit.id, defense=unit.defense)).defense


def evasion_of(s: Battleboard, unit: Combatant) -> int:
    return ask(s, EvasionQuery(target=unit.id, evasion=unit.evasion)).evasion


def lose_token(b: BoardResolver, key: str, reason: str, *, prefer: str = "untapped", broken: bool = False) -> None:
    """Give up a defense token. A tap (`broken` False) taps an untapped token or discards a tapped
    one; a break discards an untapped token or two tapped ones. `prefer` picks where both are
    possible; otherwise what is possible is paid (a break on one tapped token discards it). A
    combatant with no token left to give up is defeated."""
    u = b.state.units[key]
    if u.defeated:
        return
    if u.tokens_left == 0:
        b.emit(ev.Defeated(unit=key))
        return
    if not broken:
        if u.untapped and (prefer == "untapped" or not u.tapped):
            b.emit(ev.TokenTapped(unit=key, reason=reason))
        else:
            b.emit(ev.TokenDiscarded(unit=key, tapped=True, reason=reason))
        return
    if u.untapped and (prefer == "untapped" or u.tapped < 2):
        b.emit(ev.TokenDiscarded(unit=key, tapped=False, reason=reason))
        return
    for _ in range(min(2, u.tapped)):
        b.emit(ev.TokenDiscarded(unit=key, tapped=True, reason=reason))


# -- guard stances: until the start of their owner's next turn --------------------------------

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
