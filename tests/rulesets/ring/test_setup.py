"""Seed 000, Deck Construction: building and validating the decks of a ring setup.

Every refusal is a `SetupError` whose `field` names the offending field exactly, so a client
can point at it. Budgets follow README "Deck Construction, Spending GP" and "Buying Items".
"""
from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.engine.errors import SetupError
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.content import CONTENT
from domain.rulesets.ring.setup import parse_setup, seal_setup
from domain.rulesets.ring.state import Params

# Ten distinct units with no equipment, growth or items: 86 GP left over in all
# (8 + 9 + 8 + 9 + 10 + 11 + 7 + 6 + 9 + 9).
PLAIN_UNITS = ["grizzlor", "fang_shrike", "cinderhound", "ember_wisp", "moss_mother", "glimmer_moth", "shellback",
               "bastion_golem", "hex_lich", "shadow_cat"]
PLAIN_LEFTOVER = 86


def plain_deck() -> dict[str, Any]:
    return {"leader": "gale", "units": [{"unit": u} for u in PLAIN_UNITS], "items": []}


def setup_with(p1_deck: Any = None, **top: Any) -> dict[str, Any]:
    return {"p1": {"deck": p1_deck if p1_deck is not None else plain_deck()}, "p2": {"deck": "iron_wall"}, **top}


def refused(raw: dict[str, Any]) -> SetupError:
    with pytest.raises(SetupError) as caught:
        parse_setup(raw)
    return caught.value


def with_unit(i: int, **fields: Any) -> dict[str, Any]:
    """The plain deck with unit `i`'s entry changed."""
    deck = plain_deck()
    deck["units"][i].update(fields)
    return deck


# -- the presets ----------------------------------------------------------------------

@pytest.mark.parametrize("preset", sorted(CONTENT.decks))
def test_every_preset_parses_on_either_seat(preset):
    parsed = parse_setup({"p1": {"deck": preset}, "p2": {"deck": preset}})
    for seat in ("p1", "p2"):
        deck = parsed.decks[seat]
        assert deck == CONTENT.decks[preset]
        assert len(deck.units) == 10
        assert len({e.unit for e in deck.units}) == 10       # seed 000: 10 Units, no repeats
    assert parsed.condition == {"p1": {}, "p2": {}}
    assert parsed.battlefield is None
    assert parsed.params == Params()


def test_the_default_setup_pits_ember_rush_against_iron_wall():
    parsed = RULESET.parse_setup(RULESET.fresh_setup())
    assert (parsed.decks["p1"].leader, parsed.decks["p2"].leader) == ("ignis", "ironhelm")


def test_a_plain_deck_of_ten_distinct_units_is_accepted():
    parsed = parse_setup(setup_with(battlefield="windy_steppe", params={"max_turns": 40}))
    assert [e.unit for e in parsed.decks["p1"].units] == PLAIN_UNITS
    assert parsed.battlefield == "windy_steppe"
    assert parsed.params.max_turns == 40


# -- the shape of a deck ----------------------------------------------------------------

@pytest.mark.parametrize("count", [9, 11])
def test_a_deck_is_exactly_ten_units(count):
    deck = plain_deck()
    deck["units"] = deck["units"][:9] if count == 9 else deck["units"] + [{"unit": "rot_ogre"}]
    error = refused(setup_with(deck))
    assert error.field == "p1.deck.units"
    assert f"has {count} units; a deck has 10" in error.message


def test_the_deck_size_follows_params():
    deck = plain_deck()
    deck["units"] = deck["units"][:6]
    raw = {"p1": {"deck": deck}, "p2": {"deck": deck}, "params": {"deck_units": 6, "team_size": 4}}
    assert len(parse_setup(raw).decks["p1"].units) == 6
    assert refused({**raw, "params": {}}).field == "p1.deck.units"


