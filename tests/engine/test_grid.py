"""Board geometry: exact cases read as given / when / then, and properties of paths, costs,
reach and the wire format on small random boards."""
from __future__ import annotations

from dataclasses import dataclass

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine.errors import RuleViolation
from domain.engine.grid import (DOWN, LEFT, RIGHT, UP, UP_LEFT, Cell, Grid, Metric, Route, follow, path,
                                reachable)

ORTHOGONAL, KING = Metric.ORTHOGONAL, Metric.KING
Costs = dict[Cell, int | None]


def at(col: int, row: int) -> Cell:
    return Cell(col=col, row=row)


def board(*rows: str, metric: Metric = ORTHOGONAL) -> tuple[Grid, Costs]:
    """A board drawn row by row: each cell is its entry cost, or '#' where it cannot be entered."""
    tokens = [row.split() for row in rows]
    grid = Grid(len(tokens[0]), len(tokens), metric)
    return grid, {at(c, r): None if t == "#" else int(t) for r, row in enumerate(tokens) for c, t in enumerate(row)}


def cells(*pairs: tuple[int, int]) -> tuple[Cell, ...]:
    return tuple(at(col, row) for col, row in pairs)


# -- geometry ---------------------------------------------------------------------------------

def test_neighbours_come_clockwise_from_up_and_stop_at_the_edge():
    grid = Grid(3, 3)
    assert grid.neighbours(at(1, 1)) == cells((1, 0), (2, 1), (1, 2), (0, 1))
    assert grid.neighbours(at(0, 0)) == cells((1, 0), (0, 1))
    assert Grid(3, 3, KING).neighbours(at(1, 1)) == cells((1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1), (0, 0))
    assert Grid(3, 3, KING).neighbours(at(2, 2)) == cells((2, 1), (1, 2), (1, 1))
    assert Grid(1, 1, KING).neighbours(at(0, 0)) == ()


def test_distance_is_manhattan_or_chebyshev():
    a, b = at(0, 0), at(3, 2)
    assert ORTHOGONAL.distance(a, b) == 5        # 3 columns + 2 rows
    assert KING.distance(a, b) == 3              # 2 diagonal steps, then 1 across
    assert Grid(4, 3, KING).distance(b, a) == 3


