"""The board (seed 001 leaves it open): tiles on `domain/engine/grid.py`, ORTHOGONAL metric, so
distance is tiles apart in columns plus rows. Rocks cannot be entered; a walk may pass through
allies but not opponents, and ends on an empty tile."""
from __future__ import annotations

from domain.engine.grid import Cell, Flood, Route, flood

from .commands import Move
from .content import Board, content
from .state import SEATS, Pos, Skirmish, Unit


def board_of(s: Skirmish) -> Board:
    return content().boards[s.board]


def pos(cell: Cell) -> Pos:
    return (cell.col, cell.row)


class _Known:
    """What walks on one board have found, kept across states, as they repeat from one command
    to the next (a unit that did not move, facing opponents that did not either): by start tile
    and budget, the tiles a walk could reach were no opponent in the way (`region`), and each
    flood by the tiles opponents block within that region (all a flood reads but the board: a
    tile it could never reach changes nothing, so opponents elsewhere leave the flood as it
    was); each unit's Move commands by its character and the tiles it may end on (all they
    hold), and the Moves of each byte of those tiles (`_moves`)."""
    __slots__ = ("board", "bits", "floods", "moves", "each")

    def __init__(self, board: Board):
        self.board = board              # held, so no other board can take its identity
        width = board.grid.width
        self.bits = {(c.col, c.row): 1 << (c.row * width + c.col) for c in board.grid.cells()}
        self.floods: dict[tuple[Pos, int], tuple[int, dict[int, Flood]]] = {}
        self.moves: dict[tuple[str, int], tuple[Move, ...]] = {}
        self.each: dict[str, tuple[tuple[Move, ...], tuple[dict[int, tuple[Move, ...]], ...]]] = {}


# Each board's `_Known`, by the board's identity; a few thousand entries each at most, as a
# battle's walks mostly come back within it.
_KNOWN: dict[int, _Known] = {}
_KEPT = 4096


def _known(board: Board) -> _Known:
    known = _KNOWN.get(id(board))
    if known is None or known.board is not board:
        if len(_KNOWN) > 64:
            _KNOWN.clear()
        known = _KNOWN[id(board)] = _Known(board)
    return known


class _Worked:
    """What walks in one state need, worked out once: the tiles each seat's units stand on (bits
    of the board's grid, `domain.engine.grid.cell_bits`), and what walks on its board found."""
    __slots__ = ("standing", "occupied", "known")

    def __init__(self, known: _Known, ours: int, theirs: int):
        self.known = known
        self.standing, self.occupied = {SEATS[0]: ours, SEATS[1]: theirs}, ours | theirs


# The units dict walks were last worked out for, its board, and what they need: legal commands
# list every unit's walks, and the Move then chosen follows one of them, all in one state (and
# a card that moves nobody leaves the units dict as it was). The dict is held, so no other
# object can take its identity while it is here; a frozen state's units never change, and the
# board (rocks and size) must be the same one too.
_last: tuple[dict[str, Unit] | None, Board | None, _Worked | None] = (None, None, None)


def _worked(s: Skirmish, board: Board) -> _Worked:
    units, known, worked = _last        # one read of one triple: safe across threads
    if units is not s.units or known is not board or worked is None:
        worked = _worked_out(s, board)
    return worked


def _worked_out(s: Skirmish, board: Board) -> _Worked:
    """`_worked` read afresh from the units (`board` is the state's own), and kept."""
    return _read(s, SEATS[0])[2]


def sides(s: Skirmish, seat: str) -> tuple[list[Unit], list[Unit]]:
    """The seat's fielded units on the board (`Skirmish.fielded_on_board`) and the opponents on
    the board, each in team order (the order of the units dict), in one pass over the units;
    the tiles they stand on are kept for the walks in this state (`_worked`) on the way."""
    ours, theirs, _ = _read(s, seat)
    return ours, theirs


def _read(s: Skirmish, seat: str) -> tuple[list[Unit], list[Unit], _Worked]:
    """`sides`, and the tiles each side stands on, kept for the units dict (`_last`)."""
    global _last
    board = board_of(s)
    known = _known(board)
    bits, first = known.bits, SEATS[0]
    ours, theirs, mine, other = [], [], 0, 0     # `mine`, `other`: SEATS[0]'s tiles, SEATS[1]'s
    for u in s.units.values():
        cell = u.cell
        if cell is not None and not u.fainted:
            if u.seat == first:
                mine |= bits[cell]
            else:
                other |= bits[cell]
            if u.seat != seat:
                theirs.append(u)
            elif u.fielded:
                ours.append(u)
    worked = _Worked(known, mine, other)
    _last = (s.units, board, worked)
    return ours, theirs, worked


