"""Seed 003, Stats (EVs), 2.4.2 Equipment Slots and 2.3 Consumables: validating a rat setup,
the table it seats, sealing the party's build, and what a set carries between battles.

Every refusal is a `SetupError` whose `field` names the offending field exactly.
"""
from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.engine.errors import SetupError
from domain.rulesets.rat.carry import apply_carry, next_carry
from domain.rulesets.rat.setup import DEFAULT_SETUP, parse_setup, seal_setup, table, unseal_setup
from domain.rulesets.rat.start import member_entity
from domain.rulesets.rat.state import Params, Stack

from .given import battle, entity

MC_MOVES = ["heavy_swing", "quick_jab", "shield_bash", "war_cry"]


def setup_with(*party: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"party": list(party), "formation": "sewer_ambush", **top}


def refused(raw: dict[str, Any]) -> SetupError:
    with pytest.raises(SetupError) as caught:
        parse_setup(raw)
    return caught.value


# -- the default --------------------------------------------------------------------------

def test_the_default_setup_parses():
    parsed = parse_setup(copy.deepcopy(DEFAULT_SETUP))
    assert [m.member for m in parsed.party] == ["mc", "rat", "girl", "prof"]
    assert (parsed.formation, parsed.route, parsed.stage, parsed.enemy_ai, parsed.enemy_seat) == \
        ("sewer_ambush", ("sewer_ambush",), 0, None, False)
    assert parsed.params == Params()
    girl = parsed.party[2]
    # girl: 1 slot of her own + 3 from the small backpack = 4 >= 3 stacks
    assert girl.items == {"potion": Stack(count=3, durability=3), "stutter_potion": Stack(count=1, durability=2),
                          "antidote": Stack(count=1, durability=3)}


# -- EVs (seed 003, Stats) ----------------------------------------------------------------

@pytest.mark.parametrize("evs, field", [
    ({"hp": 16}, "party[0].evs.hp"),                   # 0..15 per stat
    ({"atk": -1}, "party[0].evs.atk"),
    ({"spd": True}, "party[0].evs.spd"),
    ({"luck": 1}, "party[0].evs.luck"),                # hp, atk, def, spd only
    ({"hp": 6, "atk": 5}, "party[0].evs"),             # Ash's budget is 10
    ([1, 2], "party[0].evs"),
])
def test_evs_are_refused_naming_the_field(evs, field):
    assert refused(setup_with({"member": "mc", "evs": evs})).field == field


def test_evs_add_10_to_the_stat_per_point_within_the_budget():
    parsed = parse_setup(setup_with({"member": "mc", "evs": {"hp": 4, "atk": 6}}))
    mc = member_entity(parsed.party[0], parsed.params)
    # Ash: HP 150 + 4 x 10 = 190, ATK 45 + 6 x 10 = 105; 4 + 6 = the whole budget of 10
    assert (mc.max_hp, mc.atk, mc.defense, mc.spd) == (190, 105, 30, 55)


# -- equipment slots (seed 003, 2.4.2) ----------------------------------------------------

@pytest.mark.parametrize("member, equipment, field", [
    ("girl", ["iron_knuckles"], "party[0].equipment[0]"),                       # GIRL: 0 weapons
    ("mc", ["iron_knuckles", "rusty_sabre", "long_night_knife"], "party[0].equipment[2]"),  # MC: 2 weapons
    ("mc", ["leather_jacket", "thorn_mail"], "party[0].equipment[1]"),          # 1 clothing
    ("rat", ["regen_scarf"], "party[0].equipment[0]"),                          # RAT: no clothing
    ("mc", ["mouse_sized_cheese"], "party[0].equipment[0]"),                    # RAT's special item
    ("wildcard", ["varifocal_glasses"], "party[0].equipment[0]"),               # PROF's special item
    ("prof", ["varifocal_glasses", "monocle"], "party[0].equipment[1]"),        # one glasses slot
    ("mc", ["excalibur"], "party[0].equipment[0]"),
])
def test_equipment_beyond_the_members_slots_is_refused(member, equipment, field):
    assert refused(setup_with({"member": member, "equipment": equipment})).field == field


def test_every_slot_filled_is_accepted():
    rat = {"member": "rat", "equipment": ["mouse_sized_cheese", "ember_ring", "frost_ring", "guardian_locket",
                                          "lucky_pebble"]}
    wildcard = {"member": "wildcard", "equipment": ["iron_knuckles", "rusty_sabre", "thorn_mail", "ember_ring",
                                                    "ball_and_chain", "feathered_head"]}
    parsed = parse_setup(setup_with(rat, wildcard))
    assert [len(m.equipment) for m in parsed.party] == [5, 6]


# -- moves ----------------------------------------------------------------------------------

@pytest.mark.parametrize("moves, field", [
    (["heavy_swing", "bite"], "party[0].moves[1]"),                 # Ash doesn't learn bite
    ([*MC_MOVES, "armor_break"], "party[0].moves"),                 # max_moves = 4
    ([], "party[0].moves"),
    (["heavy_swing", "heavy_swing"], "party[0].moves"),
])
def test_moves_must_be_learnable_and_at_most_max_moves(moves, field):
    assert refused(setup_with({"member": "mc", "moves": moves})).field == field


def test_max_moves_is_a_param():
    parsed = parse_setup(setup_with({"member": "mc", "moves": [*MC_MOVES, "armor_break"]}, params={"max_moves": 5}))
    assert len(parsed.party[0].moves) == 5