def test_a_unit_cannot_appear_twice():
    error = refused(setup_with(with_unit(3, unit="grizzlor")))
    assert error.field == "p1.deck.units[3].unit"
    assert "grizzlor is already in the deck" in error.message


@pytest.mark.parametrize("fields, field", [
    ({"unit": "dragon"}, "p1.deck.units[2].unit"),
    ({"equipment": "excalibur"}, "p1.deck.units[2].equipment"),
    ({"priorities": ["fireball", "flying_kick"]}, "p1.deck.units[2].priorities[1]"),
    # a leader ability is not a unit ability
    ({"priorities": ["gust_strike"]}, "p1.deck.units[2].priorities[0]"),
    ({"growth": {"speed": 1}}, "p1.deck.units[2].growth.speed"),
    ({"growth": {"lp": 1}}, "p1.deck.units[2].growth.lp"),        # README: LP cannot be grown
    ({"growth": {"atk": -1}}, "p1.deck.units[2].growth.atk"),
    ({"levels": {"brawler": -1}}, "p1.deck.units[2].levels.brawler"),
    ({"wings": 2}, "p1.deck.units[2]"),
])
def test_unknown_or_wrong_entries_name_their_field(fields, field):
    assert refused(setup_with(with_unit(2, **fields))).field == field


def test_unknown_leader_and_items_name_their_field():
    deck = plain_deck()
    deck["leader"] = "merlin"
    assert refused(setup_with(deck)).field == "p1.deck.leader"
    deck = plain_deck()
    deck["items"] = ["potion", "elixir"]
    error = refused(setup_with(deck))
    assert error.field == "p1.deck.items[1]"
    assert "'elixir'" in error.message


def test_the_second_seat_is_checked_the_same_way():
    raw = {"p1": {"deck": "ember_rush"}, "p2": {"deck": with_unit(0, unit="dragon")}}
    assert refused(raw).field == "p2.deck.units[0].unit"


# -- Growth Points (seed 000, Spending Growth Points; README: 1 GP a step, 3 a slot, 6 a level)

def test_a_unit_may_spend_exactly_its_budget():
    # grizzlor has 8 GP: 1 extra mender slot (3) + 5 growth
    parsed = parse_setup(setup_with(with_unit(0, slots={"mender": 1}, growth={"atk": 3, "hp": 2})))
    assert parsed.decks["p1"].units[0].slots == {"mender": 1}


@pytest.mark.parametrize("fields, spent", [
    ({"growth": {"atk": 9}}, 9),
    ({"growth": {"atk": 3}, "levels": {"mender": 1}}, 9),      # 3 + 6
    ({"slots": {"brawler": 2}, "growth": {"def": 3}}, 9),     # 2 x 3 + 3
])
def test_spending_over_the_budget_names_the_unit_and_both_numbers(fields, spent):
    error = refused(setup_with(with_unit(0, **fields)))       # grizzlor: 8 GP
    assert error.field == "p1.deck.units[0]"
    assert error.message == f"setup.p1.deck.units[0]: spends {spent} GP; grizzlor has a budget of 8"


def test_gp_prices_follow_params():
    # a level at 2 GP instead of 6 fits grizzlor's 8 GP
    parsed = parse_setup(setup_with(with_unit(0, levels={"mender": 2}, growth={"atk": 4}),
                                    params={"gp_level_cost": 2}))
    assert parsed.decks["p1"].units[0].levels == {"mender": 2}
    assert refused(setup_with(with_unit(0, levels={"mender": 2}, growth={"atk": 4}))).field == "p1.deck.units[0]"


def test_a_pool_level_goes_up_to_three():
    # grizzlor's warden is level 2: +1 is fine (6 GP), +2 would be level 4
    assert parse_setup(setup_with(with_unit(0, levels={"warden": 1}))).decks["p1"].units[0].levels == {"warden": 1}
    error = refused(setup_with(with_unit(0, levels={"warden": 2})))
    assert error.field == "p1.deck.units[0].levels.warden"
    assert "up to 3" in error.message
    assert refused(setup_with(with_unit(0, levels={"brawler": 1}))).field == "p1.deck.units[0].levels.brawler"