def _walks(board: Board, worked: _Worked, unit: Unit, budget: int, goal: Cell | None = None) -> Flood:
    """Every tile a walk of `unit` may enter (not rocks, not opponents) within `budget`: all of
    them, or, for a `goal` (unless they are known already), enough to reach it."""
    assert unit.cell is not None, f"{unit.key} is not on the board"
    floods = worked.known.floods
    region = floods.get((unit.cell, budget))
    if region is None:
        open_walk = flood(board.grid, board.tiles[unit.cell], budget, board.rock_bits)
        region = floods[(unit.cell, budget)] = (open_walk.reached, {})
    blocked = worked.occupied & ~worked.standing[unit.seat] & region[0]
    found = region[1].get(blocked)
    if found is None:
        found = flood(board.grid, board.tiles[unit.cell], budget, board.rock_bits | blocked, until=goal)
        if goal is None:
            if len(region[1]) >= _KEPT:
                region[1].clear()
            region[1][blocked] = found
    return found


def _ends(board: Board, ends: int) -> list[Pos]:
    """The tiles of `ends` (bits of the board's grid), in reading order."""
    found: list[Pos] = []
    for tiles, byte in zip(board.tiles_by_byte, ends.to_bytes(len(board.tiles_by_byte), "little")):
        if byte:
            found += tiles[byte]
    return found


def walk_ends(s: Skirmish, unit: Unit, budget: int) -> list[Pos]:
    """Every tile `unit` can walk to within `budget` (its own tile left out), in reading order:
    the tiles it can enter that no unit stands on."""
    assert s.units[unit.key] is unit, f"{unit.key} is a unit of this state"
    board = board_of(s)
    worked = _worked(s, board)
    return _ends(board, _walks(board, worked, unit, budget).reached & ~worked.occupied)


def walk_moves(s: Skirmish, unit: Unit, budget: int) -> tuple[Move, ...]:
    """A Move of `unit` to each of its `walk_ends`, in their order."""
    assert s.units[unit.key] is unit, f"{unit.key} is a unit of this state"
    board = board_of(s)
    worked = _worked(s, board)
    key = (unit.character, _walks(board, worked, unit, budget).reached & ~worked.occupied)
    moves = worked.known.moves
    found = moves.get(key)
    if found is None:
        if len(moves) >= _KEPT:
            moves.clear()
        found = moves[key] = _moves(board, worked.known, *key)
    return found


def _moves(board: Board, known: _Known, character: str, ends: int) -> tuple[Move, ...]:
    """A Move of `character` to each tile of `ends` (bits of the board's grid), in reading order,
    a byte of tiles at a time (as `_ends` reads them): the Moves to every tile are made once per
    board, and the Moves of each byte put together once."""
    kept = known.each.get(character)
    if kept is None:
        kept = known.each[character] = (tuple([Move(character=character, to=(c.col, c.row))
                                               for c in board.grid.cells()]), tuple({} for _ in board.tiles_by_byte))
    each, tables = kept
    found: list[Move] = []
    width = board.grid.width
    for table, byte, tiles in zip(tables, ends.to_bytes(len(tables), "little"), board.tiles_by_byte):
        if byte:
            some = table.get(byte)
            if some is None:
                some = table[byte] = tuple([each[row * width + col] for col, row in tiles[byte]])
            found += some
    return tuple(found)


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
    found = []          # a loop, not a comprehension: cheaper for the few units of a side
    for b in others:
        found.append(abs(col - b.cell[0]) + abs(row - b.cell[1]))  # type: ignore[index]
    return found


def free_tile_near(s: Skirmish, unit: Unit) -> Cell | None:
    """Where a returning unit comes back: its last tile if empty, else the nearest empty open
    tile (ties in reading order)."""
    board = board_of(s)
    assert unit.last_cell is not None, "a returning unit has left a tile"
    start = Cell(col=unit.last_cell[0], row=unit.last_cell[1])
    taken = {u.cell for u in s.units.values() if u.on_board}
    if unit.last_cell not in taken and start not in board.rocks:
        return start            # the one tile no distance away: nothing else can come first
    free = [c for c in board.grid.cells() if c not in board.rocks and pos(c) not in taken]
    return min(free, key=lambda c: (board.grid.distance(start, c), c), default=None)
