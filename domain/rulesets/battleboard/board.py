"""The 5x6 battle board (seed 002, Battle Board and Movement): sections, terrain, the cost of
each step of a movement path, zones of control, teleport jumps, origins, range and snap-back.

Cells are stored as (col, row) and sent as [col, row]; row 0 is the heroes' edge. Adjacency
is orthogonal (`Metric.ORTHOGONAL`), and so is every distance.
"""
from __future__ import annotations

from collections.abc import Container, Iterator

from domain.engine.grid import Cell, Grid, reachable

from .content import Map, content
from .layout import Layout, grid, layout_of
from .reading import Reading, lone_mover, mover, reading, stand
from .state import HEROES, Battleboard, Combatant, Pos

STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))      # up, right, down, left


def board(s: Battleboard) -> Grid:
    return grid(s.params.width, s.params.height)


def layout(s: Battleboard) -> Layout:
    """The fixed tables of the state's map and board under the content in force."""
    return layout_of(content(), s.map, grid(s.params.width, s.params.height))


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
    return reading(s).zones(unit.side, unit.moves_as("flight")).get(p, 0)


def enemy_at(s: Battleboard, unit: Combatant, p: Pos) -> bool:
    return p in reading(s).enemy_cells(unit.side)


def step_cost(s: Battleboard, unit: Combatant, frm: Pos, to: Pos, *, through_enemies: bool = False) -> int | None:
    """Movement points to step from `frm` onto the next cell `to`, or None where it may not."""
    return mover(reading(s), unit, through_enemies).cost(frm, to)


def reach(s: Battleboard, unit: Combatant) -> dict[Pos, int]:
    """Where a walk of single steps can take the combatant on its movement points now (not on
    another combatant's cell), with the least each costs: the view's movement range."""
    if unit.cell is None:
        return {}
    r = reading(s)
    priced = mover(r, unit)

    def price(frm: Cell, to: Cell) -> int | None:
        return priced.cost((frm.col, frm.row), (to.col, to.row))

    def free(cell: Cell) -> bool:
        return (cell.col, cell.row) not in r.occupied

    found = reachable(board(s), to_cell(unit.cell), unit.mp, step=price, can_stop=free)
    return {(c.col, c.row): cost for c, cost in found.items()}


def hazard_paid(s: Battleboard, unit: Combatant, p: Pos) -> bool:
    """Hazardous terrain costs a defense token to move through."""
    return terrain(s, p) == "hazardous"


def steps(s: Battleboard, unit: Combatant) -> list[tuple[Pos, int, int]]:
    """Every next cell of the movement path it can afford now: (cell, cost, cells skipped).
    Steps first, in up-right-down-left order, then teleport jumps by direction and length."""
    if unit.cell is None:
        return []
    r = reading(s)
    key = _steps_key(r, unit)
    found = _STEPS.get(key)
    if found is None:
        if len(_STEPS) >= STEPS_KEPT:
            _STEPS.clear()
        found = _STEPS[key] = tuple(_steps(r, unit))
    return list(found)


# `steps` answers by all they read (`_steps_key`), shared by every state and combatant alike
# in it; forgotten all at once when STEPS_KEPT are kept.
STEPS_KEPT = 8192
_STEPS: dict[tuple[object, ...], tuple[tuple[Pos, int, int], ...]] = {}


def _steps_key(r: Reading, unit: Combatant) -> tuple[object, ...]:
    """All `_steps` reads: the layout, where the combatant's enemies stand (and which fly), and of
    the combatant its cell, movement points, teleport left, whether it holds a defense token (for
    hazardous terrain), its movement types and Lift."""
    return (r.layout, r.standing(unit.side, True), *_unit_key(unit))


def _unit_key(unit: Combatant) -> tuple[object, ...]:
    """What `_steps` reads of the combatant itself (see `_steps_key`)."""
    return (unit.cell, unit.mp, unit.teleport_left, unit.untapped + unit.tapped > 0, unit.movement, unit.granted,
            unit.lifted)


def step_to(s: Battleboard, unit: Combatant, to: Pos) -> tuple[int, int] | None:
    """(cost, cells skipped) of the entry of `steps` that lands on `to`, or None if none does.
    Only the one candidate is priced: a step lands next to the combatant and a jump two or more
    cells away, and no two entries land on the same cell."""
    here = unit.cell
    if here is None:
        return None
    # The key `_steps_key` gives, and on a miss the one step, read without making the state's
    # reading (a replay's state is asked for its one move)
    lay, enemies = stand(s, unit.side, True)
    listed = _STEPS.get((lay, enemies, *_unit_key(unit)))
    if listed is not None:
        for cell, price, skipped in listed:
            if cell == to:
                return price, skipped
        return None
    terrain_at = lay.terrain
    if to in lay.neighbours_of(here):
        cost = lone_mover(lay, enemies, unit, to).cost(here, to)
        if cost is None or cost > unit.mp or (terrain_at[to] == "hazardous" and not unit.tokens_left):
            return None
        return cost, 0
    if unit.teleport_left and unit.mp >= 1:
        enemies_on = {cell for _, cell, _ in enemies}
        return next(((1, skipped) for cell, skipped in _jumps(lay, enemies_on, unit)
                     if cell == to and (terrain_at[cell] != "hazardous" or unit.tokens_left)), None)
    return None


