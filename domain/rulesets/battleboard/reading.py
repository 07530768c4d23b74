"""What the rules read from one state again and again, worked out once for that state: who
stands where, the cells each side's enemies hold and the zones of control they cover.

A `Reading` is kept for the latest state read (a one-state slot, by identity) and the content
in force, so it can never answer for another state: the listing and `decide` ask about one
state in a row, and a state read once (a replay's) costs nothing to forget.

`stand` reads the layout and who stands where from a state's reading if it has one, else
straight from the state: for a state asked once (a replay's command) a whole reading costs more.

`zones_of` keeps the zones of control by who stands where among the enemies
(`Reading.standing`), all they read, so every state alike in it shares them.

`remembered` keeps answers about one combatant (under 1.0.0's range rule, the enemies an
action reaches) on the combatant object itself, by identity, for as long as it lives. A
combatant record is frozen and carried unchanged from state to state until something happens
to it, so its answers outlive the state they were first asked of. The key of each answer
holds everything else it reads: the layout (content, map, board size), and who stands where
among the combatants it concerns (`Reading.standing`).
"""
from __future__ import annotations

from collections.abc import Callable, Container, Hashable, Iterable, Mapping
from typing import TypeVar

from domain.engine.memo import StateMemo

from .content import BattleboardContent, content
from .layout import Layout, grid, layout_of
from .state import Battleboard, Combatant, Pos

T = TypeVar("T")
_REMEMBERED = StateMemo()   # combatant -> its answers, by all else each reads


class Reading:
    """One state's living combatants on the board (`placed`, in roster order) and the cells
    they hold (`occupied`)."""

    __slots__ = ("layout", "placed", "occupied", "_enemy_cells", "_zones", "_standing")

    def __init__(self, s: Battleboard, lay: Layout):
        self.layout = lay
        self.placed = [u for u in s.units.values() if not u.defeated and u.cell is not None]
        self.occupied = {u.cell for u in self.placed}
        self._enemy_cells: dict[str, set[Pos | None]] = {}
        self._zones: dict[tuple[str, bool], dict[Pos, int]] = {}
        self._standing: dict[tuple[str, bool], tuple[tuple[str, Pos | None, bool], ...]] = {}

    def enemy_cells(self, side: str) -> set[Pos | None]:
        """The cells held by living combatants of another side than `side`."""
        found = self._enemy_cells.get(side)
        if found is None:
            found = self._enemy_cells[side] = {u.cell for u in self.placed if u.side != side}
        return found

    def standing(self, side: str, enemies: bool) -> tuple[tuple[str, Pos | None, bool], ...]:
        """Who stands where among `side`'s enemies (or its own side): (id, cell, flight) of each
        living combatant on the board, in roster order. Two states alike in it are alike in
        all that a combatant's steps (enemies) or an action's reach read of the others."""
        key = (side, enemies)
        found = self._standing.get(key)
        if found is None:
            found = self._standing[key] = _standing(self.placed, side, enemies)
        return found

    def zones(self, side: str, flying: bool) -> dict[Pos, int]:
        """Zones of Control: how many enemy zones cover each cell, for a combatant of `side`
        (a flyer only minds the zones of flying enemies). Shared: read it, never change it."""
        key = (side, flying)
        found = self._zones.get(key)
        if found is None:
            found = self._zones[key] = zones_of(self.standing(side, True), flying)
        return found


ZONES_KEPT = 4096           # `zones_of` answers kept before all are forgotten at once
_ZONES: dict[tuple[tuple[tuple[str, Pos | None, bool], ...], bool], dict[Pos, int]] = {}


# A combatant's zone of control: its own cell and the four next to it, as offsets from its cell.
ZONE = frozenset({(0, 0), (0, -1), (1, 0), (0, 1), (-1, 0)})


def zones_of(enemies: tuple[tuple[str, Pos | None, bool], ...], flying: bool) -> dict[Pos, int]:
    """The zones of control of `enemies` (`Reading.standing`: id, cell, flight), by cell: the
    '+' around each, its own cell included; a flyer only minds flying enemies' zones. Kept by
    its arguments, all it reads: enemies stand still through the other side's turn."""
    found = _ZONES.get((enemies, flying))
    if found is None:
        if len(_ZONES) >= ZONES_KEPT:
            _ZONES.clear()
        found = _ZONES[(enemies, flying)] = {}
        for _, cell, flies in enemies:
            if not flying or flies:
                assert cell is not None
                col, row = cell
                for dc, dr in ZONE:
                    p = (col + dc, row + dr)
                    found[p] = found.get(p, 0) + 1
    return found


