"""Who a battle awaits, and what a seat may do now: exactly the commands `decide` accepts."""
from __future__ import annotations

from domain.engine.errors import RuleViolation

from .actions import costs, max_reroll, slot
from .attack import defenses
from .board import steps
from .commands import Act, Advance, BattleboardCommand, Choose, Convert, Defend, EndTurn, Move, Place
from .content import content
from .patterns import aims
from .state import Battleboard, Combatant, side_of_seat
from .turns import free_cells, unplaced


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


def legal_commands(s: Battleboard, seat: str) -> list[BattleboardCommand]:
    if seat not in awaiting(s):
        return []
    if s.phase == "order":
        return [Choose(go="first"), Choose(go="second")]
    if s.phase == "arrange":
        cells = free_cells(s, side_of_seat(seat))
        return [Place(unit=u.id, cell=c) for u in unplaced(s, seat) for c in cells]
    if s.plan is not None:
        return [Defend(lose=lose, focus=focus) for lose, focus in defenses(s, s.plan)]
    found: list[BattleboardCommand] = []
    for unit in s.seat_units(seat):
        found += [Move(unit=unit.id, to=cell) for cell, _, _ in steps(s, unit)]
        if unit.focus >= 1:
            found.append(Convert(unit=unit.id))
        found += unit_actions(s, unit)
    if s.row_open is not None:
        found.append(Advance())
    found.append(EndTurn())
    return found


def unit_actions(s: Battleboard, unit: Combatant) -> list[BattleboardCommand]:
    found: list[BattleboardCommand] = []
    seen: dict[tuple[str, int], dict[str, tuple[int, int]]] = {}
    actions = content().actions
    for action_id in unit.actions:
        action = actions[action_id]
        try:
            double, invigorated = slot(s, unit, action)
            costs(s, unit, action, double, invigorated, 0)
        except RuleViolation:
            continue
        rerolls = range(min(max_reroll(action), unit.focus - action.focus) + 1)
        for aiming in aims(s, unit, action, seen):
            found += [Act(unit=unit.id, action=action_id, reroll=r, **aiming) for r in rerolls]  # type: ignore[arg-type]
    return found
