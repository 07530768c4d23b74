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
from .evolve import evolve
from .hooks import HOOKS
from .legal import checked, planned
from .resolver import RESOLVING, RatResolver
from .state import Rat
from .turn import advance

Handler = Callable[[RatResolver, str, Act], None]


def plan(r: RatResolver, seat: str, cmd: Act) -> None:
    """One entity's plan; once every side has chosen, the turn resolves in the same batch
    (the enemy AI choosing first), and so do the turns after it while no seat must choose."""
    before = r.state
    act = checked(before, seat, cmd)
    made = len(r.events)
    event = ev.ActionPlanned(seat=seat, actor=act.actor, action=act.action, target=act.target, move=act.move)
    r.emit(event)
    # No hook changed the plan or reacted to it, and the seat still has an entity to choose for.
    if len(r.events) == made + 1 and r.events[made] is event \
            and planned(before, r.state, before.entities[act.actor].side, act.actor):
        return
    advance(r)


COMMANDS: CommandTable[Handler] = CommandTable({Act: plan})
_PLANNED = evolve.handlers[ev.ActionPlanned]


def decide(s: Rat, seat: str, cmd: Act, rng: Rng) -> Decision[Rat]:
    """`plan` in a resolver; or, where nothing runs around an `ActionPlanned` (no hook modifies
    or reacts to it, and `RatResolver` neither settles nor follows it: `Hooks.around`), `plan`
    as a resolver would run it: the plan is applied as the resolver would apply it, and a plan
    after which the seat still has an entity to choose for, most of them, needs no resolver."""
    around = HOOKS.around(RatResolver)
    if type(cmd) is not Act or around is None or ev.ActionPlanned in around:
        r = RESOLVING(s, rng)
        COMMANDS.handler(cmd)(r, seat, cmd)
        return r.decision()
    found = answers(s)
    act = checked(s, seat, cmd, found)
    event = ev.ActionPlanned(seat=seat, actor=act.actor, action=act.action, target=act.target, move=act.move)
    after = _PLANNED(event, s)
    if planned(s, after, s.entities[act.actor].side, act.actor, found):
        return Decision((event,), after)
    # The batch so far, as `plan` leaves it once it has emitted the plan, which nothing runs
    # around: the plan applied (`after`), and in the batch.
    r = RESOLVING(after, rng)
    r.events.append(event)
    advance(r)
    return r.decision()


def outcome(s: Rat) -> Outcome | None:
    if s.result is None:
        return None
    return Outcome(winner=s.result[0], reason=s.result[1])


def turn(s: Rat) -> int:
    return s.turn
