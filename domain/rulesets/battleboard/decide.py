"""Battleboard rules: what each command decides (its handler in `COMMANDS`), and how the battle ends."""
from __future__ import annotations

from collections.abc import Callable

from domain.engine.dispatch import CommandTable
from domain.engine.errors import RuleViolation
from domain.engine.events import Command
from domain.engine.rng import Rng
from domain.engine.ruleset import Decision, Outcome

from . import effects  # noqa: F401  (registers the hook handlers)
from .actions import act
from .attack import defend
from .commands import Act, Advance, Choose, Convert, Defend, EndTurn, Move, Place
from .resolver import RESOLVING, BoardResolver
from .state import Battleboard, Combatant
from .turns import advance, choose, convert, end_turn, move, place

STEP_COMMAND: dict[str, type[Command]] = {"order": Choose, "arrange": Place}


def decide(s: Battleboard, seat: str, cmd: Command, rng: Rng) -> Decision[Battleboard]:
    b = RESOLVING(s, rng)
    handler = COMMANDS.handler(cmd)
    wanted = STEP_COMMAND.get(s.phase)
    if wanted is not None and not isinstance(cmd, wanted):
        raise RuleViolation(f"the {s.phase} step takes a {wanted.wire_type()} command, not {cmd.wire_type()}")
    if s.plan is not None and not isinstance(cmd, (Choose, Place, Defend)):
        raise RuleViolation(f"{s.units[s.plan.target].name} must first choose how to take the attack (defend)")
    handler(b, seat, cmd)
    return b.decision()


def choose_order(b: BoardResolver, seat: str, cmd: Choose) -> None:
    choose(b, seat, cmd.go)


def arrange(b: BoardResolver, seat: str, cmd: Place) -> None:
    place(b, seat, cmd.unit, (cmd.cell[0], cmd.cell[1]))


def take_attack(b: BoardResolver, seat: str, cmd: Defend) -> None:
    if b.state.plan is None:
        raise RuleViolation("no attack is waiting for a defense")
    defend(b, seat, cmd.lose, cmd.focus)


def take_row(b: BoardResolver, seat: str, cmd: Advance) -> None:
    advance(b, seat)


def seat_done(b: BoardResolver, seat: str, cmd: EndTurn) -> None:
    end_turn(b, seat)


def step(b: BoardResolver, seat: str, cmd: Move) -> None:
    move(b, seat, cmd, own_unit(b.state, seat, cmd.unit))


def focus_to_movement(b: BoardResolver, seat: str, cmd: Convert) -> None:
    convert(b, seat, own_unit(b.state, seat, cmd.unit))


def action(b: BoardResolver, seat: str, cmd: Act) -> None:
    act(b, seat, cmd, own_unit(b.state, seat, cmd.unit))


def own_unit(s: Battleboard, seat: str, key: str) -> Combatant:
    unit = s.units.get(key)
    if unit is None or unit.seat != seat:
        raise RuleViolation(f"{key!r} is not a combatant of {seat}", unit=key)
    if unit.defeated:
        raise RuleViolation(f"{unit.name} has been defeated", unit=key)
    if not s.taking_turn(seat):
        raise RuleViolation(f"{unit.name} is not taking its turn now", unit=key)
    return unit


Handler = Callable[..., None]      # (resolver, seat, command)
COMMANDS: CommandTable[Handler] = CommandTable({
    Choose: choose_order, Place: arrange, Defend: take_attack, Advance: take_row, EndTurn: seat_done,
    Move: step, Convert: focus_to_movement, Act: action,
})


def outcome(s: Battleboard) -> Outcome | None:
    if s.ended is None:
        return None
    return Outcome(winner=s.ended[0], reason=s.ended[1])


def turn(s: Battleboard) -> int:
    return s.turn
