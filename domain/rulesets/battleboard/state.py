"""Battleboard state: the combatants on the 5x6 board, the sides' sections, whose turn it is
and what each combatant has done this turn. Frozen; updated with `msgspec.structs.replace`."""
from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec.structs import replace

from domain.engine.content import Bound
from domain.engine.hooks import Effect
from domain.engine.in_force import Older, with_older

HEROES, FOES = "heroes", "foes"
GM = "gm"
HERO_SEATS = ("h1", "h2", "h3", "h4")
Pos = tuple[int, int]               # (col, row); on the wire [col, row]


class Params(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Numbers seed 002 states, and those it leaves open (README.md names the section each fills,
    and the range each declares for a setup: "Param ranges")."""
    # Battle Board: 5x6, two 5x3 sections. Every map is 5x6: a board may be smaller, not larger;
    # each section keeps a row and room for its side (setup).
    width: Annotated[int, Bound(1, 5)] = 5
    height: Annotated[int, Bound(2, 6)] = 6
    section_rows: Annotated[int, Bound(1, 5)] = 3
    # Battle Board: taking a row never leaves a side without one
    min_section_rows: Annotated[int, Bound(1, 5)] = 1
    # Actions: two actions a turn, of different kinds; there are four kinds
    actions: Annotated[int, Bound(1, 4)] = 2
    half_turn_actions: Annotated[int, Bound(1, 4)] = 1     # Initiative: the first side's half turn
    double_down_energy: Annotated[int, Bound(0, 10)] = 1   # Doubling Down: one energy point
    # Focus: unspent focus is kept up to this many times the stat
    focus_bank: Annotated[int, Bound(1, 10)] = 1
    focus_movement: Annotated[int, Bound(0, 5)] = 1        # Focus: movement points one focus point converts into
    # Focus: Defense one focus point adds against one attack; the Defense needed is counted in steps of it
    focus_defense: Annotated[int, Bound(1, 10)] = 1
    auto_hit: Annotated[int, Bound(1, 20)] = 11            # Resolving Attacks: rolls of 11 or 12 always hit
    die_sides: Annotated[int, Bound(2, 20)] = 12           # a d12; a d20 at most
    # a variant, off by default: an attack with no hit has Attack Value 0. Seed 002, Resolving
    # Attacks, gives the Attack Value as hits x M + K, which is K with no hit.
    zero_hits_miss: bool = False
    confused_fail: Annotated[int, Bound(0, 20)] = 3        # Confused: a d12 at or under this loses the action
    affinity_start: Annotated[int, Bound(0, 5)] = 1        # Affinities: each starts at 1...
    affinity_points: Annotated[int, Bound(0, 20)] = 6      # ...plus 6 points (and one more a level)
    # not in the seed: a battle still running after this many rounds is a draw
    round_limit: Annotated[int, Bound(1, 100)] = 30
    # Defense: how many tokens a combatant may have untapped between the starts of its side's
    # turns, by any action (Recover, Aid, Purify, Scaled Hide); 0 sets no limit, as every release
    # before 1.3.0 played
    untaps_per_round: Annotated[int, Bound(0, 10), Older(0)] = 1
    # not in the seed: from this round on no action untaps a token, so a fight of blows that only
    # tap against as much mending wears down to an end before `round_limit`; 0: never (every
    # release before 1.3.0)
    fatigue_round: Annotated[int, Bound(0, 100), Older(0)] = 20
    # not in the seed: from `fatigue_round` on, each combatant taps this many tokens at the start
    # of its side's turn for every round of fatigue so far (1, 2, 3...), so a side that keeps out
    # of reach still wears down, the one with fewer tokens first; 0: none (every release before
    # 1.4.0)
    fatigue_toll: Annotated[int, Bound(0, 10), Older(0)] = 1


class Rules(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The rule choices a release fixes, at today's values: a setup cannot change them, a kept
    release starts its battles with its own (`domain.engine.releases`), and `Started` records
    the ones a battle plays by. Each field's `Older` is what 1.0.0, which had none, played."""
    # Focus: focus above `focus_bank` times the stat is lost as the turn starts (1.0.0 kept it)
    focus_capped: Annotated[bool, Older(False)] = True
    # Movement: snap back to the origin whatever its terrain (1.0.0 passed over an origin on
    # challenging terrain for the nearest placeable cell)
    snap_to_origin: Annotated[bool, Older(False)] = True
    # Move: the movement types a move action gives end with the side's turn (1.0.0 kept them
    # through the enemy's turn, until the combatant's next)
    granted_lapse: Annotated[bool, Older(False)] = True
    # Patterns: a line, wave or burst originates where it loses the fewest dice (1.0.0 took the
    # first origin that reached)
    area_fewest_dice: Annotated[bool, Older(False)] = True
    # Elevated Terrain: range counts steps between adjacent cells, and a lower cell is not next
    # to a higher one (1.0.0 counted every step alike)
    elevated_range: Annotated[bool, Older(False)] = True


# The rule choices that replay battleboard 1.0.0, which recorded none.
RULES_1_0_0 = msgspec.convert(with_older(Rules, {}), type=Rules)


class Combatant(msgspec.Struct, frozen=True, kw_only=True, weakref=True):
    """One combatant: its stats, defense tokens, effect tokens, resources, and this turn's record
    (movement points, the movement path, the actions taken)."""
    id: str                         # a hero's seat ("h1"), or "f1", "f2"... for foes
    side: str
    seat: str                       # the seat that controls it
    name: str
    rank: str                       # character, mob, elite or boss
    speed: int
    evasion: int
    defense: int
    resilience: int
    focus_stat: int
    energy_stat: int
    actions: tuple[str, ...]
    movement: tuple[str, ...] = ()  # innate special movement
    teleport: int = 0               # innate teleport points each turn
    build: dict[str, object] = {}   # a character's class, affinities, weapons, armor, level, upgrades
    cell: Pos | None = None
    untapped: int = 0
    tapped: int = 0
    tokens: dict[str, int] = {}     # effect tokens held: kind -> count
    focus: int = 0
    energy: int = 0
    defeated: bool = False
    # this turn
    mp: int = 0
    origin: Pos | None = None
    path: tuple[Pos, ...] = ()      # the movement path: cells it stood on this turn, origin first
    taken: tuple[str, ...] = ()     # actions taken this turn, by id
    kinds: tuple[str, ...] = ()     # their kinds
    slots: int = 0                  # regular actions this turn (2; 1 in a half turn or stunned)
    doubled: bool = False
    granted: tuple[str, ...] = ()   # movement types a move action gave for this turn
    teleport_left: int = 0
    lifted: bool = False            # may enter challenging terrain this turn
    mended: int = 0                 # tokens untapped since its side's turn began

    @property
    def tokens_left(self) -> int:
        return self.untapped + self.tapped

    @property
    def alive(self) -> bool:
        return not self.defeated

    def moves_as(self, kind: str) -> bool:
        return kind in self.movement or kind in self.granted

    def count(self, token: str) -> int:
        return self.tokens.get(token, 0)


class AttackPlan(msgspec.Struct, frozen=True, kw_only=True):
    """An action's attacks still to resolve while a defender chooses how to take one."""
    attacker: str
    action: str
    targets: tuple[str, ...]        # remaining, in order
    rerolls: int                    # focus rerolls the attacker may still use
    target: str = ""                # the attack awaiting its defender's choice
    av: int = 0
    origin: Pos = (0, 0)


class Battleboard(msgspec.Struct, frozen=True, kw_only=True, weakref=True):
    params: Params
    rules: Rules = RULES_1_0_0      # a state stored before 1.1.0 (a snapshot) has none: it played 1.0.0's
    map: str
    heroes: tuple[str, ...]         # hero seats, in order
    units: dict[str, Combatant]     # heroes first, then foes, in order
    phase: str = "order"            # order, arrange, turn, over
    winner: str | None = None       # the side that won the initiative roll
    first: str | None = None        # the side that goes first
    arranging: str | None = None
    placed: dict[str, Pos] = {}     # placements made, hidden until both sides have arranged
    active: str | None = None       # the side whose turn it is
    half: bool = False              # the first side's half turn
    round: int = 0
    turn: int = 0                   # side turns begun
    border: int = 3                 # the heroes' section is rows 0..border-1
    done: tuple[str, ...] = ()      # seats that ended this turn
    row_open: int | None = None     # a row the active side may take this turn
    plan: AttackPlan | None = None  # an attack awaiting its defender's choice
    stances: tuple[Effect, ...] = ()
    last_attack: dict[str, object] | None = None
    ended: tuple[str | None, str] | None = None     # (winning side or None, reason)

    def with_unit(self, unit: Combatant) -> Battleboard:
        return replace(self, units={**self.units, unit.id: unit})

    def living(self, side: str) -> list[Combatant]:
        return [u for u in self.units.values() if u.side == side and not u.defeated]

    def seat_units(self, seat: str) -> list[Combatant]:
        return [u for u in self.units.values() if u.seat == seat and not u.defeated]

    def seats_of(self, side: str) -> tuple[str, ...]:
        return self.heroes if side == HEROES else (GM,)

    def taking_turn(self, seat: str) -> bool:
        """Whether `seat`'s side is taking its turn and the seat has not ended it."""
        return self.active == side_of_seat(seat) and seat not in self.done

    def untaps_left(self, key: str) -> int | None:
        """How many more of its tokens combatant `key` may have untapped before its side's next
        turn begins (`Params.untaps_per_round`; none from `fatigue_round` on); None when there
        is no limit."""
        fatigue, limit = self.params.fatigue_round, self.params.untaps_per_round
        if fatigue and self.round >= fatigue:
            return 0
        return None if limit == 0 else max(0, limit - self.units[key].mended)

    def fatigue(self) -> int:
        """The tokens each combatant taps at the start of its side's turn this round:
        `fatigue_toll` for each round from `fatigue_round` on."""
        start, toll = self.params.fatigue_round, self.params.fatigue_toll
        return toll * (self.round - start + 1) if start and self.round >= start else 0

    def mendable(self, key: str) -> int:
        """How many of combatant `key`'s tapped tokens an untap may free now."""
        return mendable(self.units[key].tapped, self.untaps_left(key))


def mendable(tapped: int, untaps_left: int | None) -> int:
    """Of `tapped` tokens, how many may still be untapped (`untaps_left`; None: no limit)."""
    return tapped if untaps_left is None else min(tapped, untaps_left)


def other(side: str) -> str:
    return FOES if side == HEROES else HEROES


def side_of_seat(seat: str) -> str:
    return FOES if seat == GM else HEROES


def effects(s: Battleboard) -> tuple[Effect, ...]:
    return s.stances
