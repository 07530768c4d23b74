"""Board geometry for the board games: cells, distance, neighbours, shortest paths and reach.

Nothing here knows a game. A board is `width` columns by `height` rows; `Cell(col=0, row=0)` is
the first column of the first row, and each game says which side of its board row 0 faces. A
`Metric` says which cells are adjacent: ORTHOGONAL (4 neighbours, Manhattan distance) or KING
(8 neighbours, Chebyshev distance). Each game picks one and names it in its rules.

On the wire a cell is the JSON array `[col, row]`. `Cell.from_wire` refuses anything else, or
a cell off the board, with a `RuleViolation` naming the field (a setup parser turns it into a
`SetupError` for its own field).

A move pays to *enter* a cell: `cost(cell)` is the price of stepping onto it, or None where it
cannot be entered (a wall, an occupied tile). The start costs nothing. `can_stop(cell)` says
where a move may end, so that a move can pass through a cell it may not end on (an ally, or an
enemy for a pattern that moves through enemies). Costs must be integers of 0 or more.

Where every cell costs 1 to enter or cannot be entered, `flood` gives what `reachable` and
`path` give, much faster: it holds sets of cells as the bits of an integer (`cell_bits`).

Ties break the same way everywhere: no floats, no hash order. Cells sort in reading order (by
row, then by column). Neighbours come in `Metric.steps` order, clockwise from up (up is toward
row 0). Of the least-cost paths, `path` returns one with the fewest steps. If several remain,
each cell on it is entered from the first, in reading order, of the neighbours such a path could
come from: those whose own least (cost, steps) is the cell's less its entry cost and one step.
"""
from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from .errors import RuleViolation, quote

Step = tuple[int, int]          # (columns, rows) moved by one step
UP, RIGHT, DOWN, LEFT = (0, -1), (1, 0), (0, 1), (-1, 0)
UP_RIGHT, DOWN_RIGHT, DOWN_LEFT, UP_LEFT = (1, -1), (1, 1), (-1, 1), (-1, -1)


class Cell(NamedTuple):
    """One square of a board. Cells sort in reading order: by row, then by column. (A named
    tuple: hashing and comparing cells is the inner loop of every path search.)"""
    row: int
    col: int

    def shifted(self, step: Step, times: int = 1) -> Cell:
        return Cell(col=self.col + step[0] * times, row=self.row + step[1] * times)

    def to_wire(self) -> list[int]:
        return [self.col, self.row]

    @staticmethod
    def from_wire(raw: object, field: str, grid: Grid) -> Cell:
        """The cell of `grid` that `raw` names: a JSON array `[col, row]` of two integers on the
        board. Anything else raises `RuleViolation` naming `field`, or `field[0]` / `field[1]`."""
        if not isinstance(raw, (list, tuple)) or len(raw) != 2:
            raise _refused(field, f"must be a cell [col, row] of two integers, not {_kind(raw)}")
        return Cell(col=_coordinate(raw[0], f"{field}[0]", "col", grid.width),
                    row=_coordinate(raw[1], f"{field}[1]", "row", grid.height))


EntryCost = Callable[[Cell], int | None]
StepCost = Callable[[Cell, Cell], int | None]      # (from, to): where entering depends on where from
CanStop = Callable[[Cell], bool]


def uniform_cost(cell: Cell) -> int:
    """Every cell costs 1 to enter, so a path costs its number of steps."""
    return 1


def anywhere(cell: Cell) -> bool:
    """Every cell a move can enter, it can also end on."""
    return True