@pytest.mark.parametrize("kind", ["levels", "slots"])
def test_levels_and_slots_only_for_pools_the_unit_has(kind):
    error = refused(setup_with(with_unit(0, **{kind: {"pyre": 1}})))    # grizzlor: brawler, warden, mender
    assert error.field == f"p1.deck.units[0].{kind}.pyre"
    assert "grizzlor has no 'pyre' pool" in error.message


def test_a_pool_given_by_equipment_can_be_grown():
    # Ember Gauntlet adds Pyre at level 1 (README: GP-bought levels come after equipment)
    parsed = parse_setup(setup_with(with_unit(0, equipment="ember_gauntlet", levels={"pyre": 1})))
    assert parsed.decks["p1"].units[0].levels == {"pyre": 1}
    # War Vestments turn Moss Mother's Mender into Warden: the Mender pool is gone
    error = refused(setup_with(with_unit(4, equipment="war_vestments", slots={"mender": 1})))
    assert error.field == "p1.deck.units[4].slots.mender"


def test_at_most_three_extra_slots_per_pool():
    error = refused(setup_with(with_unit(0, slots={"brawler": 4})))
    assert error.field == "p1.deck.units[0].slots.brawler"
    assert "at most 3 extra slots" in error.message
    assert refused(setup_with(with_unit(0, slots={"brawler": 2}), params={"max_extra_slots": 1})).field \
        == "p1.deck.units[0].slots.brawler"


# -- Buying Items: the pooled leftover GP --------------------------------------------------

def test_items_may_cost_exactly_the_pooled_leftover():
    deck = plain_deck()
    deck["items"] = ["hi_potion"] * 21 + ["potion"]          # 84 + 2 = 86
    assert len(parse_setup(setup_with(deck)).decks["p1"].items) == 22


def test_items_costing_more_than_the_leftover_are_refused():
    deck = plain_deck()
    deck["items"] = ["hi_potion"] * 21 + ["potion", "smelling_salts"]     # 87 GP
    error = refused(setup_with(deck))
    assert error.field == "p1.deck.items"
    assert error.message == f"setup.p1.deck.items: the items cost 87 GP; the deck has {PLAIN_LEFTOVER} GP left over"


def test_gp_spent_on_growth_is_not_left_for_items():
    deck = with_unit(0, growth={"atk": 8})                    # grizzlor spends all 8 of its GP
    deck["items"] = ["hi_potion"] * 20                         # 80 GP > 78 left
    error = refused(setup_with(deck))
    assert error.message.endswith("the items cost 80 GP; the deck has 78 GP left over")


# -- condition (what a set carries over) ---------------------------------------------------

def test_a_condition_sets_lp_and_exs_of_deck_units():
    raw = setup_with()
    raw["p1"]["condition"] = {"grizzlor": {"lp": 1, "exs": 1500}, "shellback": {"exs": 3000}}
    parsed = parse_setup(raw)
    # a missing lp is the unit's full LP (shellback has 4)
    assert parsed.condition["p1"] == {"grizzlor": {"lp": 1, "exs": 1500}, "shellback": {"lp": 4, "exs": 3000}}


@pytest.mark.parametrize("condition, field", [
    ({"grizzlor": {"lp": 4}}, "p1.condition.grizzlor.lp"),         # more than its 3 LP
    ({"grizzlor": {"lp": -1}}, "p1.condition.grizzlor.lp"),
    ({"grizzlor": {"lp": True}}, "p1.condition.grizzlor.lp"),
    ({"grizzlor": {"exs": 10_001}}, "p1.condition.grizzlor.exs"),
    ({"grizzlor": {"exs": -5}}, "p1.condition.grizzlor.exs"),
    ({"grizzlor": {"exs": 1.5}}, "p1.condition.grizzlor.exs"),
    ({"grizzlor": {"hp": 3}}, "p1.condition.grizzlor"),
    ({"rot_ogre": {"lp": 1}}, "p1.condition.rot_ogre"),            # not in this deck
])
def test_a_bad_condition_names_its_field(condition, field):
    raw = setup_with()
    raw["p1"]["condition"] = condition
    assert refused(raw).field == field


