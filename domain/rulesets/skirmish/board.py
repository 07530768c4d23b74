"""The board (seed 001 leaves it open): tiles on `domain/engine/grid.py`, ORTHOGONAL metric, so
distance is tiles apart in columns plus rows. Rocks cannot be entered; a walk may pass through
allies but not opponents, and ends on an empty tile."""
from __future__ import annotations

from domain.engine.grid import CanStop, Cell, EntryCost, Route, path, reachable

from .content import Board, content
from .state import Pos, Skirmish, Unit


def board_of(s: Skirmish) -> Board:
    return content().boards[s.board]


def pos(cell: Cell) -> Pos:
    return (cell.col, cell.row)


def _walker(s: Skirmish, unit: Unit) -> tuple[EntryCost, CanStop]:
    """What a walk of `unit` may enter (not rocks, not opponents) and where it may end (an
    empty tile)."""
    occupied = {u.cell: u.seat for u in s.units.values() if u.on_board and u.key != unit.key}
    rocks = board_of(s).rocks

    def cost(cell: Cell) -> int | None:
        seat = occupied.get(pos(cell))
        return None if cell in rocks or (seat is not None and seat != unit.seat) else 1

    return cost, lambda cell: pos(cell) not in occupied


def destinations(s: Skirmish, unit: Unit, budget: int) -> dict[Cell, int]:
    """Every tile `unit` can walk to within `budget` (its own tile left out)."""
    cost, can_stop = _walker(s, unit)
    found = reachable(board_of(s).grid, unit.at(), budget, cost, can_stop=can_stop)
    return {cell: spent for cell, spent in found.items() if cell != unit.at()}


def walk(s: Skirmish, unit: Unit, goal: Cell, budget: int) -> Route | None:
    """The route of a walk to `goal` within `budget`; None if there is none (or it goes nowhere)."""
    if goal == unit.at():
        return None
    cost, can_stop = _walker(s, unit)
    return path(board_of(s).grid, unit.at(), goal, cost, can_stop=can_stop, max_cost=budget)


def distance(s: Skirmish, a: Unit, b: Unit) -> int:
    return board_of(s).grid.distance(a.at(), b.at())


def free_tile_near(s: Skirmish, unit: Unit) -> Cell | None:
    """Where a returning unit comes back: its last tile if empty, else the nearest empty open
    tile (ties in reading order)."""
    board = board_of(s)
    assert unit.last_cell is not None, "a returning unit has left a tile"
    start = Cell(col=unit.last_cell[0], row=unit.last_cell[1])
    taken = {u.cell for u in s.units.values() if u.on_board}
    free = [c for c in board.grid.cells() if c not in board.rocks and pos(c) not in taken]
    return min(free, key=lambda c: (board.grid.distance(start, c), c), default=None)
