"""Seed 000, Post-Battle (LP restoration and EXS) across the battles of a set: `carry.py`.

`next_carry` reads the finished battle; `apply_carry` puts the result into the next battle's
setup as each seat's `condition`. HP, MP and augments start afresh every battle.
"""
from __future__ import annotations

import pytest

from domain.engine.errors import RuleViolation
from domain.engine.ruleset import Outcome
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.carry import apply_carry, next_carry
from domain.rulesets.ring.commands import PickTeam
from domain.rulesets.ring.content import CONTENT

from .given import battle, decide_after, preset_setup, started

EMBER = [e.unit for e in CONTENT.decks["ember_rush"].units]
IRON = [e.unit for e in CONTENT.decks["iron_wall"].units]
P1_TEAM = ("grizzlor", "fang_shrike", "cinderhound", "shadow_cat")
P2_TEAM = ("shellback", "bastion_golem", "rot_ogre", "moss_mother")


def finished(**units):
    """A battle over the preset decks, with these unit fields (by key) at its end."""
    return battle(p1_team=P1_TEAM, p1_deck=[u for u in EMBER if u not in P1_TEAM],
                  p2_team=P2_TEAM, p2_deck=[u for u in IRON if u not in P2_TEAM], units=units)


def carried(game, winner="p1"):
    return next_carry(None, preset_setup(), game, winner)


# -- EXS: +15% for taking part, -10% for sitting out -----------------------------------------

def test_participants_gain_fifteen_percent_exs_and_the_rest_lose_ten():
    carry = carried(finished(**{"p1.grizzlor": {"exs": 1500}, "p1.needle_hawk": {"exs": 2500},
                                "p2.iron_boar": {"exs": 500}}))
    assert carry["p1"]["grizzlor"]["exs"] == 3000              # took part: 1500 + 1500
    assert carry["p1"]["fang_shrike"]["exs"] == 1500           # took part, fresh
    assert carry["p1"]["needle_hawk"]["exs"] == 1500           # sat out: 2500 - 1000
    assert carry["p1"]["mirror_imp"]["exs"] == 0               # sat out fresh: not below 0
    assert carry["p2"]["iron_boar"]["exs"] == 0                # 500 - 1000 -> 0
    assert carry["p2"]["shellback"]["exs"] == 1500


def test_exs_stops_at_one_hundred_percent():
    carry = carried(finished(**{"p1.grizzlor": {"exs": 9000}, "p1.fang_shrike": {"exs": 10_000}}))
    assert (carry["p1"]["grizzlor"]["exs"], carry["p1"]["fang_shrike"]["exs"]) == (10_000, 10_000)


def test_the_carry_names_every_deck_unit_by_unit_id():
    carry = carried(finished())
    assert sorted(carry) == ["p1", "p2"]
    assert list(carry["p1"]) == [*P1_TEAM, *(u for u in EMBER if u not in P1_TEAM)]
    assert sorted(carry["p2"]) == sorted(IRON)


# -- LP: +1 for the winner's participants that still have LP ----------------------------------

def test_the_winners_participants_gain_one_lp_up_to_their_max():
    game = finished(**{"p1.grizzlor": {"lp": 1}, "p1.fang_shrike": {"lp": 3}, "p1.needle_hawk": {"lp": 1},
                       "p2.shellback": {"lp": 2}})
    carry = carried(game, winner="p1")
    assert carry["p1"]["grizzlor"]["lp"] == 2                  # took part and won: 1 + 1
    assert carry["p1"]["fang_shrike"]["lp"] == 3               # already at its max of 3
    assert carry["p1"]["needle_hawk"]["lp"] == 1               # sat out: no bonus
    assert carry["p2"]["shellback"]["lp"] == 2                 # lost: keeps what it has


def test_the_other_side_wins_the_same_way():
    carry = carried(finished(**{"p1.grizzlor": {"lp": 1}, "p2.shellback": {"lp": 2}}), winner="p2")
    assert (carry["p1"]["grizzlor"]["lp"], carry["p2"]["shellback"]["lp"]) == (1, 3)