def reading(s: Battleboard) -> Reading:
    """The state's reading under the content in force."""
    global _LAST
    c = content()
    found = _kept(s, c)
    if found is None:
        found = Reading(s, layout_of(c, s.map, grid(s.params.width, s.params.height)))
        _LAST = (s, c, found)
    return found


def _kept(s: Battleboard, c: BattleboardContent) -> Reading | None:
    """The reading kept for `s` under `c`, if `s` is the latest state read."""
    last = _LAST
    return last[2] if last is not None and last[0] is s and last[1] is c else None


# The latest state read, the content it was read under and its reading: one tuple, read once.
_LAST: tuple[Battleboard, BattleboardContent, Reading] | None = None


def stand(s: Battleboard, side: str, enemies: bool) -> tuple[Layout, tuple[tuple[str, Pos | None, bool], ...]]:
    """The state's layout and `Reading.standing`: from its reading if one was made (a listing
    asks again and again), else worked out without making one (a replay's state is asked once,
    for its one command)."""
    c = content()
    found = _kept(s, c)
    if found is not None:
        return found.layout, found.standing(side, enemies)
    return layout_of(c, s.map, grid(s.params.width, s.params.height)), _standing(s.units.values(), side, enemies)


def _standing(units: Iterable[Combatant], side: str, enemies: bool) -> tuple[tuple[str, Pos | None, bool], ...]:
    """`Reading.standing` of `units`: those living and on the board, in order. (Flight is read
    as `Combatant.moves_as` reads it, spelt out: this runs for every command.)"""
    return tuple([(u.id, u.cell, "flight" in u.movement or "flight" in u.granted) for u in units
                  if (u.side != side) == enemies and not u.defeated and u.cell is not None])


def remembered(unit: Combatant, key: Hashable, compute: Callable[[], T]) -> T:
    """The answer about `unit` under `key` (which names all else it reads), computed once."""
    found = _REMEMBERED.get(unit, key)
    if found is None:
        found = _REMEMBERED.put(unit, key, compute())
    return found


class Mover:
    """What pricing one combatant's steps reads, read once: its movement types (`moves_as`), the
    cells it may not enter and the zones of control it pays for (`mover` and `lone_mover` choose
    them for the rules; the bots' board, from a seat's view)."""

    __slots__ = ("terrain", "level", "blocked", "zones", "flying", "swimming", "lifted", "climb")

    def __init__(self, lay: Layout, moves_as: Callable[[str], bool], lifted: bool, blocked: Container[Pos | None],
                 zones: Mapping[Pos, int]):
        self.terrain, self.level = lay.terrain, lay.level
        self.flying = moves_as("flight")
        self.swimming = moves_as("swimming")
        self.lifted = lifted
        self.blocked = blocked
        self.zones = zones
        # the points a step up a level adds (Elevated Terrain)
        self.climb = 0 if self.flying else 1 if moves_as("climbing") else 2

    def cost(self, frm: Pos, to: Pos) -> int | None:
        """Movement points to step from `frm` onto the next cell `to`, or None where it may not."""
        kind = self.terrain[to]
        flying = self.flying
        if kind == "barrier" or (kind == "challenging" and not (flying or self.lifted)):
            return None
        if to in self.blocked:
            return None
        cost = 1
        if kind == "difficult" and not flying:
            cost += 1
        if kind == "liquid" and not (flying or self.swimming):
            cost += 1
        if self.level[to] > self.level[frm]:
            cost += self.climb
        return cost + self.zones.get(to, 0)


def mover(r: Reading, unit: Combatant, through_enemies: bool = False) -> Mover:
    """The combatant's steps priced on the state's reading: its enemies' cells are barred
    (unless it moves through them), and it pays their zones of control (none with Bull Rush;
    only flying enemies' for a flyer)."""
    zones = {} if unit.moves_as("bull_rush") else r.zones(unit.side, unit.moves_as("flight"))
    return Mover(r.layout, unit.moves_as, unit.lifted, set() if through_enemies else r.enemy_cells(unit.side), zones)


def lone_mover(lay: Layout, enemies: tuple[tuple[str, Pos | None, bool], ...], unit: Combatant, to: Pos) -> Mover:
    """`mover` for steps onto `to` alone, from who stands where among the enemies
    (`Reading.standing`): a replay's state is asked for one step, where a reading, or every
    cell's zones of control, costs more than the step. The zones covering `to` are those of the
    enemies (the flying ones, for a flyer) on `to` or next to it, as `zones_of` counts them."""
    covering = 0
    if not unit.moves_as("bull_rush"):
        col, row = to
        flying = unit.moves_as("flight")
        for _, cell, flies in enemies:
            if cell is not None and (flies or not flying) and (col - cell[0], row - cell[1]) in ZONE:
                covering += 1
    return Mover(lay, unit.moves_as, unit.lifted, {cell for _, cell, _ in enemies}, {to: covering})
