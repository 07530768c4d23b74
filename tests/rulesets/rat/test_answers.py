"""The answers rat works out once and gives again (`answers.py`, `legal._listed`), and the
shortcuts beside them, give exactly what working them out afresh gives."""
from __future__ import annotations

from fractions import Fraction

import pytest
from msgspec.structs import replace

from domain.engine.errors import RuleViolation
from domain.rulesets.rat.commands import Act
from domain.rulesets.rat.legal import action_options, checked, legal_commands, options, waiting
from domain.rulesets.rat.stats import damage

from .given import ailment, battle, enemy, entity


def test_damage_is_the_floored_quotient_the_fractions_give():
    for power in (1, 40, 100, 150):
        for atk in (1, 7, 40, 999):
            for defense in (-5, 0, 20, 333):
                for roll in (85, 93, 100):
                    for scale in (1, 100, 1000):
                        exact = Fraction(power, 100) * atk * scale / (scale + max(0, defense)) * Fraction(roll, 100)
                        assert damage(power, atk, defense, roll, scale) == max(1, int(exact))


def test_a_state_lists_the_same_options_however_often_it_is_asked():
    given = battle([entity("mc", moves={"quick_jab": 2}), entity("sc")], [enemy("e1"), enemy("e2")])
    first = legal_commands(given, "p1")
    assert legal_commands(given, "p1") == first
    assert list(options(replace(given), given.entities["mc"])) == first   # a copy works them out afresh
    assert [o.target for o in first if o.action == "strike"] == ["e1", "e2"]


def test_the_options_of_one_action_are_those_options_lists_for_it():
    given = battle([entity("mc", moves={"quick_jab": 2}), entity("sc")], [enemy("e1")])
    mc = given.entities["mc"]
    for action in ("quick_jab", "strike", "protect"):
        assert list(action_options(given, mc, action)) == [o for o in options(given, mc) if o.action == action]


def test_a_listed_command_and_a_fresh_check_agree():
    given = battle([entity("mc"), entity("sc")], [enemy("e1")])
    first = waiting(given, "party")[0]
    listed = legal_commands(given, "p1")
    for cmd in listed:
        assert checked(given, "p1", cmd) is cmd                  # found among the listed options
        assert checked(replace(given), "p1", cmd) is cmd         # every check made afresh
    wrong = Act(actor=first, action="strike", target=first)
    for s in (given, replace(given)):
        with pytest.raises(RuleViolation, match="cannot target"):
            checked(s, "p1", wrong)


def test_who_waits_follows_each_state_not_an_earlier_one():
    given = battle([entity("mc"), entity("sc")], [enemy("e1")])
    assert set(waiting(given, "party")) == {"mc", "sc"}
    stunned = replace(given, effects=(ailment("stunned", "mc"),))
    assert waiting(stunned, "party") == ("sc",)
