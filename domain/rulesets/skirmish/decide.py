"""Skirmish rules: what a command decides, and how the battle ends."""
from __future__ import annotations

from collections.abc import Callable

from domain.engine.errors import RuleViolation
from domain.engine.events import Command
from domain.engine.rng import Rng
from domain.engine.ruleset import Decision, Outcome

from . import events as ev
from .cards import play
from .combat import attack, end_turn, move
from .commands import Attack, EndTurn, Field, Forfeit, Move, Mulligan, Place, Play
from .effects import SkirmishResolver
from .effects.queries import defeat
from .prepare import field, mulligan, place
from .state import Skirmish, opponent

PREPARATION: dict[str, tuple[type[Command], Callable[..., None]]] = {
    "select": (Field, field), "place": (Place, place), "mulligan": (Mulligan, mulligan)}
ACTIONS: dict[type[Command], Callable[..., None]] = {Move: move, Attack: attack, Play: play}


def decide(s: Skirmish, seat: str, cmd: Command, rng: Rng) -> Decision[Skirmish]:
    b = SkirmishResolver(s, rng)
    if isinstance(cmd, Forfeit):
        b.emit(ev.Forfeited(seat=seat))
        defeat(b, seat, "forfeited")
        return b.decision()
    if s.phase in PREPARATION:
        kind, step = PREPARATION[s.phase]
        if not isinstance(cmd, kind):
            raise RuleViolation(f"the {s.phase} step takes a {kind.wire_type()} command, not {cmd.wire_type()}")
        step(b, seat, cmd)
    elif isinstance(cmd, EndTurn):
        end_turn(b, seat)
    elif type(cmd) in ACTIONS:
        ACTIONS[type(cmd)](b, seat, cmd)
    else:
        raise RuleViolation(f"{cmd.wire_type()} belongs to the preparation, which is over")
    return b.decision()


def outcome(s: Skirmish) -> Outcome | None:
    """Seed 001, Defeat: the other side wins; both defeated in one batch is a draw."""
    if not s.defeated:
        return None
    losers = {seat for seat, _ in s.defeated}
    if len(losers) > 1:
        return Outcome(winner=None, reason="both players were defeated at once")
    seat, reason = s.defeated[0]
    return Outcome(winner=opponent(seat), reason=f"{seat} {reason}")


def turn(s: Skirmish) -> int:
    return s.turn
