"""The steps non-attack actions apply (and attack actions, to the attacker, after their
attacks), registered by the id content names (`do`)."""
from __future__ import annotations

from collections.abc import Callable

from domain.engine.registry import Registry

from . import events as ev
from .content import Action, Step
from .resolver import BoardResolver

StepFn = Callable[[BoardResolver, str, str, Step], None]
STEPS: Registry[str, StepFn] = Registry("battleboard step")
# Heroic and Cleanse remove the worst first.
NEGATIVE_ORDER = ("stunned", "poisoned", "hobbled", "weakened", "vulnerable", "confused")


def apply_steps(b: BoardResolver, actor: str, target: str, action: Action) -> None:
    for step in action.steps:
        if b.over or b.state.units[target].defeated:
            return
        STEPS[step.do](b, actor, target, step)


@STEPS.register("untap")
def _untap(b: BoardResolver, actor: str, target: str, step: Step) -> None:
    count = min(step.amount, b.state.mendable(target))
    if count:
        b.emit(ev.Untapped(unit=target, count=count))


@STEPS.register("restore")
def _restore(b: BoardResolver, actor: str, target: str, step: Step) -> None:
    u = b.state.units[target]
    count = min(step.amount, u.resilience - u.tokens_left)
    if count > 0:
        b.emit(ev.Restored(unit=target, count=count))


def _gain(resource: str) -> StepFn:
    def gain(b: BoardResolver, actor: str, target: str, step: Step) -> None:
        b.emit(ev.Gained(unit=target, resource=resource, amount=step.amount))
    return gain


for _resource in ("movement", "teleport", "focus", "energy"):
    STEPS.add(_resource, _gain(_resource))


@STEPS.register("special")
def _special(b: BoardResolver, actor: str, target: str, step: Step) -> None:
    if step.movement is not None and not b.state.units[target].moves_as(step.movement):
        b.emit(ev.Granted(unit=target, movement=step.movement))


@STEPS.register("lift")
def _lift(b: BoardResolver, actor: str, target: str, step: Step) -> None:
    if not b.state.units[target].lifted:
        b.emit(ev.Granted(unit=target, movement="lift"))


@STEPS.register("give")
def _give(b: BoardResolver, actor: str, target: str, step: Step) -> None:
    assert step.token is not None
    b.emit(ev.TokenGiven(unit=target, token=step.token, by=actor))


@STEPS.register("cleanse")
def _cleanse(b: BoardResolver, actor: str, target: str, step: Step) -> None:
    for _ in range(step.amount):
        worst = next((t for t in NEGATIVE_ORDER if b.state.units[target].count(t)), None)
        if worst is None:
            return
        b.emit(ev.TokenSpent(unit=target, token=worst, reason="cleansed"))


@STEPS.register("stance")
def _stance(b: BoardResolver, actor: str, target: str, step: Step) -> None:
    assert step.stance is not None
    if any(x.owner == target and x.kind == step.stance for x in b.state.stances):
        b.emit(ev.StanceEnded(unit=target, stance=step.stance))
    b.emit(ev.StanceTaken(unit=target, stance=step.stance, amount=step.amount))
