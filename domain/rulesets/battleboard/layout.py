"""One map's fixed tables at one board size, worked out once per content: terrain and level by
cell, each cell's neighbours, the cells an effect reaches in one step (Elevated Terrain) and
the steps an effect takes from an origin to every cell it reaches.

Content never changes once loaded, so a table built from it never goes stale: `layout` keeps
each one on the content object it was read from (a kept release's content has its own).
"""
from __future__ import annotations

from functools import cache, lru_cache

from domain.engine.grid import Cell, Grid

from .content import BattleboardContent, Map

Pos = tuple[int, int]


@cache
def grid(width: int, height: int) -> Grid:
    return Grid(width, height)


class Layout:
    """The tables of map `m` on a `width` x `height` board: `terrain` and `level` by cell (every
    cell of the map), `neighbours` (up, right, down, left, on the board) and `next_to` (those an
    effect steps to from the cell: the lower and the level ones) by cell of the board."""

    __slots__ = ("map", "grid", "terrain", "level", "neighbours", "next_to", "_spans")

    def __init__(self, m: Map, cells: dict[Pos, tuple[str, int]], grid: Grid):
        self.map, self.grid = m, grid
        self.terrain = {p: kind for p, (kind, _) in cells.items()}
        self.level = {p: height for p, (_, height) in cells.items()}
        self.neighbours = {(c.col, c.row): tuple((n.col, n.row) for n in grid.neighbours(c)) for c in grid.cells()}
        self.next_to = {p: tuple(q for q in near if m.level(*q) <= m.level(*p)) for p, near in self.neighbours.items()}
        self._spans: dict[Pos, dict[Pos, int]] = {}

    def neighbours_of(self, p: Pos) -> tuple[Pos, ...]:
        """The cells next to `p` in the grid's order (`p` may lie off the board)."""
        found = self.neighbours.get(p)
        if found is None:
            found = tuple((n.col, n.row) for n in self.grid.neighbours(Cell(col=p[0], row=p[1])))
        return found

    def next_to_of(self, p: Pos) -> tuple[Pos, ...]:
        """Elevated Terrain: the cells next to `p` for an effect used from it; a higher cell is
        not next to a lower one."""
        found = self.next_to.get(p)
        if found is None:
            found = tuple(q for q in self.neighbours_of(p) if self.map.level(*q) <= self.map.level(*p))
        return found

    def spans(self, origin: Pos) -> dict[Pos, int]:
        """The steps from `origin` to every cell an effect reaches, never climbing (worked out
        the first time it is asked for)."""
        found = self._spans.get(origin)
        if found is None:
            found = self._spans[origin] = self._search(origin)
        return found

    def _search(self, origin: Pos) -> dict[Pos, int]:
        found = {origin: 0}
        frontier = [origin]
        while frontier:
            nxt = []
            for p in frontier:
                for q in self.next_to_of(p):
                    if q not in found:
                        found[q] = found[p] + 1
                        nxt.append(q)
            frontier = nxt
        return found

    def origins(self, path: tuple[Pos, ...]) -> tuple[Pos, ...]:
        """Seed 002, Patterns: the cells on or next to the path (for an effect), first seen first."""
        found: dict[Pos, None] = {}
        for p in path:
            found.setdefault(p)
            for q in self.next_to_of(p):
                found.setdefault(q)
        return tuple(found)


    @lru_cache(maxsize=8192)
    def best_origins(self, path: tuple[Pos, ...], liquid_ignored: bool, reach: int) -> dict[Pos, Pos]:
        """Under Elevated Terrain range: each cell an effect of `reach` from the path's origins
        reaches, with the origin that loses the fewest dice there (the first among equals), for a
        combatant that ignores liquid or not. Shared: read it, never change it."""
        best: dict[Pos, Pos] = {}
        fewest: dict[Pos, int] = {}
        for origin in self.origins(path):
            kind = self.terrain[origin]
            lost = 1 if kind == "obscuring" or (kind == "liquid" and not liquid_ignored) else 0
            for cell, steps in self.spans(origin).items():
                if steps <= reach and (cell not in best or lost < fewest[cell]):
                    best[cell], fewest[cell] = origin, lost
        return best


def layout_of(c: BattleboardContent, map_id: str, grid: Grid) -> Layout:
    """The map's tables for the board `grid`, built once per content."""
    key = (map_id, grid.width, grid.height)
    found = c.layouts.get(key)
    if found is None:
        found = c.layouts[key] = Layout(c.maps[map_id], c.cells(map_id), grid)
    return found
