"""Seed 003, Stats: stat levels and their factors, the stats in effect (levels, then ailment
and equipment modifiers), the priority queue and the damage formula. Integers only; a
stat of +infinity or -infinity is a sentinel, never a float."""
from __future__ import annotations

from fractions import Fraction
from operator import attrgetter
from typing import Any

from domain.engine.hooks import modify

from .content import content
from .hooks import HOOKS, Row, StatQuery, in_play
from .state import INF, Entity, Rat, Status

POS_INF = 10 ** 12              # a stat treated as +infinity
NEG_INF = -(10 ** 12)           # ... as -infinity (sorts after any finite SPD)

# Seed 003's table: -3: 1 - 3/4, -2: 1 - 1/2, -1: 1 - 1/4, 0: 1, +1: 1.25, +2: 1.5, +3: 2.
FACTORS = {-3: Fraction(1, 4), -2: Fraction(1, 2), -1: Fraction(3, 4), 0: Fraction(1),
           1: Fraction(5, 4), 2: Fraction(3, 2), 3: Fraction(2)}
_QUARTERS = {level: int(factor * 4) for level, factor in FACTORS.items()}     # the same, in quarters
_BASE = {"atk": attrgetter("atk"), "def": attrgetter("defense"), "spd": attrgetter("spd")}   # a stat's battle value


def clamp_level(level: int, cap: int = INF) -> int:
    """`level` within the battle's reach: -`cap` .. +`cap` (`Params.level_cap`; INF is infinity)."""
    return max(-cap, min(cap, level))


def leveled(value: int, level: int) -> int:
    """A stat at a level, floored: +infinity is absolute, -infinity a factor of 0."""
    if level >= INF:
        return POS_INF
    if level <= -INF:
        return 0
    return value * _QUARTERS[level] // 4


def stat(s: Rat, e: Entity, name: str, hooks: list[Row] | None = None) -> int:
    """The stat in effect: base, then its level, then the percentages of ailments (floored
    once). SPD at -infinity (FROZEN, BALL_AND_CHAIN) beats every raise; a level of +infinity
    beats every percentage; ATK at 0% (BLINDED) is 0. A level of -infinity is the seed's
    factor 0 for every stat, SPD too, unless the battle's rules predate that (before 1.2.0,
    SPD there was -infinity). README: how infinities meet. `hooks`: the stat hooks in play
    (`in_play(StatQuery, s.effects)`), if looked up already."""
    if hooks is None:
        hooks = in_play(StatQuery, s.effects)
    level = e.levels.get(name, 0)
    if level <= -INF and name == "spd" and s.rules.spd_at_minus_infinity == "minus_infinity":
        return NEG_INF
    # Every stat hook changes its owner's stats only: with none of `e`'s in play, none runs.
    if not hooks or not _owns_one(hooks, e.id):
        value = leveled(_BASE[name](e), level) if level else _BASE[name](e)
        return POS_INF if value >= POS_INF else value
    query, _ = modify(HOOKS, s.effects, s, StatQuery(entity=e.id, stat=name))
    if query.floor:
        return NEG_INF
    if query.pct == 0:          # BLINDED: "ATK is treated as 0 at all times", even at +infinity
        return 0
    value = leveled(_BASE[name](e), level)
    return POS_INF if value >= POS_INF else value * query.pct // 100


def _owns_one(hooks: list[Row], owner: str) -> bool:
    """Whether the effect of one of `hooks` is `owner`'s (a loop: asked for every stat read)."""
    for row in hooks:
        if row[0].owner == owner:
            return True
    return False


OrderKey = tuple[int, int, str]
# An entity's queue key, with the entity object and the effects tuple it was worked out for.
OrderKeys = dict[str, tuple[Entity, tuple[Status, ...], OrderKey]]

# The keys worked out last, by entity, for the rules and content in force then: the queue sorts
# the entities at a turn's start, and most are the same objects when the turn's first action is
# sought. Strong references: no other object can take the address of one kept here.
_KEYED: list[Any] = [None, None, {}]


def kept_keys(s: Rat) -> OrderKeys:
    """The keys worked out last (see `order_key`), kept for `s`'s rules and content in force."""
    known = content()
    if _KEYED[0] is not s.rules or _KEYED[1] is not known:
        _KEYED[0], _KEYED[1], _KEYED[2] = s.rules, known, {}
    found: OrderKeys = _KEYED[2]
    return found


def order_key(s: Rat, e: Entity, hooks: list[Row]) -> OrderKey:
    """`e`'s place in the queue, given the stat hooks in play: a function of `e`, those hooks
    and the battle's rules, since a stat hook reads only its owner's entity."""
    if e.levels.get("spd", 0) or (hooks and _owns_one(hooks, e.id)):
        return -(e.priority + e.boost), -stat(s, e, "spd", hooks), e.name
    return -(e.priority + e.boost), -(POS_INF if e.spd >= POS_INF else e.spd), e.name    # `stat` at level 0, no hook


def queue(s: Rat, ids: list[str] | None = None) -> tuple[str, ...]:
    pool = [s.entities[i] for i in ids] if ids is not None else [e for e in s.entities.values() if not e.dead]
    effects, kept, hooks = s.effects, kept_keys(s), None
    keys = []
    for e in pool:
        found = kept.get(e.id)
        if found is None or found[0] is not e or found[1] is not effects:
            if hooks is None:
                hooks = in_play(StatQuery, effects)
            found = kept[e.id] = (e, effects, order_key(s, e, hooks))
        keys.append(found[2])
    # Seed 003: higher priority first, then higher SPD, then the smaller name; equal keys keep
    # the pool's order (a stable sort by the keys, read back without a call in Python).
    return tuple([pool[i].id for i in sorted(range(len(pool)), key=keys.__getitem__)])


def damage(power: int, atk: int, defense: int, roll_pct: int, scale: int) -> int:
    """power% x ATK x scale / (scale + DEF) x roll%, floored once. ATK 0 deals nothing; DEF
    +infinity blocks everything; ATK +infinity (against finite DEF) is lethal (POS_INF)."""
    if power <= 0 or atk <= 0 or defense >= POS_INF:
        return 0
    if atk >= POS_INF:
        return POS_INF
    # The exact quotient of non-negative integers, floored: no Fraction needed.
    return max(1, power * atk * scale * roll_pct // (100 * (scale + max(0, defense)) * 100))


def fraction_pct(e: Entity) -> int:
    """ANALYZE's bar: HP as a whole percent of max HP, floored (an entity above 0 shows 1+)."""
    if e.hp <= 0:
        return 0
    return max(1, e.hp * 100 // e.max_hp)
