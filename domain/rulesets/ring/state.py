"""Ring state: two sides (leader, deck, team, Ring unit, hidden inventory), every deck unit
as a `Fighter`, and the Dynamics in play. Frozen; reducers replace what changes."""
from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec.structs import replace

from domain.engine.content import Bound
from domain.engine.choices import PendingChoices

from .formulas import exhausted

SEATS = ("p1", "p2")
COMBAT = ("atk", "def", "skl", "pry")
REMOVABLE_SOURCES = ("ability", "item")     # seed 000, Targeting Dynamics: the rest stay in play


class Params(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    """Numbers seed 000 leaves open; README.md says where each comes from, and the range each
    declares for a setup ("Param ranges")."""
    # Deck Construction: 10 of the content's 20 units. At 15 the team pick lists at most
    # C(15, 7) = 6,435 teams.
    deck_units: Annotated[int, Bound(1, 15)] = 10
    team_size: Annotated[int, Bound(1, 8)] = 4                 # Forming Your Team; at most the deck (setup)
    gp_growth_bp: Annotated[int, Bound(0, 10_000)] = 1000      # one GP grows an attribute by 10% of its base
    gp_slot_cost: Annotated[int, Bound(0, 100)] = 3            # GP per extra Ability Slot
    gp_level_cost: Annotated[int, Bound(0, 100)] = 6           # GP per Pool Level ("at a great cost")
    max_extra_slots: Annotated[int, Bound(0, 10)] = 3          # per pool
    # each side rolls 1..die, plus its leader's initiative
    initiative_die: Annotated[int, Bound(2, 100)] = 20
    bench_damage_bp: Annotated[int, Bound(0, 10_000)] = 5000   # off-Ring targets take half ("reduced impact")
    max_turns: Annotated[int, Bound(2, 1000)] = 120            # then the time limit decides (README)
    # How the time limit picks a winner: the smaller share of its leader's HP lost
    # ("share_lost"), or more leader HP left ("hp_left", ring 1.0.0).
    time_tiebreak: Literal["share_lost", "hp_left"] = "share_lost"
    # When a KO'd enemy Ring unit opens its leader to `strike_leader`: for the rest of the turn
    # in which the striking side knocked it out ("turn", seed 000's Battle section), or while
    # it stays down, on any turn ("down", the introduction's "whenever"; ring 1.0.0).
    strike_window: Literal["turn", "down"] = "turn"
    # What `HpRestored.amount` records: the HP a heal actually restored ("restored"), or the
    # amount asked for, uncapped ("asked", ring 1.0.0).
    heal_records: Literal["restored", "asked"] = "restored"
    linear_variation: bool = False  # seed 000, Limitations of the Alpha: off in the alpha
    linear_spread_bp: Annotated[int, Bound(0, 5000)] = 1000    # +-10% per attribute when linear variation is on
    exs_battle_bp: Annotated[int, Bound(0, 10_000)] = 1500     # seed 000, EXS: +15% per battle taken part in
    exs_rest_bp: Annotated[int, Bound(0, 10_000)] = 1000       # -10% per battle sat out
    winner_lp: Annotated[int, Bound(0, 10)] = 1                # seed 000, LP: +1 after a victorious battle


class PoolSlot(msgspec.Struct, frozen=True, gc=False):
    pool: str
    level: int
    extra: int = 0                  # slots bought with GP or given by equipment

    @property
    def slots(self) -> int:
        return (2 if self.level >= 3 else 1) + self.extra     # seed 000, Ability Slots


def pool_gained(pools: tuple[PoolSlot, ...], pool: str, level: int) -> tuple[PoolSlot, ...]:
    """`pools` with `pool` at `level` at least (added last if missing)."""
    if all(p.pool != pool for p in pools):
        return pools + (PoolSlot(pool, level),)
    return tuple(replace(p, level=max(p.level, level)) if p.pool == pool else p for p in pools)


def pool_replaced(pools: tuple[PoolSlot, ...], pool: str, into: str) -> tuple[PoolSlot, ...]:
    """`pools` with `pool` become `into` in its place; one already there keeps its place,
    at the higher of the two levels."""
    if all(p.pool != pool for p in pools):
        return pools
    merged: list[PoolSlot] = []
    for p in (replace(p, pool=into) if p.pool == pool else p for p in pools):
        kept = next((i for i, q in enumerate(merged) if q.pool == p.pool), None)
        if kept is None:
            merged.append(p)
        else:
            merged[kept] = replace(merged[kept], level=max(merged[kept].level, p.level))
    return tuple(merged)


def pool_lost(pools: tuple[PoolSlot, ...], pool: str) -> tuple[PoolSlot, ...]:
    return tuple(p for p in pools if p.pool != pool)


class Fighter(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    key: str                        # "p1.emberfox": seat and unit id
    seat: str
    unit: str
    hp: int
    max_hp: int
    mp: int
    max_mp: int
    lp: int
    max_lp: int
    exs: int = 0                    # basis points
    base: dict[str, int]            # atk, def, skl, pry after equipment, growth and boosts
    aug: dict[str, int] = {}        # in-battle augments
    tags: tuple[str, ...] = ()
    pools: tuple[PoolSlot, ...] = ()
    priorities: tuple[str, ...] = ()
    equipment: str | None = None
    ko: bool = False
    removed: bool = False
    hits: int = 0                   # hits taken this battle
    uses: dict[str, int] = {}       # ability -> uses this battle

    def stat(self, attr: str) -> int:
        """The attribute in effect: base plus augments, less exhaustion; never below 1."""
        value = self.base[attr] + self.aug.get(attr, 0)
        if not self.exs:            # nothing to take away: the common case, asked for every hit
            return value if value > 1 else 1
        return max(1, exhausted(max(0, value), self.exs))

    @property
    def down(self) -> bool:
        return self.ko or self.removed


class Side(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    leader: str
    leader_hp: int
    leader_max_hp: int
    max_ap: int
    ap: int = 0
    deck: tuple[str, ...]           # unit keys of the deck, in deck order
    team: tuple[str, ...] = ()
    ring: str | None = None
    items: tuple[str, ...] = ()     # the inventory: secret to its seat


class Dyn(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A Dynamic in play (seed 000, UD and Targeting Dynamics)."""
    id: str
    kind: str
    source: str                     # unit, leader, equipment, battlefield, ability, item
    seat: str | None = None         # the team it sits with; None: the battlefield (both)
    unit: str | None = None         # its carrier
    target: str | None = None       # the Dynamic it acts on (Dynamic-on-Dynamic)
    severity: int
    by: str | None = None           # the seat that put it into play

    @property
    def removable(self) -> bool:
        return self.source in REMOVABLE_SOURCES


class DisabledEquipment(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A unit's equipment out of action in battle (seed 000, Choosing Equipment): the
    Dynamics it brought are out of effect and the unit's pools are its own until it comes
    back."""
    unit: str
    equipment: str
    turns: int                      # of its team's turns left, counting the one under way
    worn: tuple[PoolSlot, ...]      # the unit's pools with the equipment: they come back with it


# Weak references let `domain.engine.memo` keep answers per state object (targets.py keeps
# only its last state's, by a strong reference, so it needs none).
class Ring(msgspec.Struct, frozen=True, kw_only=True, weakref=True):
    params: Params
    p1: Side
    p2: Side
    units: dict[str, Fighter]
    phase: str = "initiative"       # initiative, battlefield, team, ring, battle
    dynamics: tuple[Dyn, ...] = ()
    next_dynamic: int = 1
    # KO'd or removed unit keys, kept by evolve with the units' flags (a new set whenever one
    # changes): the rules ask it rather than each unit's `down`
    down: frozenset[str] = frozenset()
    battlefield: str | None = None
    initiative: str | None = None   # the initiative winner
    advantage: str | None = None
    choices: PendingChoices | None = None
    pick_sequential: bool = False   # the preview advantage: one side picks, then the other
    turn: int = 0
    active: str | None = None
    swap_required: bool = False
    time_limit: tuple[str, str] | None = None    # (winner, reason) once time is up
    strike_open: str | None = None  # the side that KO'd the enemy Ring unit on this turn
    disabled: tuple[DisabledEquipment, ...] = ()    # equipment out of action, in order

    def side(self, seat: str) -> Side:
        return self.p1 if seat == "p1" else self.p2

    def with_side(self, seat: str, side: Side) -> "Ring":
        return replace(self, p1=side) if seat == "p1" else replace(self, p2=side)

    def initiative_winner(self) -> str:
        """The seat that won the initiative roll, known from the battlefield phase on."""
        if self.initiative is None:
            raise RuntimeError("the initiative has not been rolled yet")
        return self.initiative

    def ring_unit(self, seat: str) -> Fighter | None:
        key = (self.p1 if seat == "p1" else self.p2).ring        # `side`, inlined: asked every action
        return self.units[key] if key is not None else None

    def dynamic(self, dyn_id: str) -> Dyn | None:
        for dyn in self.dynamics:
            if dyn.id == dyn_id:
                return dyn
        return None

    def disabled_equipment(self, unit: str) -> DisabledEquipment | None:
        for off in self.disabled:
            if off.unit == unit:
                return off
        return None

    def over(self) -> bool:
        return self.p1.leader_hp <= 0 or self.p2.leader_hp <= 0 or self.time_limit is not None


def opponent(seat: str) -> str:
    return "p2" if seat == "p1" else "p1"


def seat_of(key: str) -> str:
    return key.split(".", 1)[0]
