"""Rat rules: what a command decides (`COMMANDS`), the outcome, and the turn count."""
from __future__ import annotations

from collections.abc import Callable

from domain.engine.dispatch import CommandTable
from domain.engine.rng import Rng
from domain.engine.ruleset import Decision, Outcome

from . import effects  # noqa: F401  (registers the passives' hooks before any battle resolves)
from . import events as ev
from .answers import answers
from .commands import Act
from .legal import checked, planned
from .resolver import RESOLVING, RatResolver
from .state import Rat
from .turn import advance

Handler = Callable[[RatResolver, str, Act], None]


def plan(r: RatResolver, seat: str, cmd: Act) -> None:
    """One entity's plan; once every side has chosen, the turn resolves in the same batch
    (the enemy AI choosing first), and so do the turns after it while no seat must choose."""
    before = r.state
    found = answers(before)
    act = checked(before, seat, cmd, found)
    made = len(r.events)
    event = ev.ActionPlanned(seat=seat, actor=act.actor, action=act.action, target=act.target, move=act.move)
    r.apply(event)          # `emit`, where anything runs around a plan
    # No hook changed the plan or reacted to it, and the seat still has an entity to choose for.
    if len(r.events) == made + 1 and r.events[made] is event \
            and planned(before, r.state, before.entities[act.actor].side, act.actor, found):
        return
    advance(r)


COMMANDS: CommandTable[Handler] = CommandTable({Act: plan})


def decide(s: Rat, seat: str, cmd: Act, rng: Rng) -> Decision[Rat]:
    r = RESOLVING(s, rng)
    COMMANDS.handler(cmd)(r, seat, cmd)
    return r.decision()


def outcome(s: Rat) -> Outcome | None:
    if s.result is None:
        return None
    return Outcome(winner=s.result[0], reason=s.result[1])


def turn(s: Rat) -> int:
    return s.turn