class Metric(Enum):
    """Which cells are next to each other, and how far apart two cells are."""
    ORTHOGONAL = "orthogonal"   # 4 neighbours; distance = columns apart + rows apart
    KING = "king"               # 8 neighbours; distance = the larger of columns and rows apart

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps to a neighbour, clockwise from up."""
        if self is Metric.ORTHOGONAL:
            return (UP, RIGHT, DOWN, LEFT)
        return (UP, UP_RIGHT, RIGHT, DOWN_RIGHT, DOWN, DOWN_LEFT, LEFT, UP_LEFT)

    def distance(self, a: Cell, b: Cell) -> int:
        cols, rows = abs(a.col - b.col), abs(a.row - b.row)
        return cols + rows if self is Metric.ORTHOGONAL else max(cols, rows)


@dataclass(frozen=True, slots=True)
class Grid:
    """A rectangular board of `width` columns and `height` rows. Every list of cells it
    returns holds only cells on the board."""
    width: int
    height: int
    metric: Metric = Metric.ORTHOGONAL

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise ValueError(f"a board is at least 1x1, not {self.width}x{self.height}")

    def __contains__(self, cell: object) -> bool:
        return isinstance(cell, Cell) and 0 <= cell.col < self.width and 0 <= cell.row < self.height

    def cells(self) -> tuple[Cell, ...]:
        """Every cell, in reading order."""
        return self.region()

    def region(self, cols: range | None = None, rows: range | None = None) -> tuple[Cell, ...]:
        """The cells in both `cols` and `rows` (every column or row when None), in reading
        order: a board section, a deployment zone, a row or some columns. Parts of the ranges
        off the board are left out."""
        return tuple(Cell(col=col, row=row)
                     for row in range(self.height) if rows is None or row in rows
                     for col in range(self.width) if cols is None or col in cols)

    def distance(self, a: Cell, b: Cell) -> int:
        return self.metric.distance(a, b)

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The cells one step from `cell`, in `Metric.steps` order."""
        found = _tables(self).neighbours.get(cell)
        if found is None:       # off the board: its neighbours that are on it
            return tuple(n for n in (cell.shifted(step) for step in self.metric.steps) if n in self)
        return found

    def within(self, center: Cell, radius: int) -> tuple[Cell, ...]:
        """The cells at most `radius` from `center`, `center` included, in reading order."""
        return tuple(cell for cell in self.cells() if self.distance(center, cell) <= radius)

    def line(self, start: Cell, step: Step, length: int) -> tuple[Cell, ...]:
        """Up to `length` cells going `step` at a time from `start` (which is left out),
        stopping at the edge of the board."""
        cells: list[Cell] = []
        while len(cells) < length and (cell := start.shifted(step, len(cells) + 1)) in self:
            cells.append(cell)
        return tuple(cells)


class _Tables:
    """A board size's cells in reading order (a cell's number is its place in that order, and
    its bit in a set of cells is `1 << number`), each one's neighbours (as cells, and as a set
    of cells), and `spread`, the cells next to a set of cells (some may be off the board, past
    its last row): what every search looks up."""
    __slots__ = ("cells", "number", "neighbours", "around", "board", "spread")

    def __init__(self, grid: Grid):
        steps, width = grid.metric.steps, grid.width
        self.cells = grid.cells()
        self.number = {cell: n for n, cell in enumerate(self.cells)}
        self.neighbours = {c: tuple(n for n in (c.shifted(step) for step in steps) if n in grid) for c in self.cells}
        self.around = [sum(1 << self.number[n] for n in self.neighbours[c]) for c in self.cells]
        self.board = (1 << len(self.cells)) - 1
        # The cells a step left or right keeps on the board: a bit shifted 1 would wrap a row.
        lefts = sum(1 << n for n, c in enumerate(self.cells) if c.col > 0)
        rights = sum(1 << n for n, c in enumerate(self.cells) if c.col < width - 1)
        if grid.metric is Metric.ORTHOGONAL:
            self.spread: Callable[[int], int] = lambda front: (
                front >> width | front << width | (front & lefts) >> 1 | (front & rights) << 1)
        else:
            self.spread = lambda front: (
                front >> width | front << width | (front & lefts) >> 1 | (front & rights) << 1
                | (front & rights) >> (width - 1) | (front & rights) << (width + 1)
                | (front & lefts) << (width - 1) | (front & lefts) >> (width + 1))


_TABLES: dict[Grid, _Tables] = {}
# The same tables found by a grid's identity, which spares hashing the grid (its metric is an
# enum, hashed in Python) on every step of a search. Each entry holds its grid, so the address
# it is kept under cannot be reused while it is there.
_BY_IDENTITY: dict[int, tuple[Grid, _Tables]] = {}


def _tables(grid: Grid) -> _Tables:
    """`grid`'s tables: built once per board size (they depend on nothing else)."""
    known = _BY_IDENTITY.get(id(grid))
    if known is not None and known[0] is grid:
        return known[1]
    tables = _TABLES.get(grid)
    if tables is None:
        tables = _TABLES[grid] = _Tables(grid)
    if len(_BY_IDENTITY) > 1024:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[id(grid)] = (grid, tables)
    return tables


@dataclass(frozen=True, slots=True, kw_only=True)
class Route:
    """A move: the cells entered, in order (the start left out, the end last), and the sum of
    their entry costs."""
    cells: tuple[Cell, ...]
    cost: int


