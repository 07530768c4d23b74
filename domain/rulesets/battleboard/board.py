"""The 5x6 battle board (seed 002, Battle Board and Movement): sections, terrain, the cost of
each step of a movement path, zones of control, teleport jumps, origins, range and snap-back.

Cells are stored as (col, row) and sent as [col, row]; row 0 is the heroes' edge. Adjacency
is orthogonal (`Metric.ORTHOGONAL`), and so is every distance.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache

from domain.engine.grid import Cell, Grid, reachable

from .content import Map, content
from .state import HEROES, Battleboard, Combatant, Pos

STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))      # up, right, down, left


@cache
def grid(width: int, height: int) -> Grid:
    return Grid(width, height)


def board(s: Battleboard) -> Grid:
    return grid(s.params.width, s.params.height)


def on_board(s: Battleboard, p: Pos) -> bool:
    return 0 <= p[0] < s.params.width and 0 <= p[1] < s.params.height


def the_map(s: Battleboard) -> Map:
    return content().maps[s.map]


def terrain(s: Battleboard, p: Pos) -> str:
    return content().cells(s.map)[p][0]


def level(s: Battleboard, p: Pos) -> int:
    return content().cells(s.map)[p][1]


def section_rows(s: Battleboard, side: str) -> range:
    """The rows a side holds: the heroes from row 0 up to the border, the foes the rest."""
    return range(0, s.border) if side == HEROES else range(s.border, s.params.height)


def in_section(s: Battleboard, side: str, p: Pos) -> bool:
    return p[1] in section_rows(s, side)


def section_cells(s: Battleboard, side: str) -> list[Pos]:
    """A side's cells in reading order."""
    return [(c, r) for r in section_rows(s, side) for c in range(s.params.width)]


def placeable(s: Battleboard, p: Pos) -> bool:
    """Where a combatant may stand at the start: not a barrier, not challenging terrain."""
    return terrain(s, p) not in ("barrier", "challenging")


def neighbours(s: Battleboard, p: Pos) -> list[Pos]:
    """The cells next to `p`, up, right, down, left (the grid's clockwise order)."""
    return [(c.col, c.row) for c in board(s).neighbours(to_cell(p))]


def distance(a: Pos, b: Pos) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def zone(p: Pos) -> set[Pos]:
    """Zone of Control: the '+' around a combatant, its own cell included."""
    return {p, *((p[0] + dc, p[1] + dr) for dc, dr in STEPS)}


def enemies(s: Battleboard, unit: Combatant) -> Iterator[Combatant]:
    return (u for u in s.units.values() if u.side != unit.side and not u.defeated and u.cell is not None)


def zoc_cost(s: Battleboard, unit: Combatant, p: Pos) -> int:
    """+1 for each enemy zone of control covering `p` (zones stack). Bull Rush ignores the cost;
    Flight ignores the zones of enemies without flight."""
    if unit.moves_as("bull_rush"):
        return 0
    flying = unit.moves_as("flight")
    return sum(1 for e in enemies(s, unit)
               if (not flying or e.moves_as("flight")) and e.cell is not None and distance(e.cell, p) <= 1)


def enemy_at(s: Battleboard, unit: Combatant, p: Pos) -> bool:
    return any(e.cell == p for e in enemies(s, unit))


def step_cost(s: Battleboard, unit: Combatant, frm: Pos, to: Pos, *, through_enemies: bool = False) -> int | None:
    """Movement points to step from `frm` onto the next cell `to`, or None where it may not."""
    kind = terrain(s, to)
    flying = unit.moves_as("flight")
    if kind == "barrier" or (kind == "challenging" and not (flying or unit.lifted)):
        return None
    if not through_enemies and enemy_at(s, unit, to):
        return None
    cost = 1
    if kind == "difficult" and not flying:
        cost += 1
    if kind == "liquid" and not (flying or unit.moves_as("swimming")):
        cost += 1
    if level(s, to) > level(s, frm) and not flying:
        cost += 1 if unit.moves_as("climbing") else 2
    return cost + zoc_cost(s, unit, to)


def reach(s: Battleboard, unit: Combatant) -> dict[Pos, int]:
    """Where a walk of single steps can take the combatant on its movement points now (not on
    another combatant's cell), with the least each costs: the view's movement range."""
    if unit.cell is None:
        return {}

    def price(frm: Cell, to: Cell) -> int | None:
        return step_cost(s, unit, (frm.col, frm.row), (to.col, to.row))

    def free(cell: Cell) -> bool:
        return not any(u.cell == (cell.col, cell.row) for u in s.units.values() if not u.defeated)

    found = reachable(board(s), to_cell(unit.cell), unit.mp, step=price, can_stop=free)
    return {(c.col, c.row): cost for c, cost in found.items()}


def hazard_paid(s: Battleboard, unit: Combatant, p: Pos) -> bool:
    """Hazardous terrain costs a defense token to move through."""
    return terrain(s, p) == "hazardous"


def steps(s: Battleboard, unit: Combatant) -> list[tuple[Pos, int, int]]:
    """Every next cell of the movement path it can afford now: (cell, cost, cells skipped).
    Steps first, in up-right-down-left order, then teleport jumps by direction and length."""
    here = unit.cell
    if here is None:
        return []
    found = []
    for to in neighbours(s, here):
        cost = step_cost(s, unit, here, to)
        if cost is not None and cost <= unit.mp and (not hazard_paid(s, unit, to) or unit.tokens_left):
            found.append((to, cost, 0))
    if unit.teleport_left and unit.mp >= 1:
        found += [(to, 1, skipped) for to, skipped in jumps(s, unit)
                  if not hazard_paid(s, unit, to) or unit.tokens_left]
    return found


