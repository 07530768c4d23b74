"""Seed 002, Resolving Attacks and Effects: the Attack Value is hits x M + K, with no hit as with
any other count, less one for each of the attacker's Weakened tokens, plus one for each of the
target's Vulnerable tokens (one of each is discarded per attack). At 0 or less the target
ignores it, from 1 to its Defense a token is tapped, above its Defense it breaks. A variant
(`zero_hits_miss`, off by default) gives an attack with no hit Attack Value 0."""
from __future__ import annotations

import pytest

from domain.rulesets.battleboard.attack import band
from domain.rulesets.battleboard.commands import Act
from domain.rulesets.battleboard.events import (ActionTaken, AttackIgnored, DiceRolled, TokenDiscarded, TokenSpent,
                                                TokenTapped)
from domain.rulesets.battleboard.state import Params

from .given import ACTIONS, battle, of_type, play, unit


def test_the_content_numbers_these_tests_quote():
    assert (ACTIONS["strike"].dice, ACTIONS["heavy_blow"].dice, ACTIONS["sword_cut"].dice) == ("2d*2+1", "2d*3+1", "2d*3")


def attack(dice, action="strike", attacker=None, **target):
    """h1 attacks f1 (Evasion 4, Defense 4, three untapped tokens unless said) with `action`."""
    given = battle(unit("h1", (2, 2), actions=(action,), **(attacker or {})),
                   unit("f1", (2, 3), **{"evasion": 4, "defense": 4, **target}))
    return play(given, "h1", Act(unit="h1", action=action, targets=("f1",)), dice)


@pytest.mark.parametrize(("av", "defense", "expected"), [
    (-2, 4, "ignored"), (0, 4, "ignored"), (1, 4, "tap"), (4, 4, "tap"), (5, 4, "break"), (9, 4, "break"),
])
def test_the_three_bands(av, defense, expected):
    assert band(av, defense) == expected


def test_with_no_hit_the_attack_value_is_the_plus_and_the_target_taps():
    # given Strike (2d*2+1) at a target of Evasion 4 and Defense 4, by today's params
    assert Params().zero_hits_miss is False
    # when both dice miss
    then, state = attack([3, 4])
    # then seed 002, Resolving Attacks: "The number of hits is then multipled by 3 and then 1 is
    # added to the total to calculate the Attack Value": 0 hits x 2 + 1 = 1, from 1 to Defense 4 a tap
    assert then == [ActionTaken(seat="h1", unit="h1", action="strike", targets=("f1",), kind="attack"),
                    DiceRolled(attacker="h1", target="f1", origin=(2, 3), expression="2d*2+1", dice=[3, 4],
                               rerolls=[], evasion=4, hits=0, av=1, defense=4, band="tap"),
                    TokenTapped(unit="f1", reason="tap")]
    assert (state.units["f1"].untapped, state.units["f1"].tapped) == (2, 1)


def test_the_zero_hits_miss_variant_gives_no_hit_no_attack_value():
    given = battle(unit("h1", (2, 2)), unit("f1", (2, 3)), params=Params(zero_hits_miss=True))
    then, state = play(given, "h1", Act(unit="h1", action="strike", targets=("f1",)), [1, 2])
    # 0 hits: AV 0 under the variant (not 0 x 2 + 1), and the target ignores it
    assert (of_type(then, DiceRolled)[0].av, then[-1]) == (0, AttackIgnored(unit="f1"))
    assert (state.units["f1"].untapped, state.units["f1"].tapped) == (3, 0)


def test_an_attack_value_up_to_the_defense_taps_a_token():
    then, state = attack([5, 6], defense=5)
    # 2 hits x 2 + 1 = 5 = defense 5: tap
    assert of_type(then, DiceRolled)[0].band == "tap"
    assert then[-1] == TokenTapped(unit="f1", reason="tap")
    assert (state.units["f1"].untapped, state.units["f1"].tapped) == (2, 1)


def test_an_attack_value_above_the_defense_breaks():
    then, state = attack([5, 6], defense=4)
    # 2 hits x 2 + 1 = 5 > defense 4: break, an untapped token is discarded
    assert of_type(then, DiceRolled)[0].band == "break"
    assert then[-1] == TokenDiscarded(unit="f1", tapped=False, reason="break")
    assert (state.units["f1"].untapped, state.units["f1"].tapped) == (2, 0)


