"""Setup validation: seed 001, Preparation (a team is three characters from one party plus up to
two from any others; raids field a boss side), and every refusal names the offending field."""
from __future__ import annotations

import pytest

from domain.engine.errors import SetupError
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.setup import DEFAULT_SETUP, RAID_SETUP
from domain.rulesets.skirmish.state import Params

P2_TEAM = {"team": ["wisp", "sable", "thorn", "brick"]}


def duel(p1_team, **top):
    return {"p1": {"team": p1_team}, "p2": dict(P2_TEAM), **top}


# -- Good setups ------------------------------------------------------------------------------

def test_the_default_setup_is_a_duel_on_the_glade():
    # boards.toml: the glade is the board whose default_for is "duel"
    setup = RULESET.parse_setup(DEFAULT_SETUP)
    assert (setup.mode, setup.board, setup.first_player, setup.bosses) == ("duel", "glade", None, {})
    assert setup.teams == {"p1": ("ember", "cinder", "flint", "sigil"), "p2": ("wisp", "sable", "thorn", "brick")}
    assert setup.params == Params()


def test_a_raid_has_a_boss_side_with_its_escorts():
    setup = RULESET.parse_setup(RAID_SETUP)
    assert (setup.mode, setup.board) == ("raid", "colosseum")
    assert setup.teams["p2"] == ("tempest_wyrm", "stormling", "squall")
    assert setup.bosses == {"p2": "tempest_wyrm"}


@pytest.mark.parametrize("team", [
    ["ember", "cinder", "flint"],                               # 3 from one party
    ["ember", "cinder", "flint", "brand"],                      # 4 from one party
    ["ember", "cinder", "flint", "wisp", "brick"],              # 3 + 2 from two other parties
    ["wisp", "sable", "thorn", "bramble", "sigil"],             # 4 + 1
])
def test_a_team_is_three_from_one_party_plus_up_to_two(team):
    assert RULESET.parse_setup(duel(team)).teams["p1"] == tuple(team)


def test_both_seats_may_bring_the_same_character():
    setup = RULESET.parse_setup({"p1": dict(P2_TEAM), "p2": dict(P2_TEAM)})
    assert setup.teams["p1"] == setup.teams["p2"]


def test_params_reach_the_setup():
    setup = RULESET.parse_setup(duel(["ember", "cinder", "flint"], params={"hand_limit": 5, "ap_cap": 8}))
    assert (setup.params.hand_limit, setup.params.ap_cap) == (5, 8)


# -- Bad setups: the field is named -----------------------------------------------------------