# -- consumables (seed 003, 2.3) ----------------------------------------------------------

ONE = {"count": 1, "durability": 3}


def test_girl_has_one_consumable_slot_without_her_backpack():
    assert refused(setup_with({"member": "girl", "items": {"potion": ONE, "antidote": ONE}})).field == "party[0].items"
    parsed = parse_setup(setup_with({"member": "girl", "items": {"potion": ONE}}))
    assert parsed.party[0].items == {"potion": Stack(count=1, durability=3)}


def test_her_backpack_adds_its_slots():
    five = dict.fromkeys(["potion", "antidote", "bomb", "elixir", "bandage"], ONE)
    # 1 + small backpack 3 = 4 slots: four stacks fit, five do not
    packed = {"member": "girl", "equipment": ["small_backpack"]}
    assert len(parse_setup(setup_with({**packed, "items": dict(list(five.items())[:4])})).party[0].items) == 4
    assert refused(setup_with({**packed, "items": five})).field == "party[0].items"


@pytest.mark.parametrize("items, field", [
    ({"potion": {"count": 6, "durability": 3}}, "party[0].items.potion.count"),     # stack_size 5
    ({"potion": {"count": 0, "durability": 3}}, "party[0].items.potion.count"),
    ({"potion": {"count": 1, "durability": -1}}, "party[0].items.potion.durability"),
    ({"potion": {"count": 1, "age": 2}}, "party[0].items.potion"),
    ({"heavy_swing": ONE}, "party[0].items.heavy_swing"),                           # a move, not a consumable
])
def test_consumable_stacks_are_checked(items, field):
    assert refused(setup_with({"member": "mc", "items": items})).field == field


def test_durability_defaults_to_3_and_may_be_0():
    parsed = parse_setup(setup_with({"member": "mc", "items": {"potion": {"count": 2},
                                                                "bomb": {"count": 1, "durability": 0}}}))
    assert parsed.party[0].items == {"potion": Stack(count=2, durability=3), "bomb": Stack(count=1, durability=0)}


# -- the table and sealing ----------------------------------------------------------------

@pytest.mark.parametrize("enemy_seat, seats", [(None, ()), (False, ()), (True, ("p2",)), ("yes", ())])
def test_the_table_seats_p2_only_with_enemy_seat_true(enemy_seat, seats):
    raw = setup_with({"member": "mc"}) if enemy_seat is None else setup_with({"member": "mc"}, enemy_seat=enemy_seat)
    assert table(raw).sides == (("party", ("p1",)), ("enemies", seats))


def test_sealing_keeps_only_the_member_ids_public():
    raw = copy.deepcopy(DEFAULT_SETUP)
    public, sealed = seal_setup(raw)
    assert public == {"party": [{"member": "mc"}, {"member": "rat"}, {"member": "girl"}, {"member": "prof"}],
                      "formation": "sewer_ambush"}
    assert sealed == {"p1": {"party": raw["party"]}}
    assert unseal_setup(public, sealed) == raw


# -- carry between the battles of a set ---------------------------------------------------

def after_battle(save=True):
    """A finished battle: mc at 37 HP, sc knocked out, their stacks in every state."""
    mc = entity("mc", hp=37, items={"potion": Stack(count=2, durability=3), "bomb": Stack(count=0, durability=3),
                                    "elixir": Stack(count=1, durability=0)})
    sc = entity("sc", hp=0, max_hp=100, ko=True, ko_turn=3, items={"antidote": Stack(count=1, durability=1)})
    return battle([mc, sc], params=Params(save_between_battles=save))


def test_next_carry_keeps_hp_and_usable_stacks_and_saves_durability():
    carry = next_carry(None, {"stage": 1}, after_battle(), "party")
    # the empty bomb stack and the elixir at durability 0 are discarded; the save takes 1 durability
    assert carry == {"party": {"mc": {"hp": 37, "items": {"potion": {"count": 2, "durability": 2}}},
                               "sc": {"hp": 1, "items": {"antidote": {"count": 1, "durability": 0}}}},
                     "stage": 2}


def test_next_carry_without_a_save_keeps_durability():
    carry = next_carry(None, {}, after_battle(save=False), "party")
    assert carry["party"]["mc"]["items"] == {"potion": {"count": 2, "durability": 3}}
    assert carry["party"]["sc"]["items"] == {"antidote": {"count": 1, "durability": 1}}
    assert carry["stage"] == 1


def test_apply_carry_puts_hp_items_and_stage_into_the_next_setup():
    setup = setup_with({"member": "mc", "items": {"potion": {"count": 5, "durability": 3}}},
                       {"member": "scout"}, formation=["sewer_ambush", "beetle_burrow"])
    carry = {"party": {"mc": {"hp": 37, "items": {"potion": {"count": 2, "durability": 2}}}}, "stage": 1}
    parsed = parse_setup(apply_carry(setup, carry))
    mc, scout = parsed.party
    assert (mc.hp, mc.items) == (37, {"potion": Stack(count=2, durability=2)})
    assert (scout.hp, scout.items) == (None, {})
    assert (parsed.stage, parsed.formation) == (1, "beetle_burrow")
    # Ash's 150 max HP starts the battle at the carried 37
    assert (member_entity(mc, parsed.params).hp, member_entity(mc, parsed.params).max_hp) == (37, 150)


def test_no_carry_leaves_the_setup_as_it_is():
    setup = setup_with({"member": "mc"})
    assert apply_carry(setup, None) == setup
