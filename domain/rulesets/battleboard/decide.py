"""Battleboard rules: what a command decides, who is awaited, and how the battle ends."""
from __future__ import annotations

from domain.engine.errors import RuleViolation
from domain.engine.events import Command
from domain.engine.rng import Rng
from domain.engine.ruleset import Decision, Outcome

from .actions import act
from .attack import defend
from .commands import Act, Advance, Choose, Convert, Defend, EndTurn, Move, Place
from .effects import BoardResolver
from .state import Battleboard, Combatant
from .turns import advance, choose, convert, end_turn, move, place, unplaced

STEP_COMMAND: dict[str, type[Command]] = {"order": Choose, "arrange": Place}


def awaiting(s: Battleboard) -> frozenset[str]:
    if s.ended is not None:
        return frozenset()
    if s.phase == "order":
        return frozenset(seat for seat in s.seats_of(s.winner or "") if s.seat_units(seat))
    if s.phase == "arrange":
        return frozenset(seat for seat in s.seats_of(s.arranging or "") if unplaced(s, seat))
    if s.plan is not None:
        return frozenset((s.units[s.plan.target].seat,))
    return frozenset(seat for seat in s.seats_of(s.active or "") if seat not in s.done and s.seat_units(seat))


def decide(s: Battleboard, seat: str, cmd: Command, rng: Rng) -> Decision[Battleboard]:
    b = BoardResolver(s, rng)
    wanted = STEP_COMMAND.get(s.phase)
    if wanted is not None and not isinstance(cmd, wanted):
        raise RuleViolation(f"the {s.phase} step takes a {wanted.wire_type()} command, not {cmd.wire_type()}")
    if isinstance(cmd, Choose):
        choose(b, seat, cmd.go)
    elif isinstance(cmd, Place):
        place(b, seat, cmd.unit, (cmd.cell[0], cmd.cell[1]))
    elif s.plan is not None:
        if not isinstance(cmd, Defend):
            raise RuleViolation(f"{s.units[s.plan.target].name} must first choose how to take the attack (defend)")
        defend(b, seat, cmd.lose, cmd.focus)
    elif isinstance(cmd, Defend):
        raise RuleViolation("no attack is waiting for a defense")
    elif isinstance(cmd, Advance):
        advance(b, seat)
    elif isinstance(cmd, EndTurn):
        end_turn(b, seat)
    elif isinstance(cmd, (Move, Convert, Act)):
        unit = own_unit(s, seat, cmd.unit)
        if isinstance(cmd, Move):
            move(b, seat, cmd, unit)
        elif isinstance(cmd, Convert):
            convert(b, seat, unit)
        else:
            act(b, seat, cmd, unit)
    return b.decision()


def own_unit(s: Battleboard, seat: str, key: str) -> Combatant:
    unit = s.units.get(key)
    if unit is None or unit.seat != seat:
        raise RuleViolation(f"{key!r} is not a combatant of {seat}", unit=key)
    if unit.defeated:
        raise RuleViolation(f"{unit.name} has been defeated", unit=key)
    if not s.taking_turn(seat):
        raise RuleViolation(f"{unit.name} is not taking its turn now", unit=key)
    return unit


def outcome(s: Battleboard) -> Outcome | None:
    if s.ended is None:
        return None
    return Outcome(winner=s.ended[0], reason=s.ended[1])


def turn(s: Battleboard) -> int:
    return s.turn