def test_a_draw_gives_nobody_lp():
    carry = carried(finished(**{"p1.grizzlor": {"lp": 1}, "p2.shellback": {"lp": 2}}), winner=None)
    assert (carry["p1"]["grizzlor"]["lp"], carry["p2"]["shellback"]["lp"]) == (1, 2)


def test_a_unit_at_zero_lp_stays_at_zero_even_on_the_winning_side():
    removed = {"hp": 0, "lp": 0, "ko": True, "removed": True}
    carry = carried(finished(**{"p1.grizzlor": removed, "p1.needle_hawk": {"lp": 0, "hp": 0, "removed": True}}))
    assert carry["p1"]["grizzlor"]["lp"] == 0
    assert carry["p1"]["needle_hawk"]["lp"] == 0


# -- into the next battle --------------------------------------------------------------------

def test_apply_carry_sets_each_seats_condition_and_keeps_the_rest():
    setup = preset_setup(battlefield="windy_steppe")
    carry = {"p1": {"grizzlor": {"lp": 1, "exs": 1500}}, "p2": {}}
    out = apply_carry(setup, carry)
    assert out == {"p1": {"deck": "ember_rush", "condition": {"grizzlor": {"lp": 1, "exs": 1500}}},
                   "p2": {"deck": "iron_wall", "condition": {}}, "battlefield": "windy_steppe"}
    assert setup == preset_setup(battlefield="windy_steppe")   # not changed in place
    assert apply_carry(setup, None) == setup
    assert RULESET.set_rules.apply_carry is apply_carry and RULESET.set_rules.next_carry is next_carry


def test_the_next_battle_starts_from_the_carried_lp_and_exs_with_hp_and_mp_restored():
    wounded = {"hp": 7, "mp": 0, "lp": 1, "exs": 1500, "ko": False, "aug": {"atk": 6, "def": -4}}
    carry = carried(finished(**{"p1.grizzlor": wounded}), winner="p1")
    _, state = started(apply_carry(preset_setup(), carry), b"5")
    grizzlor = state.units["p1.grizzlor"]
    # ember_rush grows its HP and ATK by 2 GP each: HP 150 x 1.2 = 180, at 30% EXS 126
    assert (grizzlor.lp, grizzlor.exs) == (2, 3000)
    assert (grizzlor.hp, grizzlor.max_hp) == (126, 126)
    assert (grizzlor.mp, grizzlor.max_mp) == (17, 17)           # 25 x 0.7 = 17.5
    assert grizzlor.aug == {}
    assert grizzlor.stat("atk") == 58                            # 84 x 0.7 = 58.8
    # a unit that sat out comes back rested and whole
    hawk = state.units["p1.needle_hawk"]
    assert (hawk.exs, hawk.lp, hawk.hp) == (0, 3, hawk.max_hp)


def test_a_unit_out_of_lp_cannot_be_picked_in_the_next_battle():
    removed = {"hp": 0, "lp": 0, "ko": True, "removed": True}
    carry = carried(finished(**{"p1.grizzlor": removed}), winner="p2")
    _, state = started(apply_carry(preset_setup(), carry), b"5")
    assert state.units["p1.grizzlor"].removed
    assert state.units["p1.grizzlor"].hp == 0
    with pytest.raises(RuleViolation, match="'grizzlor' is not a unit of your deck with LP left"):
        decide_after(state, "p1", PickTeam(units=("grizzlor", "fang_shrike", "cinderhound", "shadow_cat")))
    assert all("grizzlor" not in c.units for c in RULESET.legal_commands(state, "p1"))
    # and it stays out for the rest of the set
    again = carried(state, winner="p1")
    assert again["p1"]["grizzlor"] == {"lp": 0, "exs": 500}      # sat this one out: 1500 - 1000


def test_a_deck_with_no_unit_left_loses_before_the_team_pick():
    setup = preset_setup()
    setup["p1"]["condition"] = {u: {"lp": 0} for u in EMBER}
    _, state = started(setup, b"5")
    assert RULESET.outcome(state) == Outcome(winner="p2", reason="p1 has no unit with LP left")
    assert RULESET.awaiting(state) == frozenset()
