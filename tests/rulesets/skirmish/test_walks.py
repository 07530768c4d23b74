"""Walking as the board's rules word it, checked against the general path search of
`domain/engine/grid.py` (a walk enters any tile but rocks and opponents, at 1 a tile, and ends
on an empty one), on boards with rocks and crowds, asked about in turn from states that differ
by one unit, so that nothing worked out for one state leaks into another."""
from __future__ import annotations

import random

import pytest

from domain.engine.grid import Cell, path, reachable
from domain.rulesets.skirmish.board import board_of, walk
from domain.rulesets.skirmish.combat import walk_targets
from domain.rulesets.skirmish.resolver import speed

from .given import skirmish, unit

CHARACTERS = {"p1": ("ember", "brand", "sigil"), "p2": ("wisp", "brick", "cinder")}


def crowd(rng: random.Random, board: str):
    """A state with the six units on random open tiles of `board` (some fainted)."""
    rocks = board_of(skirmish(board=board)).rocks
    tiles = rng.sample([(c, r) for c in range(7) for r in range(8) if Cell(col=c, row=r) not in rocks], 6)
    units = [unit(f"{seat}.{name}", tiles.pop(), fainted=rng.random() < 0.15)
             for seat, names in CHARACTERS.items() for name in names]
    return skirmish(*units, board=board)


def expected(state, key):
    """The tiles and routes of the general search: cost 1 but rocks and opponents; ends on empty tiles."""
    me = state.units[key]
    taken = {u.cell: u.seat for u in state.units.values() if u.on_board and u.key != key}
    rocks = board_of(state).rocks

    def cost(cell):
        seat = taken.get((cell.col, cell.row))
        return None if cell in rocks or (seat is not None and seat != me.seat) else 1

    def can_stop(cell):
        return (cell.col, cell.row) not in taken

    grid, start = board_of(state).grid, me.at()
    ends = reachable(grid, start, speed(state, me), cost, can_stop=can_stop)
    targets = [c.to_wire() for c in sorted(ends) if c != start]
    routes = {c: path(grid, start, c, cost, can_stop=can_stop, max_cost=speed(state, me)) for c in grid.cells()}
    return targets, {c: None if c == start else r for c, r in routes.items()}


@pytest.mark.parametrize("board", ["meadow", "ruins"])
def test_walks_are_the_general_search_in_every_state_asked_in_turn(board):
    rng = random.Random(f"walks-{board}")
    states = [crowd(rng, board) for _ in range(12)]
    # Each state asked again after the others, its routes first the second time (as a replay's
    # moves are checked: with no list of legal commands worked out before).
    for again, state in [(False, s) for s in states] + [(True, s) for s in states[::-1]]:
        for key, me in state.units.items():
            if not me.on_board:
                continue
            targets, routes = expected(state, key)
            if not again:
                assert walk_targets(state, me) == targets
            for goal, route in routes.items():
                assert walk(state, me, goal, speed(state, me)) == route
            assert walk_targets(state, me) == targets
