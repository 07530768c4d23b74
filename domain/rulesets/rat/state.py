"""Rat state: every entity of both sides, the status effects in play, the hidden plans of
the turn being chosen, and the public history the memory AI reads. Frozen; reducers
replace what changes."""
from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.engine.content import Bound
from domain.engine.hooks import Effect
from domain.engine.in_force import Older, with_older

PARTY, ENEMIES = "party", "enemies"
INF = 4                         # a stat level of +4 is +infinity, -4 is -infinity (seed 003, Stats)

# The state records are not tracked by the cyclic garbage collector (`gc=False`, as events are
# not): every event makes a new state and entity, a battle keeps many alive, and frozen records
# of dicts, tuples and strings can hold no reference cycle. Nothing takes a weak reference to a
# state (`answers` keeps the states it knows strongly), which `gc=False` would not allow.


class Params(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    """Numbers seed 003 leaves open; README.md says where each comes from, and the range each
    declares for a setup ("Param ranges")."""
    max_party: Annotated[int, Bound(1, 6)] = 4             # members a battle takes
    max_moves: Annotated[int, Bound(1, 8)] = 4             # moves a member brings (besides its intrinsic moves)
    ev_points: Annotated[int, Bound(0, 100)] = 10          # +10 to a stat per EV point (seed 003, Stats)
    ev_max: Annotated[int, Bound(0, 30)] = 15              # 0..15 EV per stat
    stack_size: Annotated[int, Bound(1, 20)] = 5           # consumables of one kind per slot
    defense_scale: Annotated[int, Bound(1, 1000)] = 100    # damage = power% x ATK x scale / (scale + DEF)
    roll_min_pct: Annotated[int, Bound(1, 100)] = 85       # each hit rolls 85..100% of that (hidden for enemies)
    wish_delay: Annotated[int, Bound(0, 10)] = 1           # WISH heals at the start of the turn after its use
    soda_turns: Annotated[int, Bound(0, 200)] = 5          # NOVELTY_SODA_HAT: the first 5 turns
    max_turns: Annotated[int, Bound(1, 200)] = 60          # then the battle is drawn
    # random AI: tickets of an intrinsic move (no PP to count)
    intrinsic_weight: Annotated[int, Bound(0, 10)] = 1
    save_between_battles: bool = True   # a set saves between battles: durability -1, PP restored
    # The furthest a stat level may step, either way: 3 stops at +3 and -3; 4 (INF) lets a fourth
    # step reach +infinity or -infinity (seed 003, Stats). Every release before 1.3.0 played by 4.
    level_cap: Annotated[int, Bound(3, INF), Older(INF)] = 3
    # The planning AIs (no_memory, memory) draw, from the battle's RNG, among the options worth at
    # least (100 - ai_margin_pct) % of their best, so a player cannot read a move in advance; 0
    # always takes the best, as every release before 1.4.0 did.
    ai_margin_pct: Annotated[int, Bound(0, 100), Older(0)] = 25


class Rules(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    """The rule choices a release fixes, at today's values: a setup cannot change them, an
    earlier release starts its battles with its own (`releases.py`), and `RatStarted` records
    the ones a battle plays by."""
    # What counts as an enemy's HP change where the other side sees the result: "made" (1.1.0),
    # every heal or hit, whatever HP it moved, since the party cannot see an enemy's HP;
    # "moved" (1.0.0), only a change that moved HP, which told the party when an enemy was full.
    enemy_hp_changes: Literal["made", "moved"] = "made"
    # SPD at the level -infinity: "zero" (1.2.0), the seed's factor 0 like ATK and DEF; "minus_infinity"
    # (before), SPD treated as -infinity, as FROZEN and BALL_AND_CHAIN treat it.
    spd_at_minus_infinity: Annotated[Literal["zero", "minus_infinity"], Older("minus_infinity")] = "zero"
    # Whether a status removed earlier in the same batch still reacts (a BLEEDING a heal cured
    # still bleeding at the turn's end): no since 1.2.0; yes before, which their logs record.
    removed_statuses_react: Annotated[bool, Older(True)] = False
    # The planning AIs (no_memory, memory): 2 (1.3.0) values the damage of the whole group's
    # plans together and guesses a member's DEF from its kind (`ai/joint.py`); 1 (before)
    # scores each option alone against a guessed DEF of 30 (`ai/planner.py`).
    ai_version: Annotated[int, Older(1)] = 2


# The rule choices that replay rat 1.0.0, which had none of them.
RULES_1_0_0 = msgspec.convert(with_older(Rules, {"enemy_hp_changes": "moved"}), type=Rules)


class Status(Effect, frozen=True, kw_only=True):
    """An effect on an entity (engine `Effect`): an ailment (`source="ailment"`), a passive of
    worn equipment (`"equipment"`), ANALYZE's mark, a pending WISH or this turn's PROTECT.
    `turns` is the elapsed counter; `gained` the turn it was gained; `severity` a WISH's heal."""
    gained: int = 0


class Stack(msgspec.Struct, frozen=True, gc=False):
    count: int
    durability: int


class Entity(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: str                         # "mc", "e1": unique in the battle
    name: str                       # the cleartext name that breaks speed ties
    side: str                       # PARTY or ENEMIES
    kind: str                       # member or enemy content id
    hp: int
    max_hp: int
    atk: int                        # battle stats: base + EVs + equipment (seed 003, Stats)
    defense: int
    spd: int
    priority: int = 0
    boost: int = 0                  # priority gained this turn
    levels: dict[str, int] = {}     # atk, def, spd: -4..4, +-4 meaning +-infinity
    moves: dict[str, int] = {}      # move -> PP left (in moveset order)
    max_pp: dict[str, int] = {}
    intrinsic: tuple[str, ...] = ()
    used: tuple[str, ...] = ()      # moves used at least once (their PP is public)
    items: dict[str, Stack] = {}    # consumables carried
    equipment: tuple[str, ...] = ()
    ai: str = ""                    # enemies: random, no_memory or memory
    ko: bool = False
    ko_turn: int = 0                # the turn it was knocked out (invulnerable through it)
    dead: bool = False
    protected_turn: int = -1        # the last turn a PROTECT on it succeeded
    strikes: int = 0                # STRIKE selections this battle (MOUSE_SIZED_CHEESE)
    saved: bool = False             # GUARDIAN_LOCKET has been spent

    def level(self, stat: str) -> int:
        return self.levels.get(stat, 0)

    @property
    def alive(self) -> bool:
        return not self.dead

    @property
    def standing(self) -> bool:
        """Alive and not knocked out: it can act, and its passives work."""
        return not self.dead and not self.ko


class Plan(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One entity's chosen action for the turn."""
    actor: str
    action: str
    target: str | None = None
    move: str | None = None         # STUTTER_POTION's move


class TurnLog(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """What every side saw of a finished turn: the actions taken, and each party member's HP
    at its end (the memory AI's "state of the battle that turn")."""
    turn: int
    actions: tuple[Plan, ...]
    party_hp: dict[str, int]


class Rat(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    params: Params
    rules: Rules = RULES_1_0_0      # a state stored before 1.1.0 (a snapshot) has none: it played 1.0.0's
    formation: str
    entities: dict[str, Entity]
    seats: dict[str, str | None]    # side -> its seat (None: the rules' AI plays the enemies)
    turn: int = 0
    order: tuple[str, ...] = ()     # this turn's priority queue, as sorted at its start
    acted: tuple[str, ...] = ()     # entities that have resolved their action this turn
    effects: tuple[Status, ...] = ()
    plans: dict[str, Plan] = {}     # this turn's choices so far: secret to the choosing seat
    resolving: bool = False
    history: tuple[TurnLog, ...] = ()
    this_turn: tuple[Plan, ...] = ()    # the actions revealed this turn
    killed: tuple[str, ...] = ()    # enemies killed, in order
    result: tuple[str | None, str] | None = None    # (winning side, reason) once over

    def side(self, side: str) -> list[Entity]:
        return [e for e in self.entities.values() if e.side == side]

    def seat_side(self, seat: str) -> str | None:
        for side, owner in self.seats.items():
            if owner == seat:
                return side
        return None

    def statuses(self, owner: str) -> list[Status]:
        return [s for s in self.effects if s.owner == owner]

    def affected(self, owner: str) -> bool:
        """Whether any effect is on `owner` (`statuses(owner)` is not empty)."""
        for s in self.effects:
            if s.owner == owner:
                return True
        return False

    def has(self, owner: str, kind: str) -> bool:
        for s in self.effects:      # a loop, not any(): asked several times for every action
            if s.owner == owner and s.kind == kind:
                return True
        return False


def foe(side: str) -> str:
    return ENEMIES if side == PARTY else PARTY


def effects(state: Rat) -> tuple[Status, ...]:
    return state.effects