def jumps(s: Battleboard, unit: Combatant) -> list[tuple[Pos, int]]:
    """Teleportation: straight jumps skipping 1..teleport_left cells, none a barrier or obscuring
    terrain; the landing may not be a barrier or an enemy's cell (other terrain is ignored)."""
    assert unit.cell is not None
    found = []
    for dc, dr in STEPS:
        for skipped in range(1, unit.teleport_left + 1):
            over = [(unit.cell[0] + dc * k, unit.cell[1] + dr * k) for k in range(1, skipped + 1)]
            to = (unit.cell[0] + dc * (skipped + 1), unit.cell[1] + dr * (skipped + 1))
            if not on_board(s, to) or any(terrain(s, c) in ("barrier", "obscuring") for c in over):
                break
            if terrain(s, to) != "barrier" and not enemy_at(s, unit, to):
                found.append((to, skipped))
    return found


def origins(s: Battleboard, unit: Combatant) -> list[Pos]:
    """Seed 002, Patterns: an action originates on or next to the movement path. A higher cell is
    not next to a lower one (Elevated Terrain): adjacency counts from high to low only."""
    return list(_origins(the_map(s), board(s), unit.path or ((unit.cell,) if unit.cell else ())))


@lru_cache(maxsize=4096)
def _origins(m: Map, on: Grid, path: tuple[Pos, ...]) -> tuple[Pos, ...]:
    found: list[Pos] = []
    for p in path:
        for q in (p, *_next_to(m, on, p)):
            if q not in found:
                found.append(q)
    return tuple(found)


def _next_to(m: Map, on: Grid, p: Pos) -> list[Pos]:
    """Elevated Terrain: the cells next to `p` for an effect used from it, the lower and the
    level ones; a higher cell is not next to a lower one."""
    return [(c.col, c.row) for c in on.neighbours(to_cell(p)) if m.level(c.col, c.row) <= m.level(*p)]


def span(s: Battleboard, origin: Pos, target: Pos) -> int | None:
    """How far an effect reaches from `origin` to `target`: steps between cells next to each
    other. Under `elevated_range` a step never climbs (a lower cell is not next to a higher
    one, seed 002, Elevated Terrain), so a higher cell may be out of reach (None); under
    1.0.0's rules every step counted alike."""
    if not s.rules.elevated_range:
        return distance(origin, target)
    return _spans(the_map(s), board(s), origin).get(target)


@lru_cache(maxsize=4096)
def _spans(m: Map, on: Grid, origin: Pos) -> dict[Pos, int]:
    """The steps from `origin` to every cell an effect reaches, never climbing."""
    found = {origin: 0}
    frontier = [origin]
    while frontier:
        nxt = []
        for p in frontier:
            for q in _next_to(m, on, p):
                if q not in found:
                    found[q] = found[p] + 1
                    nxt.append(q)
        frontier = nxt
    return found


def within(s: Battleboard, origin: Pos, target: Pos, reach: int) -> bool:
    steps = span(s, origin, target)
    return steps is not None and steps <= reach


def liquid_ignored(unit: Combatant) -> bool:
    return unit.moves_as("flight") or unit.moves_as("swimming")


def die_penalty(s: Battleboard, attacker: Combatant, origin: Pos, target: Combatant) -> int:
    """Obscuring and liquid terrain: one die fewer for an attack originating there, and one fewer
    for an attack targeting a combatant there (not for a flyer or swimmer in liquid)."""
    return cell_penalty(s, attacker, origin) + (cell_penalty(s, target, target.cell) if target.cell else 0)


def cell_penalty(s: Battleboard, who: Combatant, p: Pos) -> int:
    """The die an attack loses for `who` attacking from, or targeted on, obscuring or liquid
    terrain at `p`."""
    kind = terrain(s, p)
    return 1 if kind == "obscuring" or (kind == "liquid" and not liquid_ignored(who)) else 0


def snap_target(s: Battleboard, unit: Combatant) -> Pos:
    """Where a combatant ends its turn: where it stands if that is in its section and no ally
    stands there; else back at its origin (seed 002, Movement: "snaps back to their point of
    origin"), whatever its terrain; else the nearest free cell of its section. Under 1.0.0's
    rules (`snap_to_origin` off) an origin on challenging terrain was passed over."""
    assert unit.cell is not None
    if in_section(s, unit.side, unit.cell) and not _taken(s, unit, unit.cell):
        return unit.cell
    free = [p for p in section_cells(s, unit.side) if placeable(s, p) and not _taken(s, unit, p)]
    back = unit.origin or unit.cell
    if back in free or (s.rules.snap_to_origin and in_section(s, unit.side, back) and not _taken(s, unit, back)):
        return back
    return min(free, key=lambda p: (distance(p, back), p[1], p[0])) if free else back


def _taken(s: Battleboard, unit: Combatant, p: Pos) -> bool:
    return any(u.cell == p and u.id != unit.id and not u.defeated for u in s.units.values())


def to_cell(p: Pos) -> Cell:
    return Cell(col=p[0], row=p[1])
