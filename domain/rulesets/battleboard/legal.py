"""Who a battle awaits, what a seat may do now (exactly the commands `decide` accepts), and
what the rules play for a seat whose clock ran out."""
from __future__ import annotations

from domain.engine.errors import RuleViolation

from .attack import defenses
from .board import section_rows, steps
from .commands import Act, Advance, BattleboardCommand, Choose, Convert, Defend, EndTurn, Move, Place
from .offers import offers
from .patterns import aims, in_reach
from .state import HEROES, Battleboard, Combatant, side_of_seat
from .turns import free_cells, unplaced


def awaiting(s: Battleboard) -> frozenset[str]:
    """The seats the state awaits, kept for the latest state asked about: a player's loop, the
    runner's turn check and `legal_commands` each ask about the same state in a row. It reads
    the state alone (no content), so the state object is all its key."""
    global _AWAITED
    last = _AWAITED
    if last[0] is s:
        return last[1]
    found = _awaited(s)
    _AWAITED = (s, found)
    return found


# The latest state `awaiting` answered, with its answer: one tuple, read once.
_AWAITED: tuple[Battleboard | None, frozenset[str]] = (None, frozenset())


def _awaited(s: Battleboard) -> frozenset[str]:
    """`awaiting`, worked out: a turn's answer is one pass over the combatants."""
    if s.ended is not None:
        return frozenset()
    if s.phase == "turn":
        if s.plan is not None:
            return frozenset((s.units[s.plan.target].seat,))
        seats, found = s.seats_of(s.active or ""), set()
        for u in s.units.values():
            if u.seat in seats and not u.defeated:
                found.add(u.seat)
        return frozenset(found.difference(s.done))
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


def default_command(s: Battleboard, seat: str) -> BattleboardCommand:
    """The move for an awaited seat whose clock ran out (README, "seed silent: clocks"): take
    the initiative when won, as the bots do; place the seat's next combatant on the rearmost
    free cell of its section; defend with no focus, losing an untapped token where it may (the
    way the rules pay for Poisoned); otherwise end this seat's part of the turn. Each is one of
    the seat's legal commands, read from its own side's placements and the open board."""
    if seat not in awaiting(s):
        raise RuleViolation(f"{seat} has nothing to do now")
    if s.phase == "order":
        return Choose(go="first")
    if s.phase == "arrange":
        side = side_of_seat(seat)
        return Place(unit=unplaced(s, seat)[0].id, cell=rearmost(s, side, free_cells(s, side)))
    if s.plan is not None:
        lose, focus = min(defenses(s, s.plan), key=lambda d: (d[1], d[0] != "untapped"))
        return Defend(lose=lose, focus=focus)
    return EndTurn()


def rearmost(s: Battleboard, side: str, cells: list[tuple[int, int]]) -> tuple[int, int]:
    """The cell farthest from the border (the heroes' row 0, the foes' last row), then the
    lowest column: the safest start for a combatant nobody placed."""
    rows = section_rows(s, side)
    back = rows[0] if side == HEROES else rows[-1]
    return min(cells, key=lambda c: (abs(c[1] - back), c[0]))


def unit_actions(s: Battleboard, unit: Combatant) -> list[BattleboardCommand]:
    """Every way to take each action the combatant can afford now (`offers`), rerolls
    innermost. Single and ally targets are listed here from `in_reach`, as `aims` lists them."""
    found: list[BattleboardCommand] = []
    seen: dict[tuple[str, int], dict[str, tuple[int, int]]] = {}
    for offer in offers(s, unit):
        if offer.unaimed is not None:
            found += offer.unaimed
        elif offer.single:
            for key in in_reach(s, unit, offer.action, seen):
                found += offer.at(key)
        else:
            action_id = offer.action.id
            for aiming in aims(s, unit, offer.action, seen):
                found += [Act(unit=unit.id, action=action_id, reroll=r, **aiming)  # type: ignore[arg-type]
                          for r in offer.rerolls]
    return found
