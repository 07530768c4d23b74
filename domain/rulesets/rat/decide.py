"""Rat rules: who is awaited, the legal commands, what a command decides, the outcome."""
from __future__ import annotations

from domain.engine.events import Command
from domain.engine.rng import Rng
from domain.engine.ruleset import Decision, Outcome

from . import events as ev
from .commands import Act
from .effects import ailments, equipment  # noqa: F401  (registers the passives' hooks)
from .effects.queries import RatResolver
from .legal import checked, options, to_plan
from .state import Rat
from .turn import advance


def awaiting(s: Rat) -> frozenset[str]:
    return frozenset(seat for side, seat in s.seats.items() if seat is not None and to_plan(s, side))


def legal_commands(s: Rat, seat: str) -> list[Command]:
    side = s.seat_side(seat)
    waiting = to_plan(s, side) if side else []
    return list(options(s, s.entities[waiting[0]])) if waiting else []


def decide(s: Rat, seat: str, cmd: Command, rng: Rng) -> Decision[Rat]:
    """One entity's plan; once every side has chosen, the turn resolves in the same batch
    (the enemy AI choosing first), and so do the turns after it while no seat must choose."""
    assert isinstance(cmd, Act), "the codec parses only Act"
    act = checked(s, seat, cmd)
    r = RatResolver(s, rng)
    r.emit(ev.ActionPlanned(seat=seat, actor=act.actor, action=act.action, target=act.target, move=act.move))
    advance(r)
    return r.decision()


def outcome(s: Rat) -> Outcome | None:
    if s.result is None:
        return None
    return Outcome(winner=s.result[0], reason=s.result[1])


def turn(s: Rat) -> int:
    return s.turn