def test_the_multiplier_and_the_plus():
    then, _ = attack([8, 12], action="heavy_blow", defense=9)
    # 2 hits x 3 + 1 = 7
    assert (of_type(then, DiceRolled)[0].av, of_type(then, DiceRolled)[0].band) == (7, "tap")
    then, _ = attack([8, 1], action="sword_cut", defense=9)
    # 1 hit x 3 + 0 = 3
    assert of_type(then, DiceRolled)[0].av == 3


def test_weakened_lowers_the_attack_value_and_one_is_discarded():
    then, state = attack([5, 6], attacker={"tokens": {"weakened": 2}})
    # 2 hits x 2 + 1 - 2 weakened = 3 <= defense 4: a tap, not a break
    rolled = of_type(then, DiceRolled)[0]
    assert (rolled.av, rolled.band) == (3, "tap")
    assert of_type(then, TokenSpent) == [TokenSpent(unit="h1", token="weakened", reason="used")]
    assert state.units["h1"].tokens == {"weakened": 1}


def test_weakened_can_bring_the_attack_value_to_nothing():
    then, state = attack([5, 1], attacker={"tokens": {"weakened": 3}})
    # 1 hit x 2 + 1 - 3 = 0: ignored
    assert of_type(then, DiceRolled)[0].av == 0
    assert of_type(then, AttackIgnored) == [AttackIgnored(unit="f1")]
    assert state.units["f1"].untapped == 3


def test_an_attack_value_of_one_taps():
    then, _ = attack([5, 1], attacker={"tokens": {"weakened": 2}})
    # 1 hit x 2 + 1 - 2 = 1: the lowest tap
    assert (of_type(then, DiceRolled)[0].av, then[-1]) == (1, TokenTapped(unit="f1", reason="tap"))


def test_vulnerable_raises_the_attack_value_and_one_is_discarded():
    then, state = attack([5, 1], tokens={"vulnerable": 2})
    # 1 hit x 2 + 1 + 2 vulnerable = 5 > defense 4: break
    rolled = of_type(then, DiceRolled)[0]
    assert (rolled.av, rolled.band) == (5, "break")
    assert of_type(then, TokenSpent) == [TokenSpent(unit="f1", token="vulnerable", reason="used")]
    assert state.units["f1"].tokens == {"vulnerable": 1}


def test_weakened_and_vulnerable_together():
    then, state = attack([5, 6], attacker={"tokens": {"weakened": 1}}, tokens={"vulnerable": 1})
    # 2 x 2 + 1 - 1 + 1 = 5
    assert of_type(then, DiceRolled)[0].av == 5
    assert of_type(then, TokenSpent) == [TokenSpent(unit="h1", token="weakened", reason="used"),
                                         TokenSpent(unit="f1", token="vulnerable", reason="used")]
    assert (state.units["h1"].tokens, state.units["f1"].tokens) == ({}, {})


def test_vulnerable_adds_to_a_miss_too():
    then, state = attack([1, 2], tokens={"vulnerable": 1})
    # no hit: 0 x 2 + 1 + 1 vulnerable = 2, a tap; the token is spent
    assert (of_type(then, DiceRolled)[0].av, then[-1]) == (2, TokenTapped(unit="f1", reason="tap"))
    assert state.units["f1"].tokens == {}


def test_under_the_variant_vulnerable_adds_nothing_to_a_miss_but_is_still_spent():
    given = battle(unit("h1", (2, 2)), unit("f1", (2, 3), tokens={"vulnerable": 1}), params=Params(zero_hits_miss=True))
    then, state = play(given, "h1", Act(unit="h1", action="strike", targets=("f1",)), [1, 2])
    # no hit: AV 0 whatever the Vulnerable tokens
    assert of_type(then, DiceRolled)[0].av == 0
    assert of_type(then, AttackIgnored) == [AttackIgnored(unit="f1")]
    assert state.units["f1"].tokens == {}


def test_the_attack_records_the_last_roll():
    _, state = attack([5, 6])
    assert state.last_attack == {"attacker": "h1", "target": "f1", "expression": "2d*2+1", "dice": [5, 6],
                                 "rerolls": [], "hits": 2, "av": 5, "defense": 4, "band": "break"}