# -- the rest of the setup -------------------------------------------------------------

@pytest.mark.parametrize("raw, field", [
    (setup_with(battlefield="moon_base"), "battlefield"),
    (setup_with("no_such_preset"), "p1.deck"),
    (setup_with(weather="rain"), "weather"),
    ({"p1": {"deck": "ember_rush"}}, "p2"),
    ({"p1": {"deck": "ember_rush", "mood": 1}, "p2": {"deck": "iron_wall"}}, "p1.mood"),
    (setup_with(params={"team_size": 0}), "params.team_size"),
    (setup_with(params={"team_size": 11}), "params.team_size"),
    (setup_with(params={"max_turns": 1}), "params.max_turns"),
    (setup_with(params={"initiative_die": 1}), "params.initiative_die"),
    (setup_with(params={"bench_damage_bp": -1}), "params.bench_damage_bp"),
    (setup_with(params={"max_turns": "many"}), "params.max_turns"),
    (setup_with(params={"speed": 2}), "params.speed"),
])
def test_the_rest_of_a_setup_is_checked(raw, field):
    assert refused(raw).field == field


# -- sealing: an inventory is its seat's secret (README: Hidden information) --------------

def test_the_public_setup_has_no_items_and_the_sealed_part_has_them():
    raw = {"p1": {"deck": "ember_rush", "condition": {"grizzlor": {"lp": 2}}}, "p2": {"deck": "iron_wall"},
           "battlefield": "volcano_rim"}
    public, sealed = seal_setup(copy.deepcopy(raw))
    assert "items" not in public["p1"]["deck"] and "items" not in public["p2"]["deck"]
    assert public["p1"]["deck"]["leader"] == "ignis"
    assert len(public["p1"]["deck"]["units"]) == 10
    assert public["p1"]["condition"] == {"grizzlor": {"lp": 2}}
    assert public["battlefield"] == "volcano_rim"
    assert sealed == {"p1": {"items": ["fire_bomb", "potion", "ether", "war_horn"]},
                      "p2": {"items": ["potion", "potion", "hi_potion", "venom_vial", "smelling_salts"]}}


def test_unsealing_gives_back_the_same_decks():
    raw = {"p1": {"deck": "null_court"}, "p2": {"deck": with_unit(0, growth={"atk": 2})}}
    raw["p2"]["deck"]["items"] = ["potion", "ether"]
    public, sealed = RULESET.sealing.seal(copy.deepcopy(raw))
    again = parse_setup(RULESET.sealing.unseal(public, sealed))
    original = parse_setup(raw)
    assert again.decks == original.decks
    assert again.decks["p2"].items == ("potion", "ether")


def test_a_public_setup_alone_parses_with_empty_inventories():
    public, _ = seal_setup({"p1": {"deck": "ember_rush"}, "p2": {"deck": "iron_wall"}})
    parsed = parse_setup(public)
    assert (parsed.decks["p1"].items, parsed.decks["p2"].items) == ((), ())


def test_a_setup_parsed_again_is_the_one_parse_of_it():
    """Given the default setup and one of other presets, when each is parsed twice, then the
    second parse is the first one's result, equal to a parse made afresh."""
    from domain.rulesets.ring.setup import DEFAULT_SETUP, _parse_setup, parse_setup
    for raw in (DEFAULT_SETUP, {"p1": {"deck": "iron_wall"}, "p2": {"deck": "ember_rush"}, "battlefield": None}):
        first = parse_setup(raw)
        assert parse_setup(dict(raw)) is first
        assert first == _parse_setup(raw)
