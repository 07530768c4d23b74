"""Seed 002, Resolving Attacks: each die is compared with the target's Evasion; a die greater
than the Evasion is a hit, a die equal to it misses, and rolls of 11 or 12 always hit."""
from __future__ import annotations

import pytest

from domain.rulesets.battleboard.attack import is_hit, parse_dice
from domain.rulesets.battleboard.commands import Act
from domain.rulesets.battleboard.events import DiceRolled
from domain.rulesets.battleboard.state import Params

from .given import ACTIONS, battle, decide_after, of_type, unit

STRIKE = ACTIONS["strike"]


def test_strike_rolls_two_dice_times_two_plus_one():
    assert parse_dice(STRIKE.dice) == (2, 2, 1)     # the numbers every test of this file quotes


def strike(evasion: int, dice: list[int]) -> DiceRolled:
    """h1 strikes f1 (Defense 12, so no choice to make) with the given dice."""
    given = battle(unit("h1", (2, 2)), unit("f1", (2, 3), evasion=evasion, defense=12))
    return of_type(decide_after(given, "h1", Act(unit="h1", action="strike", targets=("f1",)), dice), DiceRolled)[0]


def test_the_attack_is_rolled_against_the_targets_evasion():
    rolled = strike(4, [5, 2])
    # 5 > evasion 4 hits, 2 misses: AV = 1 hit x 2 + 1 = 3
    assert rolled == DiceRolled(attacker="h1", target="f1", origin=(2, 3), expression="2d*2+1", dice=[5, 2],
                                rerolls=[], evasion=4, hits=1, av=3, defense=12, band="tap")


def test_a_die_equal_to_the_evasion_misses():
    assert (strike(4, [4, 4]).hits, strike(4, [4, 5]).hits) == (0, 1)


@pytest.mark.parametrize(("evasion", "dice", "hits"), [
    (10, [11, 10], 1),              # 11 > 10 anyway; 10 = evasion misses
    (11, [11, 10], 1),              # 11 = evasion, yet 11 always hits
    (12, [11, 12], 2),              # neither beats 12, both always hit
    (12, [10, 12], 1),              # 10 is no automatic hit
    (14, [12, 12], 2),              # an evasion above any die: only 11s and 12s hit
])
def test_an_11_or_a_12_always_hits(evasion, dice, hits):
    rolled = strike(evasion, dice)
    assert (rolled.hits, rolled.av) == (hits, hits * 2 + 1)


def test_every_die_counts_on_its_own():
    rolled = strike(6, [7, 12])
    # 7 > 6 and 12: 2 hits x 2 + 1 = 5
    assert (rolled.hits, rolled.av) == (2, 5)


def test_the_automatic_hit_is_a_param():
    params = Params()
    assert (is_hit_at(params, 11, 12), is_hit_at(params, 10, 12)) == (True, False)
    assert is_hit_at(Params(auto_hit=12), 11, 12) is False


def is_hit_at(params: Params, die: int, evasion: int) -> bool:
    return is_hit(battle(params=params), die, evasion)


@pytest.mark.parametrize(("expression", "parts"), [
    ("3d*4+1", (3, 4, 1)), ("2d*3", (2, 3, 0)), ("1d*3+1", (1, 3, 1)), ("2d*2-1", (2, 2, -1)),
])
def test_a_dice_expression_is_count_times_plus(expression, parts):
    assert parse_dice(expression) == parts


@pytest.mark.parametrize("expression", ["2d6", "d*2+1", "2d*+1", "2d*2+", "x"])
def test_a_malformed_dice_expression_is_refused(expression):
    with pytest.raises(ValueError, match="Nd\\*M\\+K"):
        parse_dice(expression)
