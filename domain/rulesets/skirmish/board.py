"""The board (seed 001 leaves it open): tiles on `domain/engine/grid.py`, ORTHOGONAL metric, so
distance is tiles apart in columns plus rows. Rocks cannot be entered; a walk may pass through
allies but not opponents, and ends on an empty tile."""
from __future__ import annotations

from domain.engine.grid import Cell, Flood, Route, flood

from .content import Board, content
from .state import SEATS, Pos, Skirmish, Unit


def board_of(s: Skirmish) -> Board:
    return content().boards[s.board]


def pos(cell: Cell) -> Pos:
    return (cell.col, cell.row)


class _Worked:
    """What walks in one state need, worked out once: the tiles each seat's units stand on (bits
    of the board's grid, `domain.engine.grid.cell_bits`), and the walks found, by unit and budget."""
    __slots__ = ("standing", "occupied", "walks")

    def __init__(self, s: Skirmish, board: Board):
        width = board.grid.width
        self.standing, self.occupied = dict.fromkeys(SEATS, 0), 0
        for u in s.units.values():
            if u.cell is not None and not u.fainted:
                bit = 1 << (u.cell[1] * width + u.cell[0])
                self.standing[u.seat] |= bit
                self.occupied |= bit
        self.walks: dict[tuple[str, int], Flood] = {}


# The last state walks were worked out in, its board, and what they need: legal commands list
# every unit's walks, and the Move then chosen follows one of them, all in one state. The
# state is held, so no other object can take its identity while it is here; a frozen state's
# units never change, and the board (rocks and size) must be the same one too.
_last: tuple[Skirmish | None, Board | None, _Worked | None] = (None, None, None)


def _worked(s: Skirmish, board: Board) -> _Worked:
    global _last
    state, known, worked = _last        # one read of one triple: safe across threads
    if state is not s or known is not board or worked is None:
        worked = _Worked(s, board)
        _last = (s, board, worked)
    return worked


def _walks(board: Board, worked: _Worked, unit: Unit, budget: int, goal: Cell | None = None) -> Flood:
    """Every tile a walk of `unit` may enter (not rocks, not opponents) within `budget`: all of
    them, or, for a `goal` (unless they are known already), enough to reach it."""
    found = worked.walks.get((unit.key, budget))
    if found is None:
        assert unit.cell is not None, f"{unit.key} is not on the board"
        foes = worked.occupied & ~worked.standing[unit.seat]
        found = flood(board.grid, board.tiles[unit.cell], budget, board.rock_bits | foes, until=goal)
        if goal is None:
            worked.walks[unit.key, budget] = found
    return found


def walk_ends(s: Skirmish, unit: Unit, budget: int) -> list[Pos]:
    """Every tile `unit` can walk to within `budget` (its own tile left out), in reading order:
    the tiles it can enter that no unit stands on."""
    assert s.units[unit.key] is unit, f"{unit.key} is a unit of this state"
    board = board_of(s)
    worked = _worked(s, board)
    ends = _walks(board, worked, unit, budget).reached & ~worked.occupied
    found: list[Pos] = []
    for tiles, byte in zip(board.tiles_by_byte, ends.to_bytes(len(board.tiles_by_byte), "little")):
        if byte:
            found += tiles[byte]
    return found


def walk(s: Skirmish, unit: Unit, goal: Cell, budget: int) -> Route | None:
    """The route of a walk to `goal` within `budget`; None if there is none (or it goes nowhere:
    a walk ends on a tile no unit stands on, its own included)."""
    assert s.units[unit.key] is unit, f"{unit.key} is a unit of this state"
    board = board_of(s)
    worked = _worked(s, board)
    if worked.occupied >> (goal.row * board.grid.width + goal.col) & 1:
        return None
    return _walks(board, worked, unit, budget, goal).route(goal)


def distance(s: Skirmish, a: Unit, b: Unit) -> int:
    """Tiles apart in columns plus rows (the ORTHOGONAL metric of every skirmish board)."""
    assert a.cell is not None and b.cell is not None, "distance is between units on the board"
    return abs(a.cell[0] - b.cell[0]) + abs(a.cell[1] - b.cell[1])


def distances(s: Skirmish, a: Unit, others: list[Unit]) -> list[int]:
    """`distance` from `a` to each of `others`."""
    assert a.cell is not None, "distance is between units on the board"
    col, row = a.cell
    return [abs(col - b.cell[0]) + abs(row - b.cell[1]) for b in others]  # type: ignore[index]


def free_tile_near(s: Skirmish, unit: Unit) -> Cell | None:
    """Where a returning unit comes back: its last tile if empty, else the nearest empty open
    tile (ties in reading order)."""
    board = board_of(s)
    assert unit.last_cell is not None, "a returning unit has left a tile"
    start = Cell(col=unit.last_cell[0], row=unit.last_cell[1])
    taken = {u.cell for u in s.units.values() if u.on_board}
    free = [c for c in board.grid.cells() if c not in board.rocks and pos(c) not in taken]
    return min(free, key=lambda c: (board.grid.distance(start, c), c), default=None)