def test_cells_and_regions_are_in_reading_order_and_clipped_to_the_board():
    grid = Grid(5, 6)                                      # battleboard: two 5x3 sections
    assert grid.cells()[:6] == cells((0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (0, 1))
    far_section = grid.region(rows=range(3, 6))
    assert len(far_section) == 15 and far_section[0] == at(0, 3) and far_section[-1] == at(4, 5)
    assert grid.region(rows=range(2, 3)) == cells((0, 2), (1, 2), (2, 2), (3, 2), (4, 2))   # a row
    assert grid.region(cols=range(3, 8), rows=range(-2, 1)) == cells((3, 0), (4, 0))          # clipped
    assert grid.region(cols=range(10, 12)) == ()


def test_within_a_radius_is_a_plus_or_a_square():
    assert Grid(5, 5).within(at(2, 2), 1) == cells((2, 1), (1, 2), (2, 2), (3, 2), (2, 3))
    assert len(Grid(5, 5, KING).within(at(2, 2), 1)) == 9     # a 3x3 burst
    assert Grid(5, 5, KING).within(at(0, 0), 1) == cells((0, 0), (1, 0), (0, 1), (1, 1))


def test_a_line_leaves_out_its_start_and_stops_at_the_edge():
    grid = Grid(5, 6)
    assert grid.line(at(2, 2), RIGHT, 5) == cells((3, 2), (4, 2))
    assert grid.line(at(2, 2), DOWN, 2) == cells((2, 3), (2, 4))
    assert grid.line(at(2, 2), UP_LEFT, 10) == cells((1, 1), (0, 0))
    assert grid.line(at(0, 0), LEFT, 3) == () and grid.line(at(2, 2), UP, 0) == ()


def test_a_board_has_at_least_one_cell():
    with pytest.raises(ValueError, match="at least 1x1"):
        Grid(0, 3)


# -- paths ------------------------------------------------------------------------------------

def test_equal_paths_break_ties_in_reading_order():
    given = Grid(3, 3)
    then = path(given, at(0, 0), at(2, 2))
    # six 4-step paths; the goal is entered from (2, 1), row 1 coming before (1, 2) in row 2,
    # and (2, 1) from (2, 0): so along row 0, then down.
    assert then == Route(cells=cells((1, 0), (2, 0), (2, 1), (2, 2)), cost=4)
    assert path(Grid(3, 3, KING), at(0, 0), at(2, 2)) == Route(cells=cells((1, 1), (2, 2)), cost=2)


def test_a_wall_is_walked_around():
    grid, costs = board("1 1 1 1 1",
                        "1 # 3 1 1",
                        "1 1 1 1 1")
    then = path(grid, at(0, 1), at(4, 1), costs.__getitem__)
    # 6 steps at 1 each by row 0 or row 2; through the 3 it costs 1+1+1+3+1+1 = 8
    assert then == Route(cells=cells((0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (4, 1)), cost=6)


def test_of_equal_costs_the_fewest_steps_win():
    grid, costs = board("1 3 1 1",
                        "1 1 1 1")
    then = path(grid, at(0, 0), at(3, 0), costs.__getitem__)
    assert then == Route(cells=cells((1, 0), (2, 0), (3, 0)), cost=5)   # 3+1+1 = 5 in 3 steps, not 5 in 5


def test_costly_terrain_is_walked_around_when_that_is_cheaper():
    grid, costs = board("1 4 1 1",
                        "1 1 1 1")
    then = path(grid, at(0, 0), at(3, 0), costs.__getitem__)
    # straight on: 4+1+1 = 6; round by row 1: 5 steps at 1 = 5, climbing back up at (2, 0)
    # because row 0 comes before (3, 1) in reading order
    assert then == Route(cells=cells((0, 1), (1, 1), (2, 1), (2, 0), (3, 0)), cost=5)


def test_a_move_can_pass_a_cell_it_cannot_end_on():
    grid, costs = board("1 1 1 1 1")
    ally = at(2, 0)

    def can_stop(cell: Cell) -> bool:
        return cell != ally

    assert path(grid, at(0, 0), ally, costs.__getitem__, can_stop=can_stop) is None
    assert path(grid, at(0, 0), at(4, 0), costs.__getitem__, can_stop=can_stop) == Route(
        cells=cells((1, 0), (2, 0), (3, 0), (4, 0)), cost=4)
    assert reachable(grid, at(0, 0), 3, costs.__getitem__, can_stop=can_stop) == {at(0, 0): 0, at(1, 0): 1, at(3, 0): 3}


def test_a_budget_bounds_paths_and_reach():
    grid, costs = board("1 2 # 1",
                        "0 0 1 1")
    assert path(grid, at(0, 0), at(3, 0), costs.__getitem__, max_cost=2) is None
    # down and along row 1: 0+0+1+1, then up into (3, 0): 1, so 3
    assert path(grid, at(0, 0), at(3, 0), costs.__getitem__, max_cost=3) == Route(
        cells=cells((0, 1), (1, 1), (2, 1), (3, 1), (3, 0)), cost=3)
    assert reachable(grid, at(0, 0), 1, costs.__getitem__) == {
        at(0, 0): 0, at(0, 1): 0, at(1, 1): 0, at(2, 1): 1}      # (1, 0) costs 2, (3, 1) costs 0+0+1+1
    assert reachable(grid, at(0, 0), 0, costs.__getitem__) == {at(0, 0): 0, at(0, 1): 0, at(1, 1): 0}


def test_the_start_is_free_even_when_it_cannot_be_entered():
    grid, costs = board("# 1")
    assert path(grid, at(0, 0), at(0, 0), costs.__getitem__) == Route(cells=(), cost=0)
    assert path(grid, at(1, 0), at(0, 0), costs.__getitem__) is None
    assert reachable(grid, at(0, 0), None, costs.__getitem__) == {at(0, 0): 0, at(1, 0): 1}


def test_programming_errors_are_value_errors():
    grid = Grid(3, 3)
    with pytest.raises(ValueError, match="costs -1"):
        path(grid, at(0, 0), at(2, 0), lambda cell: -1)
    with pytest.raises(ValueError, match="budget"):
        reachable(grid, at(0, 0), -1)
    with pytest.raises(ValueError, match=r"\[3, 0\] is not on the 3x3 board"):
        path(grid, at(3, 0), at(0, 0))


def test_a_traced_route_is_costed_or_refused_at_its_first_bad_step():
    grid, costs = board("1 2 #",
                        "1 1 1")
    assert follow(grid, at(0, 0), cells((1, 0), (1, 1), (2, 1)), costs.__getitem__) == Route(
        cells=cells((1, 0), (1, 1), (2, 1)), cost=4)                                        # 2+1+1
    with pytest.raises(RuleViolation, match=r"^step 2: \[2, 1\] is not next to \[1, 0\]$"):
        follow(grid, at(0, 0), cells((1, 0), (2, 1)), costs.__getitem__)
    with pytest.raises(RuleViolation, match=r"^step 2: \[2, 0\] cannot be entered$"):
        follow(grid, at(0, 0), cells((1, 0), (2, 0)), costs.__getitem__)
    assert follow(grid, at(0, 0), ()) == Route(cells=(), cost=0)


# -- wire -------------------------------------------------------------------------------------

def test_a_cell_is_col_row_on_the_wire():
    grid = Grid(5, 6)
    assert at(2, 3).to_wire() == [2, 3]
    assert Cell.from_wire([2, 3], "move.to", grid) == at(2, 3)
    assert Cell.from_wire((4, 5), "move.to", grid) == at(4, 5)


@pytest.mark.parametrize("raw, field, message", [
    ("c3", "move.to", "must be a cell [col, row] of two integers, not 'c3'"),
    (None, "move.to", "must be a cell [col, row] of two integers, not null"),
    (7, "move.to", "must be a cell [col, row] of two integers, not a number"),
    ({"col": 1, "row": 2}, "move.to", "must be a cell [col, row] of two integers, not an object"),
    ([1], "move.to", "must be a cell [col, row] of two integers, not an array of 1 item"),
    ([1, 2, 3], "move.to", "must be a cell [col, row] of two integers, not an array of 3 items"),
    ([True, 1], "move.to[0]", "col must be an integer, not a boolean"),
    ([1, 2.0], "move.to[1]", "row must be an integer, not 2.0"),
    (["1", 2], "move.to[0]", "col must be an integer, not '1'"),
    ([1, None], "move.to[1]", "row must be an integer, not null"),
    ([1, [2]], "move.to[1]", "row must be an integer, not an array of 1 item"),
    ([5, 0], "move.to[0]", "col must be on the board, 0..4, not 5"),
    ([0, -1], "move.to[1]", "row must be on the board, 0..5, not -1"),
    ([10**5000, 0], "move.to[0]", "col must be on the board, 0..4, not an integer past 64 bits"),
    ([0, -2**64], "move.to[1]", "row must be on the board, 0..5, not an integer past 64 bits"),
])
def test_bad_wire_cells_are_refused_naming_the_field(raw, field, message):
    with pytest.raises(RuleViolation) as caught:
        Cell.from_wire(raw, "move.to", Grid(5, 6))
    assert caught.value.code == "rule_violation" and caught.value.details["field"] == field
    assert caught.value.message == f"{field}: {message}"


# -- properties -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Journey:
    grid: Grid
    costs: Costs
    start: Cell
    goal: Cell
    no_stop: frozenset[Cell]

    def cost(self, cell: Cell) -> int | None:
        return self.costs[cell]

    def can_stop(self, cell: Cell) -> bool:
        return cell not in self.no_stop


@st.composite
def grids(draw: st.DrawFn) -> Grid:
    return Grid(draw(st.integers(1, 8)), draw(st.integers(1, 8)), draw(st.sampled_from(Metric)))


@st.composite
def journeys(draw: st.DrawFn) -> Journey:
    grid = draw(grids())
    every = grid.cells()
    # One byte a cell (drawn much faster than a list): 0..3 is its entry cost, 4 a wall.
    prices = [None if b % 5 == 4 else b % 5 for b in draw(st.binary(min_size=len(every), max_size=len(every)))]
    no_stop = draw(st.frozensets(st.sampled_from(every), max_size=3))
    return Journey(grid, dict(zip(every, prices)), draw(st.sampled_from(every)), draw(st.sampled_from(every)), no_stop)


def least(j: Journey) -> dict[Cell, tuple[int, int]]:
    """The least (cost, steps) to reach each cell, relaxed to a fixpoint: slow, but plainly right."""
    best = {j.start: (0, 0)}
    changed = True
    while changed:
        changed = False
        for cell, (spent, steps) in list(best.items()):
            for nxt in j.grid.neighbours(cell):
                price = j.costs[nxt]
                if price is not None and (nxt not in best or (spent + price, steps + 1) < best[nxt]):
                    best[nxt], changed = (spent + price, steps + 1), True
    return best


def route_of(j: Journey, max_cost: int | None = None) -> Route | None:
    return path(j.grid, j.start, j.goal, j.cost, can_stop=j.can_stop, max_cost=max_cost)


PROPERTY = settings(deadline=None, max_examples=150)   # about 4 seconds for the file


@PROPERTY
@given(journeys())
def test_a_path_steps_to_neighbours_and_costs_the_sum_of_its_entries(j):
    route = route_of(j)
    if route is not None:
        assert follow(j.grid, j.start, route.cells, j.cost) == route    # each step to a neighbour, costs summed
        assert route.cost == sum(j.costs[cell] for cell in route.cells)
        assert (route.cells[-1] if route.cells else j.start) == j.goal
        assert len(set(route.cells)) == len(route.cells) and j.start not in route.cells


@PROPERTY
@given(journeys())
def test_a_path_is_the_cheapest_then_the_shortest(j):
    route, best = route_of(j), least(j)
    can_end = j.goal in best and (j.goal == j.start or j.can_stop(j.goal))
    assert (route is not None) == can_end
    if route is not None:
        assert (route.cost, len(route.cells)) == best[j.goal]


@PROPERTY
@given(journeys())
def test_each_cell_of_a_path_is_entered_from_its_first_possible_predecessor(j):
    route, best = route_of(j), least(j)
    if route is not None:
        for before, cell in zip((j.start, *route.cells), route.cells):
            spent, steps = best[cell]
            possible = [p for p in j.grid.neighbours(cell) if best.get(p) == (spent - j.costs[cell], steps - 1)]
            assert before == min(possible)


@PROPERTY
@given(journeys())
def test_a_path_costs_what_reachable_says(j):
    route, reach = route_of(j), reachable(j.grid, j.start, None, j.cost, can_stop=j.can_stop)
    assert (route is None) == (j.goal not in reach)
    if route is not None:
        assert route.cost == reach[j.goal]
    assert reach == {cell: spent for cell, (spent, _) in least(j).items() if cell == j.start or j.can_stop(cell)}


@PROPERTY
@given(journeys(), st.integers(0, 12))
def test_a_budget_keeps_exactly_the_cells_within_it(j, budget):
    reach = reachable(j.grid, j.start, budget, j.cost, can_stop=j.can_stop)
    unbounded = reachable(j.grid, j.start, None, j.cost, can_stop=j.can_stop)
    assert all(spent <= budget for spent in reach.values())
    assert reach == {cell: spent for cell, spent in unbounded.items() if spent <= budget}
    assert reach.items() <= reachable(j.grid, j.start, budget + 1, j.cost, can_stop=j.can_stop).items()
    assert (route_of(j, max_cost=budget) is None) == (j.goal not in reach)


@PROPERTY
@given(journeys())
def test_a_path_is_the_same_for_the_same_board(j):
    # An equal board built anew, its costs held in the opposite order: nothing may hang on it.
    again = Journey(Grid(j.grid.width, j.grid.height, j.grid.metric), dict(reversed(j.costs.items())),
                    j.start, j.goal, j.no_stop)
    assert route_of(j) == route_of(j) == route_of(again)
    assert list(reachable(j.grid, j.start, None, j.cost).items()) == list(reachable(again.grid, j.start, None, again.cost).items())


@PROPERTY
@given(grids(), st.data())
def test_on_an_open_board_a_path_is_as_long_as_the_distance(grid, data):
    start, goal = data.draw(st.sampled_from(grid.cells())), data.draw(st.sampled_from(grid.cells()))
    route = path(grid, start, goal)
    assert route is not None and route.cost == len(route.cells) == grid.distance(start, goal)


@PROPERTY
@given(grids(), st.data())
def test_distance_is_a_metric_and_neighbours_are_the_cells_one_away(grid, data):
    a, b, c = (data.draw(st.sampled_from(grid.cells())) for _ in range(3))
    assert grid.distance(a, b) == grid.distance(b, a) and (grid.distance(a, b) == 0) == (a == b)
    assert grid.distance(a, c) <= grid.distance(a, b) + grid.distance(b, c)
    assert (b in grid.neighbours(a)) == (a in grid.neighbours(b)) == (grid.distance(a, b) == 1)
    assert len(set(grid.neighbours(a))) == len(grid.neighbours(a))


@PROPERTY
@given(grids(), st.data(), st.integers(0, 9))
def test_lines_and_bursts_fit_the_metric(grid, data, length):
    center = data.draw(st.sampled_from(grid.cells()))
    if grid.metric is KING:
        assert grid.within(center, 1) == grid.region(cols=range(center.col - 1, center.col + 2),
                                                     rows=range(center.row - 1, center.row + 2))
    step = data.draw(st.sampled_from(grid.metric.steps))
    line = grid.line(center, step, length)
    assert all(b in grid.neighbours(a) for a, b in zip((center, *line), line))
    assert len(line) == length or center.shifted(step, len(line) + 1) not in grid


@PROPERTY
@given(grids(), st.data())
def test_a_cell_survives_the_wire(grid, data):
    cell = data.draw(st.sampled_from(grid.cells()))
    assert Cell.from_wire(orjson.loads(orjson.dumps(cell.to_wire())), "to", grid) == cell


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(63, 20_000).map(lambda p: (-2) ** p)  # past 6,000 digits
    | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=2),
    max_leaves=6)


@PROPERTY
@given(grids(), json_values | st.lists(st.integers(-2, 9), min_size=2, max_size=2))
def test_wire_input_is_a_cell_on_the_board_or_refused(grid, raw):
    try:
        cell = Cell.from_wire(raw, "move.to", grid)
    except RuleViolation as refused:
        assert refused.details["field"] in ("move.to", "move.to[0]", "move.to[1]")
    else:
        assert cell in grid and cell.to_wire() == list(raw)


def test_a_step_cost_prices_each_step_by_where_it_comes_from():
    """Given a 3x1 board whose middle cell is a ledge: climbing onto it costs 3, stepping down 1.
    When `reachable` and `path` get `step(from, to)`, then they use it in place of `cost(to)`."""
    grid = Grid(3, 1)
    ledge = Cell(col=1, row=0)

    def step(frm: Cell, to: Cell) -> int:
        return 3 if to == ledge else 1

    assert reachable(grid, Cell(col=0, row=0), 3, step=step) == {Cell(col=0, row=0): 0, ledge: 3}
    route = path(grid, Cell(col=0, row=0), Cell(col=2, row=0), step=step)
    assert route is not None and route.cost == 3 + 1      # up onto the ledge, then down

