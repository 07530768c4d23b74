"""Ring's number rules, with exact values (seed 000: SKL and PRY, ATK and DEF, EXS)."""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest

from domain.engine.rng import Rng
from domain.rulesets.ring.formulas import Chances, chances, damage, exhausted


@pytest.mark.parametrize("skl, pry, expected", [
    (50, [50], (1500, 7000, 1500)),          # 1:1 -> 15 / 70 / 15
    (60, [50], (1500, 5600, 2900)),          # 6:5 -> crit 15% + 0.2 x 70% = 29%
    (100, [50], (1500, 0, 8500)),            # 2:1 -> crit 85% (the cap), nothing left for Normal
    (300, [50], (1500, 0, 8500)),            # capped
    (50, [60], (2900, 5600, 1500)),          # parry 6:5 -> glance 29%
    (50, [100], (8500, 0, 1500)),            # glance capped at 85%
    (40, [30, 50], (1500, 7000, 1500)),      # several targets: their average PRY (40)
    (45, [30, 50], (1500, 6125, 2375)),      # SKL 45 over the average 40: crit 15% + 0.125 x 70%
])
def test_default_effectiveness_chances(skl, pry, expected):
    found = chances(skl, pry)
    assert (found.glancing, found.normal, found.critical) == expected
    assert found.glancing + found.normal + found.critical == 10_000


def test_chances_round_down_once_and_normal_takes_the_rest():
    found = chances(7, [3])                   # crit = 15% + (7/3 - 1) x 70% = 108.3% -> capped 85%
    assert (found.glancing, found.normal, found.critical) == (1500, 0, 8500)
    odd = chances(10, [9])                    # crit = 15% + (1/9) x 70% = 22.777...% -> 2277 bp
    assert (odd.glancing, odd.normal, odd.critical) == (1500, 6223, 2277)


def test_bad_attributes_are_refused():
    for skl, pry in ((0, [5]), (5, []), (5, [0, 4])):
        with pytest.raises(ValueError):
            chances(skl, pry)


def test_the_roll_follows_the_chances_and_the_seed():
    rolls = Counter(Chances(1500, 7000, 1500).roll(Rng(b"seed", i)) for i in range(20_000))
    assert abs(rolls["glancing"] - 3000) < 300 and abs(rolls["critical"] - 3000) < 300
    assert abs(rolls["normal"] - 14_000) < 400
    assert [Chances(1500, 7000, 1500).roll(Rng(b"same", 5)) for _ in range(3)] == \
        [Chances(1500, 7000, 1500).roll(Rng(b"same", 5))] * 3
    assert Chances(10_000, 0, 0).roll(Rng(b"x")) == "glancing"
    assert Chances(0, 0, 10_000).roll(Rng(b"x")) == "critical"


@pytest.mark.parametrize("power, atk, defense, k, expected", [
    (20, 50, 50, 0, 20),          # 1:1, no penetration
    (20, 60, 40, 0, 30),          # scaled by ATK/DEF = 1.5
    (20, 60, 40, 5000, 37),       # + (1.5 - 1) x (1.5 x 0.5) x 20 = 7.5 -> 37.5 -> 37
    (20, 40, 60, 5000, 11),       # 13.33 + (-1/3) x (2/3 x 0.5) x 20 = 13.33 - 2.22 = 11.1 -> 11
    (10, 1, 100, 20000, 0),       # deep negative penetration is clamped at 0
])
def test_default_damage(power, atk, defense, k, expected):
    assert damage(power, atk, defense, k) == expected


def fraction_damage(power: int, atk: int, defense: int, penetration_bp: int) -> int:
    """The damage rule as seed 000 states it, in exact fractions."""
    ratio = Fraction(atk, defense)
    k = Fraction(penetration_bp, 10_000)
    return max(0, math.floor(power * ratio + power * (ratio - 1) * (ratio * k)))


def test_default_damage_is_the_floor_of_the_exact_fraction():
    for power in (-3, 0, 1, 7, 20, 55, 120):
        for atk in (1, 2, 9, 37, 50, 61, 140):
            for defense in (1, 3, 10, 37, 49, 75, 200):
                for k in (0, 1, 333, 2500, 5000, 9999, 20_000):
                    assert damage(power, atk, defense, k) == fraction_damage(power, atk, defense, k), \
                        (power, atk, defense, k)


def test_exhaustion_lowers_every_attribute_by_its_percentage():
    assert exhausted(100, 1500) == 85            # one battle in a set: +15%
    assert exhausted(33, 1500) == 28             # 28.05 -> 28
    assert exhausted(100, 0) == 100 and exhausted(100, 10_000) == 0
    with pytest.raises(ValueError):
        exhausted(100, 10_001)
