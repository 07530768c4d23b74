"""`flood`, the breadth-first search for boards where every cell costs one step: it finds
exactly what the general searches (`reachable`, `path`) find there, in the same order."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.engine.grid import Cell, Grid, bit_cells, cell_bits, flood, reachable

from .test_grid import PROPERTY, Journey, at, journeys, route_of


@PROPERTY
@given(journeys(), st.one_of(st.none(), st.integers(0, 12)))
def test_a_flood_is_reachable_and_path_when_every_cell_costs_one(j, budget):
    """Given a board whose cells cost 1 or cannot be entered, when it is flooded, then its steps
    and routes are exactly what `reachable` and `path` give (in the same order)."""
    ones = Journey(j.grid, {cell: None if price is None else 1 for cell, price in j.costs.items()},
                   j.start, j.goal, j.no_stop)
    walls = cell_bits(j.grid, (cell for cell, price in ones.costs.items() if price is None))
    flooded = flood(j.grid, j.start, budget, walls)
    reach = reachable(j.grid, j.start, budget, ones.cost, can_stop=ones.can_stop)
    assert list(reach.items()) == [(cell, steps) for cell, steps in flooded.steps.items()
                                   if cell == j.start or ones.can_stop(cell)]
    route = route_of(ones, max_cost=budget)
    assert route == (flooded.route(j.goal) if j.goal == j.start or ones.can_stop(j.goal) else None)
    assert flood(j.grid, j.start, budget, walls, until=j.goal).route(j.goal) == flooded.route(j.goal)
    assert bit_cells(j.grid, flooded.reached) == sorted(flooded.steps)
    assert bit_cells(j.grid, walls | cell_bits(j.grid, [Cell(col=j.grid.width, row=0)])) == sorted(
        cell for cell, price in ones.costs.items() if price is None)       # a cell off the board left out


def test_a_flood_refuses_what_reachable_refuses():
    with pytest.raises(ValueError, match="budget"):
        flood(Grid(3, 3), at(0, 0), -1)
    with pytest.raises(ValueError, match=r"\[3, 0\] is not on the 3x3 board"):
        flood(Grid(3, 3), at(3, 0), 2)
