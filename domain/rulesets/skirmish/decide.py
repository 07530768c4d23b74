"""Skirmish rules: what each command decides (its handler in `COMMANDS`), and how the battle ends."""
from __future__ import annotations

from collections.abc import Callable

from domain.engine.dispatch import CommandTable
from domain.engine.errors import RuleViolation
from domain.engine.events import Command
from domain.engine.rng import Rng
from domain.engine.ruleset import Decision, Outcome

from . import effects  # noqa: F401  (registers the hook handlers)
from . import events as ev
from .cards import play
from .combat import attack, end_turn, move
from .commands import Attack, EndTurn, Field, Forfeit, Move, Mulligan, Place, Play
from .preparation import field, mulligan, place
from .resolver import RESOLVING, SkirmishResolver, defeat
from .state import Skirmish, opponent

# Seed 001, Preparation: each step takes its one command; once it is over, none of them.
STEP_COMMAND: dict[str, type[Command]] = {"select": Field, "place": Place, "mulligan": Mulligan}
PREPARATION = frozenset(STEP_COMMAND.values())


def decide(s: Skirmish, seat: str, cmd: Command, rng: Rng) -> Decision[Skirmish]:
    b = RESOLVING(s, rng)
    handler = COMMANDS.handler(cmd)
    if not isinstance(cmd, Forfeit):
        wanted = STEP_COMMAND.get(s.phase)
        if wanted is not None and not isinstance(cmd, wanted):
            raise RuleViolation(f"the {s.phase} step takes a {wanted.wire_type()} command, not {cmd.wire_type()}")
        if wanted is None and type(cmd) in PREPARATION:
            raise RuleViolation(f"{cmd.wire_type()} belongs to the preparation, which is over")
    handler(b, seat, cmd)
    return b.decision()


def forfeit(b: SkirmishResolver, seat: str, cmd: Forfeit) -> None:
    """Seed 001, Defeat: a player may forfeit at any time."""
    b.emit(ev.Forfeited(seat=seat))
    defeat(b, seat, "forfeited")


def end_own_turn(b: SkirmishResolver, seat: str, cmd: EndTurn) -> None:
    end_turn(b, seat)


Handler = Callable[..., None]      # (resolver, seat, command)
COMMANDS: CommandTable[Handler] = CommandTable({
    Field: field, Place: place, Mulligan: mulligan,
    Move: move, Attack: attack, Play: play, EndTurn: end_own_turn, Forfeit: forfeit,
})


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