def path(grid: Grid, start: Cell, goal: Cell, cost: EntryCost = uniform_cost, *,
         can_stop: CanStop = anywhere, max_cost: int | None = None, step: StepCost | None = None) -> Route | None:
    """The cheapest route from `start` to `goal` (ties as the module says), or None if none
    costs at most `max_cost` or `can_stop(goal)` is false. From `start` to itself the route is
    empty and free. `step(from, to)`, when given, prices each step in place of `cost(to)`: for
    terrain whose price depends on where the step comes from (climbing onto higher ground)."""
    _check_on(grid, start, goal)
    if goal != start and not can_stop(goal):
        return None
    settled, entered_from = _search(grid, start, _stepper(cost, step), max_cost, goal)
    if goal not in settled:
        return None
    cells = [goal]
    while cells[-1] != start:
        cells.append(entered_from[cells[-1]])
    return Route(cells=tuple(reversed(cells[:-1])), cost=settled[goal])


def reachable(grid: Grid, start: Cell, budget: int | None, cost: EntryCost = uniform_cost, *,
              can_stop: CanStop = anywhere, step: StepCost | None = None) -> dict[Cell, int]:
    """Every cell a move from `start` can end on for at most `budget` (None: any cost), with the
    least it costs, cheapest first. `start` is always in it, at 0: staying put. `step` as in
    `path`."""
    _check_on(grid, start)
    settled, _ = _search(grid, start, _stepper(cost, step), budget, None)
    return {cell: spent for cell, spent in settled.items() if cell == start or can_stop(cell)}


class Flood(NamedTuple):
    """Every cell a move of one step per cell can enter from `start` within its budget, as
    sets of cells (bits, see `cell_bits`): `fronts[k]` holds the cells k steps away at the
    fewest (`fronts[0]` is `start`), `reached` all of them. Where it may end is the caller's to say.
    (A named tuple: a game may flood once for every piece it moves.)"""
    grid: Grid
    start: Cell
    fronts: tuple[int, ...]
    reached: int

    @property
    def steps(self) -> dict[Cell, int]:
        """The fewest steps to each cell reached, fewest first, then in reading order."""
        return {cell: k for k, front in enumerate(self.fronts) for cell in bit_cells(self.grid, front)}

    def route(self, goal: Cell) -> Route | None:
        """The route to `goal` that `path` takes (None if it is out of reach): back from the
        goal, each cell is entered from its first neighbour, in reading order, one front nearer."""
        tables = _tables(self.grid)
        here = tables.number.get(goal)
        if here is None or not self.reached >> here & 1:
            return None
        at = 0
        while not self.fronts[at] >> here & 1:
            at += 1
        cells, numbered, around = [], tables.cells, tables.around
        for front in self.fronts[at - 1::-1] if at else ():     # the front before each cell's
            cells.append(numbered[here])
            came = front & around[here]
            here = (came & -came).bit_length() - 1              # the first in reading order
        cells.reverse()
        return Route(cells=tuple(cells), cost=at)


def cell_bits(grid: Grid, cells: Iterable[Cell]) -> int:
    """A set of cells of `grid` as bits: bit `row * width + col` for each (cells off it left out)."""
    return sum(1 << (cell.row * grid.width + cell.col) for cell in set(cells) if cell in grid)


def bit_cells(grid: Grid, bits: int) -> list[Cell]:
    """The cells of a set of cells as bits (`cell_bits`), in reading order."""
    cells, found = _tables(grid).cells, []
    while bits:
        low = bits & -bits
        found.append(cells[low.bit_length() - 1])
        bits ^= low
    return found


def flood(grid: Grid, start: Cell, budget: int | None, blocked: int = 0, *, until: Cell | None = None) -> Flood:
    """`reachable` and `path` where every cell costs 1 to enter but the `blocked` ones (bits,
    see `cell_bits`), which cannot be: a breadth-first search, one front of cells at a time.
    With `can_stop`, `reachable` is the cells of `steps` that are `start` or pass `can_stop`,
    and `path` to a goal that passes it (or is `start`) is `route(goal)`. With `until`, the
    search ends with the front that reaches that cell: enough for the route to it."""
    tables = _tables(grid)
    first = tables.number.get(start)
    if first is None:
        raise _off(grid, start)
    if budget is not None and budget < 0:
        raise ValueError(f"a budget is 0 or more, not {budget}")
    front = reached = 1 << first
    enterable = tables.board & ~blocked & ~front
    last = None if until is None else tables.number.get(until)      # None: never reached
    goal = 0 if last is None else 1 << last
    fronts, spread = [front], tables.spread
    while front and not front & goal and (budget is None or len(fronts) <= budget):
        front = spread(front) & enterable
        if front:
            enterable &= ~front
            fronts.append(front)
            reached |= front
    return Flood(grid, start, tuple(fronts), reached)