BAD_SETUPS = [
    # unknown character, by its index in the team
    (duel(["ember", "cinder", "zed"]), "p1.team[2]", "unknown character 'zed'"),
    (duel(["ember", 7, "cinder", "flint"]), "p1.team[1]", "unknown character 7"),
    # a character twice
    (duel(["ember", "cinder", "ember", "flint"]), "p1.team[2]", "'ember' is already in the team"),
    # fewer than three from one party: 2 Ember Circle + 1 Thornwood + 1 Iron Vanguard
    (duel(["ember", "cinder", "wisp", "sigil"]), "p1.team", "needs three characters from the same party"),
    (duel(["ember", "cinder", "wisp", "sable", "sigil"]), "p1.team", "needs three characters from the same party"),
    # team size: 3 to 5
    (duel(["ember", "cinder"]), "p1.team", "must be a list of 3 to 5 character ids"),
    (duel(["ember", "cinder", "flint", "brand", "wisp", "sable"]), "p1.team", "must be a list of 3 to 5"),
    (duel("ember"), "p1.team", "must be a list of 3 to 5"),
    ({"p1": {}, "p2": dict(P2_TEAM)}, "p1.team", "must be a list of 3 to 5"),
    # the boss's brood is raid-only: never in a player's team
    (duel(["ember", "cinder", "flint", "stormling"]), "p1.team[3]", "unknown character 'stormling'"),
    (duel(["tempest_wyrm", "ember", "cinder", "flint"]), "p1.team[0]", "unknown character 'tempest_wyrm'"),
    ({"mode": "raid", "p1": {"team": ["ember", "cinder", "squall"]}, "p2": {"boss": "tempest_wyrm"}},
     "p1.team[2]", "unknown character 'squall'"),
    # a boss only in a raid
    ({"p1": {"team": ["ember", "cinder", "flint"]}, "p2": {"boss": "tempest_wyrm"}}, "p2.boss",
     "a boss side plays only in a raid"),
    ({"mode": "raid", "p1": {"team": ["ember", "cinder", "flint"]}, "p2": {"boss": "dragon"}}, "p2.boss",
     "unknown boss 'dragon'"),
    ({"mode": "raid", "p1": {"team": ["ember", "cinder", "flint"]},
      "p2": {"boss": "tempest_wyrm", "team": ["wisp", "sable", "thorn"]}}, "p2.team", "a boss side has no team"),
    ({"mode": "raid", "p1": {"boss": "tempest_wyrm"}, "p2": {"boss": "tempest_wyrm"}}, "p1.boss",
     "only one side of a raid is a boss side"),
    # boards, modes, seats
    (duel(["ember", "cinder", "flint"], board="swamp"), "board", "unknown board 'swamp'"),
    (duel(["ember", "cinder", "flint"], board=3), "board", "unknown board 3"),
    (duel(["ember", "cinder", "flint"], mode="ladder"), "mode", "must be one of duel, raid"),
    (duel(["ember", "cinder", "flint"], first_player="p3"), "first_player", "must be one of p1, p2 or null"),
    (duel(["ember", "cinder", "flint"], p3={"team": []}), "p3", "unknown setup field"),
    ({"p1": {"team": ["ember", "cinder", "flint"]}}, "p2", "needs an object"),
    ({"p1": {"team": ["ember", "cinder", "flint"], "deck": []}, "p2": dict(P2_TEAM)}, "p1.deck", "unknown field"),
    # params
    (duel(["ember", "cinder", "flint"], params={"hand_limit": -1}), "params.hand_limit", "between 0 and 10, not -1"),
    (duel(["ember", "cinder", "flint"], params={"ap_cap": "ten"}), "params.ap_cap", "Expected `int`"),
    (duel(["ember", "cinder", "flint"], params={"ap_cpa": 10}), "params.ap_cpa", "unknown field"),
    (duel(["ember", "cinder", "flint"], params=[]), "params", "Expected `object`"),
    (duel(["ember", "cinder", "flint"], params={"raid_field_min": 0}), "params.raid_field_min", "between 1 and 5"),
    (duel(["ember", "cinder", "flint"], params={"raid_field_min": 4, "raid_field_max": 3}),
     "params.raid_field_min", "min <= max"),
    (duel(["ember", "cinder", "flint"], params={"duel_field": 0}), "params.duel_field", "between 1 and 5"),
    (duel(["ember", "cinder", "flint"], params={"duel_field": 4}), "params.duel_field", "no more characters"),
]


@pytest.mark.parametrize(("setup", "field", "message"), BAD_SETUPS, ids=[f"{f}:{m}" for _, f, m in BAD_SETUPS])
def test_a_bad_setup_names_the_field(setup, field, message):
    with pytest.raises(SetupError) as refused:
        RULESET.parse_setup(setup)
    assert refused.value.field == field
    assert refused.value.message.startswith(f"setup.{field}: ")
    assert message in refused.value.message


@pytest.mark.parametrize("setup", [
    # the boss side holds 3 (the Wyrm and 2 escorts) < 4 to field
    {"mode": "raid", "p1": {"team": ["sigil", "quill", "fang", "brick", "wisp"]}, "p2": {"boss": "tempest_wyrm"},
     "params": {"raid_field_min": 4}},
    # p1's team holds 3 < 4 to field
    {"mode": "raid", "p1": {"team": ["sigil", "quill", "fang"]}, "p2": {"boss": "tempest_wyrm"},
     "params": {"raid_field_min": 4}},
])
def test_a_raid_cannot_ask_a_side_to_field_more_than_its_team_holds(setup):
    # Like `duel_field` above a team's size: that side would have no legal selection, and the
    # battle would wait on it forever.
    with pytest.raises(SetupError) as refused:
        RULESET.parse_setup(setup)
    assert refused.value.field == "params.raid_field_min"


def test_an_unknown_character_lists_the_playable_ones():
    with pytest.raises(SetupError) as refused:
        RULESET.parse_setup(duel(["ember", "cinder", "zed"]))
    listed = refused.value.message.split("known: ", 1)[1].split(", ")
    assert len(listed) == 12
    assert "stormling" not in listed and "tempest_wyrm" not in listed
