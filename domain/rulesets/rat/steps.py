"""What an action's steps do (seed 003, Actions), registered by the ids content names in
`steps = [{do = "damage", power = 100}, ...]`. Each runs against one target."""
from __future__ import annotations

from collections.abc import Callable

import msgspec

from domain.engine.registry import Registry

from . import events as ev
from .content import Action, Step, content
from .hp import afflict, deal_damage, gauge, heal
from .resolver import RatResolver
from .state import ENEMIES
from .hooks import StatQuery, in_play
from .stats import clamp_level, damage, stat


class Use(msgspec.Struct, frozen=True, gc=False):
    """One action in use: a struct, made in C without a Python frame, as one is made for every
    action taken (a `NamedTuple`'s constructor is Python code)."""
    actor: str
    action: Action
    move: str | None = None         # STUTTER_POTION's chosen move


StepFn = Callable[[RatResolver, Use, Step, str], None]
STEPS: Registry[str, StepFn] = Registry("rat step")


@STEPS.register("damage")
def _damage(r: RatResolver, use: Use, step: Step, target: str) -> None:
    """power% x ATK x scale / (scale + DEF), times a roll of 85..100% (stats.damage)."""
    s = r.state
    user, victim = s.entities[use.actor], s.entities[target]
    if victim.dead:
        return
    roll = r.rng.int(s.params.roll_min_pct, 100)
    hooks = in_play(StatQuery, s.effects)
    amount = damage(step.power, stat(s, user, "atk", hooks), stat(s, victim, "def", hooks), roll,
                    s.params.defense_scale)
    if amount <= 0:
        r.emit(ev.DamageIgnored(target=target, reason="no_damage", by=use.actor))
        return
    deal_damage(r, target, amount, use.action.id, use.actor)


@STEPS.register("heal")
def _heal(r: RatResolver, use: Use, step: Step, target: str) -> None:
    """`amount` HP, or `pct` of max HP: the target's, or with who="user" the user's own."""
    s = r.state
    who = use.actor if step.who == "user" else target
    amount = step.amount or s.entities[who].max_hp * step.pct // 100
    heal(r, who, amount, use.action.id, use.actor)


@STEPS.register("ailment")
def _ailment(r: RatResolver, use: Use, step: Step, target: str) -> None:
    if step.chance >= 100 or r.rng.chance(step.chance, 100):
        afflict(r, target, step.ailment, use.actor)


@STEPS.register("cure")
def _cure(r: RatResolver, use: Use, step: Step, target: str) -> None:
    for status in list(r.state.statuses(target)):
        if status.source == "ailment" and step.ailment in ("all", status.kind):
            r.emit(ev.StatusRemoved(target=target, kind=status.kind, reason="cured"))


@STEPS.register("stat")
def _stat(r: RatResolver, use: Use, step: Step, target: str) -> None:
    """Levels move along -inf, -3 .. +3, +inf, as far as `level_cap` lets them: by default they
    stop at +3 and -3; with a cap of 4 one step past +3 is +infinity."""
    who = use.actor if step.who == "user" else target
    entity = r.state.entities[who]
    if not entity.standing:
        return
    level = clamp_level(entity.level(step.stat) + step.amount, r.state.params.level_cap)
    if level != entity.level(step.stat):
        r.emit(ev.StatLevelChanged(target=who, stat=step.stat, level=level, by=use.actor))


@STEPS.register("priority")
def _priority(r: RatResolver, use: Use, step: Step, target: str) -> None:
    who = use.actor if step.who == "user" else target
    if r.state.entities[who].standing:
        r.emit(ev.PriorityBoosted(target=who, amount=step.amount, by=use.actor))


@STEPS.register("protect")
def _protect(r: RatResolver, use: Use, step: Step, target: str) -> None:
    """PROTECT fails on an entity a PROTECT covered last turn (seed 003: two turns in a row)."""
    s = r.state
    if s.entities[target].protected_turn == s.turn - 1:
        r.emit(ev.ActionFailed(actor=use.actor, action=use.action.id, target=target, reason="protected_last_turn"))
        return
    r.emit(ev.Protected(target=target, by=use.actor, turn=s.turn))


@STEPS.register("analyze")
def _analyze(r: RatResolver, use: Use, step: Step, target: str) -> None:
    """ANALYZE marks the enemy (a hidden, permanent status); glasses change how: "all" marks
    every enemy, "varifocal" shows every move's PP, "speed" the exact SPD."""
    s = r.state
    modes = [content().equipment[item].analyze for item in s.entities[use.actor].equipment]
    mode = next((m for m in modes if m in ("varifocal", "speed")), "")
    targets = [e.id for e in s.side(ENEMIES) if not e.dead] if "all" in modes else [target]
    for key in targets:
        r.emit(ev.Analyzed(target=key, by=use.actor, mode=mode))
        gauge(r, key)


@STEPS.register("wish")
def _wish(r: RatResolver, use: Use, step: Step, target: str) -> None:
    """WISH: `pct` of the user's max HP, healed `wish_delay` turns on: at the start of the turn
    after its use (seed 003's example; 1.1.0 and before waited a turn more)."""
    s = r.state
    amount = s.entities[use.actor].max_hp * step.pct // 100
    r.emit(ev.WishMade(target=target, by=use.actor, amount=amount, turn=s.turn))


@STEPS.register("stutter")
def _stutter(r: RatResolver, use: Use, step: Step, target: str) -> None:
    """STUTTER_POTION: the chosen move at 0 PP gets `amount` PP, whatever its maximum."""
    if use.move is not None and r.state.entities[use.actor].moves.get(use.move) == 0:
        r.emit(ev.PpRestored(actor=use.actor, move=use.move, pp=step.amount))


# The steps by id, as a plain dict: `turn.act` looks one up for every step of every action.
STEP_FNS: dict[str, StepFn] = dict(STEPS.items())
