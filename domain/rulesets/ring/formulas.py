"""Ring's number rules: effectiveness chances, the effectiveness roll, damage, exhaustion.

Every formula is exact (in `fractions.Fraction`, or in integers over a common denominator)
and stores integers. The one rounding rule: a result is rounded down (floor) once, at the
end; a chance is in basis points (1/10,000) and the Normal chance takes whatever Glancing
and Critical leave, so the three always sum to exactly 10,000.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

import msgspec

from domain.engine.rng import Rng

BASIS = 10_000
GLANCING, NORMAL, CRITICAL = "glancing", "normal", "critical"
BASE_EDGE = Fraction(15, 100)       # seed 000, SKL and PRY: 15% Glancing and Critical at 1:1
SLOPE = Fraction(70, 100)           # each whole ratio point over 1 moves 70% (seed 000)
CAP = Fraction(85, 100)             # "Max 85%"


class Chances(msgspec.Struct, frozen=True, gc=False):
    """Effectiveness chances in basis points (a struct: one is made for every roll, and a
    struct is built without a Python call, unlike a named tuple)."""
    glancing: int
    normal: int
    critical: int

    def roll(self, rng: Rng) -> str:
        draw = rng.int(0, BASIS - 1)
        if draw < self.glancing:
            return GLANCING
        return NORMAL if draw < self.glancing + self.normal else CRITICAL


def chances(skl: int, pry: Sequence[int]) -> Chances:
    """The seed's default effectiveness: SKL of the user against the PRY of its targets
    (their average when there are several). Skill over parry raises Critical, parry over
    skill raises Glancing, each capped at 85%; Normal takes the rest."""
    if skl <= 0 or not pry or min(pry) <= 0:
        raise ValueError("SKL and every PRY must be positive")
    return _chances(skl, sum(pry), len(pry))


@lru_cache(maxsize=16384)
def _chances(skl: int, pry_sum: int, targets: int) -> Chances:
    parry = Fraction(pry_sum, targets)
    glance = crit = BASE_EDGE
    if skl > parry:
        crit = min(CAP, BASE_EDGE + (Fraction(skl) / parry - 1) * SLOPE)
    elif parry > skl:
        glance = min(CAP, BASE_EDGE + (parry / skl - 1) * SLOPE)
    glancing, critical = math.floor(glance * BASIS), math.floor(crit * BASIS)
    return Chances(glancing, BASIS - glancing - critical, critical)


@lru_cache(maxsize=65536)
def damage(power: int, atk: int, defense: int, penetration_bp: int = 0) -> int:
    """Default HP damage: `power` scaled by ATK/DEF, plus penetration damage
    (ATK/DEF - 1) x (ATK/DEF x k) x power (seed 000, ATK and DEF), where k is the
    ability's penetration constant in basis points. Penetration rewards ATK over DEF and
    punishes the reverse; the total never goes below 0."""
    if atk <= 0 or defense <= 0:
        raise ValueError("ATK and DEF must be positive")
    # power x r + power x (r - 1) x r x k with r = atk / defense and k = penetration_bp / BASIS,
    # over the common denominator defense^2 x BASIS: integer floor division is the exact floor
    # of the same fraction (`fraction_damage` in the tests works it out in Fractions).
    numerator = power * atk * (defense * BASIS + (atk - defense) * penetration_bp)
    return max(0, numerator // (defense * defense * BASIS))


@lru_cache(maxsize=65536)
def exhausted(value: int, exs_bp: int) -> int:
    """An attribute under exhaustion: EXS is a % reduction of every numeric attribute."""
    if not 0 <= exs_bp <= BASIS:
        raise ValueError("EXS is between 0 and 100%")
    return math.floor(Fraction(value) * (BASIS - exs_bp) / BASIS)