def follow(grid: Grid, start: Cell, cells: Sequence[Cell], cost: EntryCost = uniform_cost) -> Route:
    """The route that enters `cells` in turn from `start`, as a player traces it. Raises
    `RuleViolation` at the first cell that is not next to the one before it or cannot be entered.
    Where the route may end, and what it may cost, are the game's to check."""
    _check_on(grid, start)
    spent, here = 0, start
    for number, cell in enumerate(cells, start=1):
        if cell not in grid.neighbours(here):
            raise RuleViolation(f"step {number}: {cell.to_wire()} is not next to {here.to_wire()}")
        price = cost(cell)
        if price is None:
            raise RuleViolation(f"step {number}: {cell.to_wire()} cannot be entered")
        spent, here = spent + _checked(price, cell), cell
    return Route(cells=tuple(cells), cost=spent)


def _stepper(cost: EntryCost, step: StepCost | None) -> StepCost:
    return step if step is not None else (lambda here, nxt: cost(nxt))


def _search(grid: Grid, start: Cell, cost: StepCost, budget: int | None,
            goal: Cell | None) -> tuple[dict[Cell, int], dict[Cell, Cell]]:
    """Dijkstra from `start` on the key (cost, steps, cell): the least cost of each cell settled
    (in settling order) and the cell each was entered from. Stops once `goal` is settled.
    A cell is entered from the first cell settled that reaches it with its least key; all its
    possible predecessors share a (cost, steps), so they settle in reading order."""
    if budget is not None and budget < 0:
        raise ValueError(f"a budget is 0 or more, not {budget}")
    best = {start: (0, 0)}
    entered_from: dict[Cell, Cell] = {}
    settled: dict[Cell, int] = {}
    frontier = [(0, 0, start)]
    while frontier:
        spent, steps, cell = heapq.heappop(frontier)
        if cell in settled:
            continue
        settled[cell] = spent
        if cell == goal:
            break
        for nxt in grid.neighbours(cell):
            price = None if nxt in settled else cost(cell, nxt)
            if price is None:
                continue
            key = (spent + _checked(price, nxt), steps + 1)
            if (budget is None or key[0] <= budget) and (nxt not in best or key < best[nxt]):
                best[nxt], entered_from[nxt] = key, cell
                heapq.heappush(frontier, (*key, nxt))
    return settled, entered_from


def _checked(price: int, cell: Cell) -> int:
    if price < 0:
        raise ValueError(f"entering {cell.to_wire()} costs {price}; costs are 0 or more")
    return price


def _check_on(grid: Grid, *cells: Cell) -> None:
    for cell in cells:
        if cell not in grid:
            raise _off(grid, cell)


def _off(grid: Grid, cell: Cell) -> ValueError:
    return ValueError(f"{cell.to_wire()} is not on the {grid.width}x{grid.height} board")


def _coordinate(value: object, field: str, name: str, size: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _refused(field, f"{name} must be an integer, not {_kind(value)}")
    if not 0 <= value < size:
        # A huge integer has no short decimal form (and past 4,300 digits Python refuses one).
        shown = str(value) if value.bit_length() <= 64 else "an integer past 64 bits"
        raise _refused(field, f"{name} must be on the board, 0..{size - 1}, not {shown}")
    return int(value)


_JSON_KINDS: dict[type, str] = {type(None): "null", bool: "a boolean", int: "a number", dict: "an object"}


def _kind(value: object) -> str:
    """What a client sent, for an error message, without printing an integer (which may be huge)."""
    if isinstance(value, (list, tuple)):
        return f"an array of {len(value)} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, (str, float)):
        return quote(value, 24)
    return _JSON_KINDS.get(type(value), f"a value of type {type(value).__name__}")


def _refused(field: str, message: str) -> RuleViolation:
    """A bad cell in a command: a rule violation (400) that names the field, like any bad command."""
    return RuleViolation(f"{field}: {message}", field=field)
