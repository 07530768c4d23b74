"""Skirmish state: the units on the board, each player's piles and action points, the phase.
Frozen; updated with `msgspec.structs.replace`."""
from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec.structs import replace

from domain.engine.content import Bound
from domain.engine.choices import PendingChoices
from domain.engine.grid import Cell
from domain.engine.hooks import Effect
from domain.engine.in_force import Older

SEATS = ("p1", "p2")
Pos = tuple[int, int]               # (col, row); on the wire [col, row]


class Params(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Numbers seed 001 states, and those it leaves open (README.md names the section each fills).
    Each declares the range a setup may ask for (README.md, "Param ranges")."""
    # Preparation 3: "each of the three cards in their starting hand"; at most `hand_limit` (setup)
    starting_hand: Annotated[int, Bound(0, 10)] = 3
    # Cards: "up to 7 cards"; 10 keeps the starting hand's mulligan at 2**10 choices at most
    hand_limit: Annotated[int, Bound(0, 10)] = 7
    ap_cap: Annotated[int, Bound(0, 20)] = 10                  # Action points
    # Cards: four copies of the class skill card, three of each unique card; at twice those, a
    # raid's deck of five characters holds 100 cards
    class_copies: Annotated[int, Bound(0, 8)] = 4
    unique_copies: Annotated[int, Bound(0, 6)] = 3
    duel_field: Annotated[int, Bound(1, 5)] = 3                # Preparation (Duels); a team holds 5 at most
    raid_field_min: Annotated[int, Bound(1, 5)] = 1            # Preparation (Raids): "up to five"
    raid_field_max: Annotated[int, Bound(1, 5)] = 5
    # Classes: exactly two tiles away; 8 and 16 tiles span the largest board (9x9)
    ranged_reach: Annotated[int, Bound(1, 8)] = 2
    melee_reach: Annotated[int, Bound(1, 8)] = 1
    ranged_speed: Annotated[int, Bound(0, 16)] = 3
    melee_speed: Annotated[int, Bound(0, 16)] = 5
    prowess_percent: Annotated[int, Bound(0, 1000)] = 100      # Prowess: "sharply increase" = +100% power
    amplify_per_round: Annotated[int, Bound(0, 20)] = 2        # Amplify: + this x the round number
    fortified_power: Annotated[int, Bound(0, 20)] = 1          # Fortified: "to one"
    threshold_ap: Annotated[int, Bound(0, 20)] = 5             # Threshold: "five or more remaining action points"
    intimidate_power: Annotated[int, Bound(0, 20)] = 2         # Intimidating Presence: one tier of power...
    intimidate_armor: Annotated[int, Bound(0, 100)] = 10       # ...and one tier of armor
    serene_grace_heal: Annotated[int, Bound(0, 100)] = 20      # Serene Grace: damage healed on each ally
    last_will_draw: Annotated[int, Bound(0, 10)] = 3           # Last Will: "Draw three cards"
    early_bird_ap: Annotated[int, Bound(0, 10)] = 1            # Early Bird: one point of maximum AP
    # Talents: Second Chance returns the unit with this percent of its armor as damage, rounded
    # down; every release before 1.1.0 returned it whole
    second_chance_damage: Annotated[int, Bound(0, 100), Older(0)] = 50
    # The match (who starts): the second player's maximum AP before its first turn, against the
    # first player's first strike; every release before 1.1.0 gave none
    second_player_ap: Annotated[int, Bound(0, 10), Older(0)] = 4


class Chip(msgspec.Struct, frozen=True):
    """An effect on a unit (seed 001, Effects), and the seat that gave it: a timed effect
    lasts until the start of that seat's next turn."""
    kind: str
    by: str


class Unit(msgspec.Struct, frozen=True, kw_only=True):
    key: str                        # "<seat>.<character>"
    seat: str
    character: str
    cls: str
    ranged: bool
    power: int
    armor: int
    talent: str
    fielded: bool = False
    cell: Pos | None = None         # None off the board: not placed yet, or fainted
    damage: int = 0
    chips: tuple[Chip, ...] = ()
    moved: bool = False
    attacked: bool = False
    countered: bool = False
    boss: bool = False              # a raid boss: its side must field it
    exits: int = 0                  # times it has left the match (Epilogue, the first time)
    fainted: bool = False
    returning: bool = False         # Second Chance: back at the start of its seat's next turn
    last_cell: Pos | None = None

    @property
    def on_board(self) -> bool:
        return self.cell is not None and not self.fainted

    def has(self, kind: str) -> bool:
        for chip in self.chips:     # a loop, not a generator: a unit has few effects
            if chip.kind == kind:
                return True
        return False

    def at(self) -> Cell:
        assert self.cell is not None, f"{self.key} is not on the board"
        return Cell(col=self.cell[0], row=self.cell[1])


class Player(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    units: tuple[str, ...]          # the team's unit keys, in team order
    deck: tuple[str, ...] = ()      # top first
    hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()   # top last
    ap: int = 0
    max_ap: int = 0
    storm: int = 0                  # skills with Storm used, plus Gathering Storm's raises


class Skirmish(msgspec.Struct, frozen=True, kw_only=True):
    params: Params
    mode: str                       # "duel" or "raid"
    board: str
    p1: Player
    p2: Player
    units: dict[str, Unit]
    phase: str = "select"           # select, place, mulligan, combat
    choices: PendingChoices | None = None
    placements: dict[str, Pos] = {}  # secret until every unit is placed
    turn: int = 0
    active: str | None = None
    first_player: str | None = None
    defeated: tuple[tuple[str, str], ...] = ()   # (seat, reason)

    def player(self, seat: str) -> Player:
        return self.p1 if seat == "p1" else self.p2

    def with_player(self, seat: str, player: Player) -> Skirmish:
        return replace(self, p1=player) if seat == "p1" else replace(self, p2=player)

    def with_unit(self, unit: Unit) -> Skirmish:
        units = {**self.units, unit.key: unit}
        _carry_effects(self.units, units, unit)
        return replace(self, units=units)

    def rested_units(self) -> dict[str, Unit]:
        """The units with no act spent this turn, as a turn starts. Effects read no spent flag,
        so the effects kept for the units before are these units' too."""
        units = {k: replace(u, moved=False, attacked=False, countered=False) if u.moved or u.attacked or u.countered
                 else u for k, u in self.units.items()}
        _carry_effects(self.units, units, None)
        return units

    def fielded(self, seat: str) -> list[Unit]:
        units, found = self.units, []   # a loop, not a comprehension: cheaper for a team of five
        for key in self.player(seat).units:
            u = units[key]
            if u.fielded:
                found.append(u)
        return found

    def on_board(self) -> list[Unit]:
        return [u for u in self.units.values() if u.on_board]

    def fielded_on_board(self, seat: str) -> list[Unit]:
        """The seat's fielded units on the board, in team order."""
        units, found = self.units, []   # a loop, not a comprehension: cheaper for a team of five
        for key in self.player(seat).units:
            u = units[key]
            if u.fielded and u.cell is not None and not u.fainted:
                found.append(u)
        return found

    def occupant(self, cell: Cell) -> Unit | None:
        pos = (cell.col, cell.row)
        return next((u for u in self.units.values() if u.cell == pos and not u.fainted), None)

    def round(self) -> int:
        """Both players' turns make a round: turns 1 and 2 are round 1."""
        return (self.turn + 1) // 2


def opponent(seat: str) -> str:
    return "p2" if seat == "p1" else "p1"


_last_effects: tuple[object, tuple[Effect, ...]] = (None, ())


def effects(s: Skirmish) -> tuple[Effect, ...]:
    """Hooked effects in source order: each fielded unit's talent, then the chips on it. They
    depend on the units alone, and the same units dict gives back the same tuple (which the
    hooks look up by identity); so do units that give equal effects, as they mostly do from
    one event to the next."""
    global _last_effects
    units, last = _last_effects         # one read of one pair: safe across threads
    if units is s.units:
        return last
    found = _effects(s.units)
    if found == last:
        found = last
    _last_effects = (s.units, found)
    return found


def _carry_effects(before: dict[str, Unit], after: dict[str, Unit], unit: Unit | None) -> None:
    """`after` is `before` with `unit` in place of its old record (None: with records that
    differ only in spent flags, which effects do not read). If the effects kept last are
    `before`'s and the new record gives what the old one gave (as a walk, an attack or damage
    leave it), they are `after`'s too: kept for it without reading its units again."""
    global _last_effects
    units, last = _last_effects         # one read of one pair: safe across threads
    if units is not before:
        return
    if unit is not None:
        old = before.get(unit.key)
        if old is None or old.fielded != unit.fielded or not _same_effects(old, unit):
            return
    _last_effects = (after, last)


# Each unit's effects, by its key, with the record they were worked out from: they are used
# again for a record whose every input to them (talent, fainting, chips) is equal, as most
# records from one event to the next are (a walk changes a tile, a new turn the action flags).
_OF_UNIT: dict[str, tuple[Unit, tuple[Effect, ...]]] = {}


def _effects(units: dict[str, Unit]) -> tuple[Effect, ...]:
    found: list[Effect] = []
    for unit in units.values():
        if not unit.fielded:
            continue
        known = _OF_UNIT.get(unit.key)
        if known is None or known[0] is not unit:
            # The record kept is the latest, so that the next state holding it finds it at once.
            if known is None or not _same_effects(known[0], unit):
                known = (unit, _unit_effects(unit))
            else:
                known = (unit, known[1])
            _OF_UNIT[unit.key] = known
        found += known[1]
    return tuple(found)


def _same_effects(before: Unit, unit: Unit) -> bool:
    """Whether two records of one unit give the same effects (`_unit_effects` reads no more)."""
    return before is unit or (before.key == unit.key and before.talent == unit.talent
                              and before.fainted == unit.fainted and before.chips == unit.chips)


def _unit_effects(unit: Unit) -> tuple[Effect, ...]:
    """A fielded unit's talent, then (unless it has fainted) the chips on it."""
    talent = Effect(kind=unit.talent, owner=unit.key)
    if unit.fainted:
        return (talent,)
    return (talent, *(Effect(kind=chip.kind, owner=unit.key, source=chip.by) for chip in unit.chips))


def without(pile: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = pile.index(card)
    return pile[:i] + pile[i + 1:]
