"""What a ring seat knows (`knowledge.knowledge`) and the battles `knowledge.determinize` draws
from it: the other seat's inventory and its unseen locked pick are marks, filled from what the
seat has not seen (seed 000, Buying Items, Forming Your Team; README "Knowledge and
determinization"). And the search bot's evaluation of where a playout stops."""
from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from domain.engine.rng import Rng
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.bots.search import evaluate
from domain.rulesets.ring.commands import PickTeam
from domain.rulesets.ring.content import CONTENT
from domain.rulesets.ring.knowledge import MARK, UNSEEN_PACK, determinize, knowledge

from .given import P1_TEAM, battle, play, preset_setup, started, team_pick

IRON_WALL_PACK = Counter({"potion": 2, "hi_potion": 1, "venom_vial": 1, "smelling_salts": 1})   # 12 GP
DRAWS = 64


def price(pack) -> int:
    return sum(CONTENT.items[item].price for item in pack)


def locked(state, seat, choice):
    assert state.choices is not None
    return replace(state, choices=state.choices.with_lock(seat, choice))


# -- the inventory ---------------------------------------------------------------------------

def test_the_other_seats_inventory_is_one_mark_whatever_it_holds():
    given = battle(items={"p1": ["potion"], "p2": ["fire_bomb", "ether", "ether"]})
    known = knowledge(given, "p1")
    assert known.p1.items == ("potion",)                 # its own, as it is
    assert known.p2.items == UNSEEN_PACK == ("?",)       # not even how many
    assert knowledge(given, "p2").p1.items == UNSEEN_PACK
    assert knowledge(given, "p2").p2.items == ("fire_bomb", "ether", "ether")
    other = battle(items={"p1": ["potion"], "p2": []})
    assert knowledge(other, "p1") == known


def test_a_preset_deck_is_presumed_to_carry_its_preset_pack_in_some_order():
    _, given = started(preset_setup("ember_rush", "iron_wall"))
    packs = [determinize(knowledge(given, "p1"), "p1", Rng(b"pack", i)).p2.items for i in range(DRAWS)]
    preset = [p for p in packs if Counter(p) == IRON_WALL_PACK]
    # PRESET_PACK = 7/8: most draws are Iron Wall's own pack; the others other items at its
    # price, 2 + 2 + 4 + 3 + 1 = 12 GP, spent to the last GP (Smelling Salts cost 1)
    assert 40 <= len(preset) < DRAWS
    assert all(price(p) == 12 for p in packs)
    assert len(set(preset)) > 1                          # the order is drawn too


def test_once_its_side_has_had_a_turn_some_items_may_be_gone():
    _, given = started(preset_setup("ember_rush", "iron_wall"))
    given = replace(given, phase="battle", turn=2, active="p1")     # p2 has had turn 1 or 2
    packs = [determinize(knowledge(given, "p1"), "p1", Rng(b"used", i)).p2.items for i in range(DRAWS)]
    presets = [p for p in packs if Counter(p) <= IRON_WALL_PACK]
    assert any(len(p) < 5 for p in presets)              # KEPT = 1/2 a copy: 5 of 5 kept 1 time in 32
    assert all(price(p) <= 12 for p in packs)


def test_a_deck_of_no_preset_buys_a_pack_at_the_presets_mean_price():
    given = battle(items={"p2": ["potion"]}, active="p2")    # Gale's test decks are no preset; p1 has not moved
    packs = [determinize(knowledge(given, "p2"), "p2", Rng(b"mean", i)).p1.items for i in range(8)]
    # the presets' packs: 10, 12, 21, 9 and 12 GP; (10 + 12 + 21 + 9 + 12) // 5 = 12
    assert [price(p) for p in packs] == [12] * 8
    assert len(set(packs)) == 8


# -- the locked picks -------------------------------------------------------------------------

def test_a_locked_team_is_marks_to_the_other_seat_and_a_team_of_its_deck_when_drawn():
    given = team_pick(battle(p2_deck=("rot_ogre", "iron_boar"), units={"p2.iron_boar": {"lp": 0, "removed": True}}))
    given = locked(given, "p2", {"units": ["bastion_golem", "hex_lich", "moss_mother", "shadow_cat"]})
    known = knowledge(given, "p1")
    assert known.choices is not None and known.choices.locked == {"p2": {"units": [MARK] * 4}}
    assert knowledge(given, "p2").choices == given.choices             # its own pick, as it is
    # p2's deck: its team of four, Rot Ogre, and Iron Boar, removed (0 LP): 5 units to draw from
    deck = {"bastion_golem", "hex_lich", "moss_mother", "shadow_cat", "rot_ogre"}
    for i in range(8):
        drawn = determinize(known, "p1", Rng(b"team", i))
        [team] = [c["units"] for c in drawn.choices.locked.values()]
        assert len(set(team)) == 4 and set(team) <= deck and team == sorted(team)
        assert knowledge(drawn, "p1") == known


def test_the_preview_advantage_shows_the_first_locked_team_to_the_initiative_winner():
    # Vesper (null_court) wins the initiative on seed "0": Iron Wall (p2) picks first, p1 sees it
    events, state = started(preset_setup("null_court", "iron_wall"), b"0")
    team = ("shellback", "bastion_golem", "rot_ogre", "moss_mother")
    _, state = play(state, "p2", PickTeam(units=team))
    assert state.pick_sequential and state.choices.locked["p2"] == {"units": sorted(team)}
    assert knowledge(state, "p1").choices == state.choices
    assert determinize(knowledge(state, "p1"), "p1", Rng(b"x")).choices == state.choices


def test_a_locked_ring_pick_is_a_mark_and_one_of_the_teams_standing_units_when_drawn():
    given = battle(phase="ring", active=None, units={"p2.hex_lich": {"hp": 0, "ko": True}})
    given = replace(given, choices=team_pick(given).choices.__class__(kind="pick_ring", awaiting=("p1", "p2")))
    given = locked(given, "p2", {"unit": "moss_mother"})
    known = knowledge(given, "p1")
    assert known.choices.locked == {"p2": {"unit": MARK}}
    drawn = {determinize(known, "p1", Rng(b"ring", i)).choices.locked["p2"]["unit"] for i in range(DRAWS)}
    assert drawn == {"bastion_golem", "moss_mother", "shadow_cat"}      # Hex Lich is KO'd


def test_a_seats_own_lock_and_a_state_with_nothing_locked_are_known_as_they_are():
    given = locked(team_pick(battle()), "p1", {"units": ["cinderhound", "fang_shrike", "grizzlor", "shellback"]})
    assert knowledge(given, "p1").choices == given.choices
    assert knowledge(given, "p2").choices.locked == {"p1": {"units": [MARK] * 4}}


# -- the search's evaluation ----------------------------------------------------------------

def test_a_side_ahead_on_its_leaders_hp_is_rated_more_likely_to_win():
    even = battle(p2_team=P1_TEAM)                       # the same four units on either side
    assert evaluate(even, "p1") == 0.5 == evaluate(even, "p2")
    behind = battle(p2_team=P1_TEAM, p1_leader_hp=27 - 9)
    # Gale has 27 HP: 9 lost is a third of LEADER_POINTS 600 = 200 points; 1 / (1 + e^2) = 0.119
    assert round(evaluate(behind, "p1"), 3) == 0.119
    assert round(evaluate(behind, "p1") + evaluate(behind, "p2"), 9) == 1.0


def test_ruleset_declares_them():
    assert RULESET.knowledge is knowledge and RULESET.determinize is determinize
