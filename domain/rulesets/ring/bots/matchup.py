"""Counter-picking (seed 000, Forming Your Team: Counter-Picking): how one unit fares against
one enemy unit in the Ring, read from what the view shows of both (stats, TAGs, Ability
Slots, equipment) and the public content.

A unit's `pressure` on another is the expected HP damage per AP of its best attack on it:
SKL against PRY weighs the three effectiveness levels, ATK against DEF and penetration
scale the damage (`formulas.py`), an Ability that needs a TAG the target lacks does nothing,
and the Unit and Equipment Dynamics of both sides change it (Brutality and Shadow raise it,
Fortify and a ward against the Ability's TAG lower it; Counter Stance and Retaliation hit
the attacker back). A `duel` weighs both pressures against both units' HP: the share of
the exchange the first unit wins, 0.5 for an even one.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from ..content import Ability, Content, Grant, content
from ..formulas import BASIS, chances, damage

ENEMY_TARGETS = ("enemy_ring", "enemy_unit", "enemy_team")
OPEN = 1 << 30              # no MP cost is blocked


class Fighter(NamedTuple):
    """What a duel reads of a unit's view. Hashable, so pressures are cached across views
    and battles: the same deck units meet again and again."""
    unit: str
    atk: int
    defense: int
    skl: int
    pry: int
    max_mp: int
    tags: tuple[str, ...]
    abilities: tuple[str, ...]
    equipment: str | None


class Pressure(NamedTuple):
    dealt: float            # expected HP per AP to the defender
    returned: float         # expected HP per AP the defender's reactions deal the attacker


def fighter(u: Mapping[str, Any]) -> Fighter:
    stats = u["stats"]
    return Fighter(u["unit"], stats["atk"], stats["def"], stats["skl"], stats["pry"], u["max_mp"],
                   tuple(u["tags"]), tuple(u["abilities"]), u["equipment"])


def mp_cap(view: Mapping[str, Any]) -> int:
    """The lowest MP cost a Mana Lock in play (or coming with the battlefield) blocks."""
    book = content()
    grants = [(d["kind"], d["severity"]) for d in view["dynamics"] if d["active"]]
    if not view["dynamics"] and view["battlefield"] is not None:
        grants = [(g.kind, g.severity) for g in book.battlefields[view["battlefield"]].dynamics]
    caps = [magnitude(book, kind, severity) for kind, severity in grants if kind == "mana_lock"]
    return min(caps, default=OPEN)


def duel(mine: Fighter, my_hp: int, theirs: Fighter, their_hp: int, cap: int = OPEN) -> float:
    """The share of a Ring exchange `mine` wins: its time to fall over both times to fall."""
    if my_hp <= 0:
        return 0.0
    if their_hp <= 0:
        return 1.0
    book = content()
    out, back = pressure(mine, theirs, cap, book), pressure(theirs, mine, cap, book)
    my_loss, their_loss = back.dealt + out.returned, out.dealt + back.returned
    if my_loss + their_loss == 0:
        return 0.5
    return my_hp * their_loss / (my_hp * their_loss + their_hp * my_loss)


def matchup(mine: Fighter, my_hp: int, foes: Iterable[tuple[Fighter, int, float]], cap: int = OPEN) -> float:
    """The weighted mean duel against `foes` (fighter, HP, weight)."""
    total = weights = 0.0
    for foe, hp, weight in foes:
        total += weight * duel(mine, my_hp, foe, hp, cap)
        weights += weight
    return total / weights if weights else 0.5


@lru_cache(maxsize=8192)
def pressure(attacker: Fighter, defender: Fighter, cap: int, book: Content) -> Pressure:
    """The best attack `attacker` has on `defender` in the Ring, per AP."""
    bonus = sum(magnitude(book, g.kind, g.severity) for g in grants(book, attacker) if g.kind in ("brutality", "shadow"))
    guards = grants(book, defender)
    best = Pressure(0.0, 0.0)
    for ability_id in attacker.abilities:
        ability = book.abilities[ability_id]
        if ability.target not in ENEMY_TARGETS or ability.mp > attacker.max_mp or ability.mp >= cap \
                or (ability.needs_tag is not None and ability.needs_tag not in defender.tags):
            continue
        hit, hits = expected_hit(attacker, defender, ability)
        if hit <= 0:
            continue
        hit *= (BASIS + bonus - sum(ward(book, g, ability) for g in guards)) / BASIS
        per_ap = 1 / max(1, ability.ap)
        if hit * per_ap > best.dealt:
            best = Pressure(hit * per_ap, sum(reaction(book, g, hit / hits) for g in guards) * hits * per_ap)
    return best


def expected_hit(attacker: Fighter, defender: Fighter, ability: Ability) -> tuple[float, int]:
    """The HP one use takes, weighed by effectiveness odds, and how many hits it lands."""
    if ability.effectiveness == "sure":
        odds = (0, BASIS, 0)
    else:
        found = chances(attacker.skl, [defender.pry])
        odds = (found.glancing, found.normal, found.critical)
    total, hits = 0, 0                          # in HP x basis points: exact until the one division
    for step in ability.steps:
        if step.to != "target" or step.do not in ("damage", "true_damage"):
            continue
        hits += step.hits
        for tier, weight in enumerate(odds):
            power = step.power[tier]
            dealt = power if step.do == "true_damage" else damage(power, attacker.atk, defender.defense, step.penetration)
            total += weight * dealt * step.hits
    return total / BASIS, max(1, hits)


def ward(book: Content, grant: Grant, ability: Ability) -> int:
    """Basis points a defender's Dynamic takes off the attack."""
    tag = book.dynamics[grant.kind].tag
    if grant.kind == "fortify" or (grant.kind == "fire_ward" and tag in ability.tags):
        return magnitude(book, grant.kind, grant.severity)
    return 0


def reaction(book: Content, grant: Grant, hit: float) -> float:
    """HP a defender's Dynamic deals back per hit: Counter Stance every `threshold` hits,
    Retaliation on a hit of `threshold` HP or more (counted for its carrier only)."""
    spec = book.dynamics[grant.kind]
    if grant.kind == "counter_stance":
        return magnitude(book, grant.kind, grant.severity) / max(1, spec.threshold)
    if grant.kind == "retaliation" and hit >= spec.threshold:
        return magnitude(book, grant.kind, grant.severity)
    return 0.0


def grants(book: Content, f: Fighter) -> tuple[Grant, ...]:
    """The Unit and Equipment Dynamics a unit brings (seed 000, UD)."""
    own = book.units[f.unit].dynamics if f.unit in book.units else ()
    worn = book.equipment[f.equipment].dynamics if f.equipment in book.equipment else ()
    return (*own, *worn)


def magnitude(book: Content, kind: str, severity: int) -> int:
    spec = book.dynamics[kind]
    return spec.value + spec.scale * severity