def _steps(r: Reading, unit: Combatant) -> list[tuple[Pos, int, int]]:
    here = unit.cell
    assert here is not None
    terrain_at = r.layout.terrain
    price = mover(r, unit).cost
    found = []
    for to in r.layout.neighbours_of(here):
        cost = price(here, to)
        if cost is not None and cost <= unit.mp and (terrain_at[to] != "hazardous" or unit.tokens_left):
            found.append((to, cost, 0))
    if unit.teleport_left and unit.mp >= 1:
        found += [(to, 1, skipped) for to, skipped in _jumps(r.layout, r.enemy_cells(unit.side), unit)
                  if terrain_at[to] != "hazardous" or unit.tokens_left]
    return found


def jumps(s: Battleboard, unit: Combatant) -> list[tuple[Pos, int]]:
    """Teleportation: straight jumps skipping 1..teleport_left cells, none a barrier or obscuring
    terrain; the landing may not be a barrier or an enemy's cell (other terrain is ignored)."""
    r = reading(s)
    return _jumps(r.layout, r.enemy_cells(unit.side), unit)


def _jumps(lay: Layout, enemies_on: Container[Pos | None], unit: Combatant) -> list[tuple[Pos, int]]:
    """`jumps` from the layout and the cells the combatant's enemies hold."""
    assert unit.cell is not None
    terrain_at, width, height = lay.terrain, lay.grid.width, lay.grid.height
    found = []
    for dc, dr in STEPS:
        for skipped in range(1, unit.teleport_left + 1):
            over = [(unit.cell[0] + dc * k, unit.cell[1] + dr * k) for k in range(1, skipped + 1)]
            to = (unit.cell[0] + dc * (skipped + 1), unit.cell[1] + dr * (skipped + 1))
            if not (0 <= to[0] < width and 0 <= to[1] < height) \
                    or any(terrain_at[c] in ("barrier", "obscuring") for c in over):
                break
            if terrain_at[to] != "barrier" and to not in enemies_on:
                found.append((to, skipped))
    return found


def origins(s: Battleboard, unit: Combatant) -> list[Pos]:
    """Seed 002, Patterns: an action originates on or next to the movement path. A higher cell is
    not next to a lower one (Elevated Terrain): adjacency counts from high to low only."""
    return list(layout(s).origins(_path(unit)))


def _path(unit: Combatant) -> tuple[Pos, ...]:
    return unit.path or ((unit.cell,) if unit.cell else ())


def best_origins(s: Battleboard, unit: Combatant, reach: int) -> dict[Pos, Pos] | None:
    """Under `elevated_range`, each cell an effect of `reach` from the combatant's origins
    reaches, with the origin `best_origin` picks there (`Layout.best_origins`, shared: read it,
    never change it); None under 1.0.0's rules."""
    if not s.rules.elevated_range:
        return None
    return layout(s).best_origins(_path(unit), liquid_ignored(unit), reach)


def origin_reaches(s: Battleboard, unit: Combatant) -> tuple[tuple[Pos, int, dict[Pos, int] | None], ...]:
    """Each origin of the combatant's actions (`origins`) with the dice an attack from it loses
    there (`cell_penalty`) and, under `elevated_range`, the steps from it to every cell an effect
    reaches (`span`; None: count the distance)."""
    lay, elevated = layout(s), s.rules.elevated_range
    return tuple((o, _cell_penalty(lay.terrain[o], unit), lay.spans(o) if elevated else None)
                 for o in lay.origins(_path(unit)))


def span(s: Battleboard, origin: Pos, target: Pos) -> int | None:
    """How far an effect reaches from `origin` to `target`: steps between cells next to each
    other. Under `elevated_range` a step never climbs (a lower cell is not next to a higher
    one, seed 002, Elevated Terrain), so a higher cell may be out of reach (None); under
    1.0.0's rules every step counted alike."""
    if not s.rules.elevated_range:
        return distance(origin, target)
    return layout(s).spans(origin).get(target)


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
    return _cell_penalty(terrain(s, p), who)


def _cell_penalty(kind: str, who: Combatant) -> int:
    return 1 if kind == "obscuring" or (kind == "liquid" and not liquid_ignored(who)) else 0


def snap_target(s: Battleboard, unit: Combatant) -> Pos:
    """Where a combatant ends its turn: where it stands if that is in its section and no ally
    stands there; else back at its origin (seed 002, Movement: "snaps back to their point of
    origin"), whatever its terrain; else the nearest free cell of its section. Under 1.0.0's
    rules (`snap_to_origin` off) an origin on challenging terrain was passed over."""
    here = unit.cell
    assert here is not None
    rows = section_rows(s, unit.side)
    if rows.start <= here[1] < rows.stop:
        for u in s.units.values():      # another living combatant on its cell?
            if u.cell == here and u.id != unit.id and not u.defeated:
                break
        else:
            return here
    # `placeable`, and the cells other living combatants hold, read once for the whole section
    taken = {u.cell for u in s.units.values() if u.id != unit.id and not u.defeated}
    terrain_at = layout(s).terrain
    free = [p for p in section_cells(s, unit.side) if terrain_at[p] not in ("barrier", "challenging")
            and p not in taken]
    back = unit.origin or here
    if back in free or (s.rules.snap_to_origin and in_section(s, unit.side, back) and back not in taken):
        return back
    return min(free, key=lambda p: (distance(p, back), p[1], p[0])) if free else back


def to_cell(p: Pos) -> Cell:
    return Cell(col=p[0], row=p[1])
