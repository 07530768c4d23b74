"""Seed 000, Deck Construction: a deck entry becomes a unit in battle (`roster.build_fighter`).

Growth Points, equipment, pools and slots, ability priorities, EXS, LP from the carried
condition and (off in the alpha) linear variation, with exact numbers.
"""
from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.engine.errors import SetupError
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.content import CONTENT, DeckUnit, playing
from domain.rulesets.ring.events import DeckBuilt
from domain.rulesets.ring.roster import _loadout, build_fighter, loadout
from domain.rulesets.ring.setup import parse_setup
from domain.rulesets.ring.state import Params, PoolSlot
from domain.rulesets.ring.targets import eligible

from .given import of_type, started

UNITS = ["grizzlor", "fang_shrike", "cinderhound", "ember_wisp", "moss_mother", "glimmer_moth", "shellback",
         "bastion_golem", "hex_lich", "shadow_cat"]


def built(unit: str, *, params: Params | None = None, exs: int = 0, lp: int | None = None, **entry):
    return build_fighter("p1", DeckUnit(unit=unit, **entry), params or Params(), exs=exs, lp=lp)


def plain_setup(condition=None, **params):
    raw = {"p1": {"deck": {"leader": "gale", "units": [{"unit": u} for u in UNITS]}}, "p2": {"deck": "iron_wall"}}
    if condition:
        raw["p1"]["condition"] = condition
    if params:
        raw["params"] = params
    return raw


# -- Growing attributes: 1 GP = +10% of the base, rounded down once ------------------------

def test_growth_adds_a_tenth_of_the_base_per_gp_and_rounds_down_once():
    # Fang Shrike HP 95: 3 GP -> 95 x 1.3 = 123.5 -> 123 (rounding each GP would give 122,
    # compounding 125)
    assert built("fang_shrike", growth={"hp": 3}).max_hp == 123
    assert built("fang_shrike", growth={"hp": 1}).max_hp == 104          # 104.5


def test_each_attribute_grows_on_its_own():
    g = built("grizzlor", growth={"hp": 2, "atk": 2, "mp": 1})
    assert (g.max_hp, g.hp, g.max_mp, g.mp) == (180, 180, 27, 27)         # 150 x 1.2, 25 x 1.1 = 27.5
    assert g.base == {"atk": 84, "def": 60, "skl": 45, "pry": 40}        # 70 x 1.2


def test_growth_per_gp_follows_params():
    assert built("grizzlor", params=Params(gp_growth_bp=2000), growth={"atk": 1}).base["atk"] == 84


def test_equipment_raises_the_base_that_growth_multiplies():
    # seed 000, Equipment Attributes: Bloodstone +6 ATK first, then 3 GP: 86 x 1.3 = 111.8 -> 111
    # (growing 80 first and adding 6 after would give 110)
    assert built("fang_shrike", equipment="bloodstone").base["atk"] == 86
    assert built("fang_shrike", equipment="bloodstone", growth={"atk": 3}).base["atk"] == 111


def test_equipment_attributes_tags_and_name():
    g = built("grizzlor", equipment="iron_plate")
    assert g.base == {"atk": 70, "def": 70, "skl": 42, "pry": 40}        # +10 DEF, -3 SKL
    assert g.tags == ("hairy", "giant", "eared", "armored")
    assert g.equipment == "iron_plate"
    # a tag the unit already has is not added twice
    assert built("cinderhound", equipment="ember_cloak").tags == ("fiery", "hairy", "eared")
    assert built("grizzlor", equipment="hex_tome").max_mp == 35          # +10 MP


# -- pools and slots ----------------------------------------------------------------------

@pytest.mark.parametrize("level, extra, slots", [(1, 0, 1), (2, 0, 1), (3, 0, 2), (1, 2, 3), (3, 1, 3)])
def test_slots_by_level_two_at_level_three_one_below_plus_extra(level, extra, slots):
    assert PoolSlot("brawler", level, extra).slots == slots


def test_a_units_own_pools_enter_at_their_content_levels():
    assert built("grizzlor").pools == (PoolSlot("brawler", 3), PoolSlot("warden", 2), PoolSlot("mender", 1))


def test_gp_buys_pool_levels_and_extra_slots():
    g = built("grizzlor", levels={"warden": 1}, slots={"mender": 1})
    assert g.pools == (PoolSlot("brawler", 3), PoolSlot("warden", 3), PoolSlot("mender", 1, 1))
    assert [p.slots for p in g.pools] == [2, 2, 2]


@pytest.mark.parametrize("unit, equipment, pools", [
    # replace: Iron Knuckles turn Warden into Brawler at the same level
    ("salamander", "iron_knuckles", [("pyre", 2), ("brawler", 2), ("mender", 1)]),
    # add: Hex Tome adds Hexer 1 after the others...
    ("grizzlor", "hex_tome", [("brawler", 3), ("warden", 2), ("mender", 1), ("hexer", 1)]),
    # ...and keeps a Hexer pool already there as it is
    ("hex_lich", "hex_tome", [("hexer", 3), ("pyre", 2), ("mender", 1)]),
    # upgrade "lowest": the first of the lowest on a tie (pyre 1 before hexer 1)
    ("fang_shrike", "training_belt", [("brawler", 3), ("pyre", 2), ("hexer", 1)]),
    ("moss_mother", "training_belt", [("mender", 3), ("warden", 2), ("hexer", 2)]),
    # upgrade "third": the third pool, nothing for a unit with two
    ("grizzlor", "third_eye_circlet", [("brawler", 3), ("warden", 2), ("mender", 2)]),
    ("magma_tortoise", "third_eye_circlet", [("warden", 3), ("pyre", 2)]),
    # upgrade a named pool: only if the unit has it, and never past 3
    ("lantern_spirit", "focus_crystal", [("mender", 3), ("hexer", 2), ("warden", 1)]),
    ("hex_lich", "focus_crystal", [("hexer", 3), ("pyre", 2), ("mender", 1)]),
    ("grizzlor", "focus_crystal", [("brawler", 3), ("warden", 2), ("mender", 1)]),
])
def test_equipment_adds_replaces_and_upgrades_pools(unit, equipment, pools):
    assert [(p.pool, p.level) for p in built(unit, equipment=equipment).pools] == pools


def test_extra_slots_from_equipment_go_on_every_pool():
    g = built("grizzlor", equipment="lore_satchel")
    assert g.pools == (PoolSlot("brawler", 3, 1), PoolSlot("warden", 2, 1), PoolSlot("mender", 1, 1))
    assert [p.slots for p in g.pools] == [3, 2, 2]


def test_gp_levels_come_after_equipment():
    # Training Belt lifts mender 1 -> 2, then 1 bought level -> 3 (two slots)
    g = built("grizzlor", equipment="training_belt", levels={"mender": 1})
    assert g.pools[2] == PoolSlot("mender", 3)
    # a pool only equipment gives can be levelled
    assert built("grizzlor", equipment="ember_gauntlet", levels={"pyre": 1}).pools[3] == PoolSlot("pyre", 2)


def test_no_pool_goes_past_level_three_when_equipment_replaces_into_a_pool_the_unit_has():
    # Moss Mother: mender 3, warden 2. War Vestments turn Mender into Warden (level 3); the
    # setup checks the bought level against warden 2 and accepts it.
    raw = {"p1": {"deck": {"leader": "gale", "units": [
        {"unit": "moss_mother", "equipment": "war_vestments", "levels": {"warden": 1}},
        *({"unit": u} for u in UNITS if u != "moss_mother")]}},
        "p2": {"deck": "iron_wall"}}
    try:
        parse_setup(raw)
    except SetupError as refused:
        assert refused.field == "p1.deck.units[0].levels.warden"
        return
    pools = built("moss_mother", equipment="war_vestments", levels={"warden": 1}).pools
    assert max(p.level for p in pools) <= 3                # seed 000: Pool Levels 1-3
    assert len({p.pool for p in pools}) == len(pools)


# -- Ability Slots: filled by priority, then highest tier first ----------------------------

def test_without_priorities_slots_take_the_highest_tier_first_in_content_order():
    # brawler 3 (2 slots): the first two tier-3 abilities; warden 2: its first tier-2;
    # mender 1: its first tier-1
    assert loadout(built("grizzlor")) == ("heavy_slap", "double_slap", "ember_ward", "soothe")


def test_priorities_fill_each_pools_slots_first():
    # guard is warden tier 3 (above warden's level 2) and fireball is a pool grizzlor lacks:
    # both are skipped; the free mender slot falls back to the default order
    g = built("grizzlor", priorities=("haymaker", "jab", "shield_bash", "guard", "fireball"))
    assert loadout(g) == ("haymaker", "jab", "shield_bash", "soothe")


def test_a_priority_lower_in_the_list_loses_to_a_higher_one_for_a_single_slot():
    g = built("grizzlor", priorities=("rebuke", "shield_bash"))
    assert loadout(g)[2] == "rebuke"


def test_extra_slots_take_the_next_abilities():
    assert loadout(built("grizzlor", slots={"mender": 1})) == ("heavy_slap", "double_slap", "ember_ward", "soothe",
                                                               "calm")
    assert loadout(built("grizzlor", equipment="lore_satchel")) == (
        "heavy_slap", "double_slap", "stun_slap", "ember_ward", "flame_mantle", "soothe", "calm")


def test_a_higher_level_opens_higher_tiers():
    g = built("grizzlor", levels={"warden": 1}, priorities=("guard",))
    assert "guard" in loadout(g)


def test_a_loadout_found_by_the_pools_object_is_the_one_its_priorities_and_content_give():
    # loadout keeps answers by the identity of a fighter's pools: two fighters sharing that
    # object with other priorities, or another release's content, never read each other's
    g = built("grizzlor")
    reordered = replace(g, priorities=("haymaker", "jab", "shield_bash"))
    assert reordered.pools is g.pools
    for _ in range(2):
        assert loadout(g) == ("heavy_slap", "double_slap", "ember_ward", "soothe")
        assert loadout(reordered) == ("haymaker", "jab", "shield_bash", "soothe")
    older = RULESET.releases.content_of("1.0.0")
    with playing(older):
        assert loadout(g) == _loadout(older, g.pools, g.priorities)
    assert loadout(g) == _loadout(CONTENT, g.pools, g.priorities)


# -- EXS: a % reduction of every numeric attribute but LP -----------------------------------

def test_exs_lowers_max_hp_and_mp_at_battle_start_and_every_combat_attribute():
    g = built("grizzlor", exs=1500)
    assert (g.max_hp, g.hp, g.max_mp, g.mp) == (127, 127, 21, 21)       # 150 x .85 = 127.5, 25 x .85
    assert (g.lp, g.max_lp, g.exs) == (3, 3, 1500)
    assert g.base == {"atk": 70, "def": 60, "skl": 45, "pry": 40}        # kept; EXS applies in `stat`
    assert [g.stat(a) for a in ("atk", "def", "skl", "pry")] == [59, 51, 38, 34]


def test_augments_are_exhausted_too_and_nothing_drops_below_one():
    g = built("grizzlor", exs=5000)
    assert replace(g, aug={"atk": 10}).stat("atk") == 40                 # (70 + 10) x .5
    spent = built("grizzlor", exs=10_000)
    assert spent.max_hp == 1
    assert [spent.stat(a) for a in ("atk", "def", "skl", "pry")] == [1, 1, 1, 1]


# -- entering a battle: condition and linear variation ---------------------------------------

def test_lp_and_exs_come_from_the_carried_condition():
    _, state = started(plain_setup({"grizzlor": {"lp": 1, "exs": 1500}}))
    g = state.units["p1.grizzlor"]
    assert (g.lp, g.max_lp, g.hp, g.max_hp, g.exs) == (1, 3, 127, 127, 1500)
    # units without a condition enter fresh
    f = state.units["p1.fang_shrike"]
    assert (f.lp, f.hp, f.exs) == (3, 95, 0)


def test_a_unit_at_zero_lp_enters_removed_and_cannot_be_picked():
    _, state = started(plain_setup({"grizzlor": {"lp": 0}}))
    g = state.units["p1.grizzlor"]
    assert (g.lp, g.hp, g.removed, g.ko) == (0, 0, True, False)
    assert "p1.grizzlor" in state.down
    assert "p1.grizzlor" not in eligible(state, "p1")
    assert len(eligible(state, "p1")) == 9


def test_linear_variation_is_off_by_default():
    events, state = started(plain_setup())
    decks = of_type(events, DeckBuilt)
    assert [d.variation for d in decks] == [{}, {}]
    assert state.units["p1.grizzlor"] == built("grizzlor")
    assert state.units["p1.fang_shrike"].max_hp == CONTENT.units["fang_shrike"].attributes["hp"]


def test_linear_variation_shifts_every_attribute_and_is_recorded():
    events, state = started(plain_setup(linear_variation=True))
    variation = of_type(events, DeckBuilt)[0].variation
    assert sorted(variation) == sorted(UNITS)
    assert all(sorted(v) == ["atk", "def", "hp", "mp", "pry", "skl"] for v in variation.values())
    assert all(-1000 <= bp <= 1000 for v in variation.values() for bp in v.values())
    # seed b"x": grizzlor's own numbers shift before anything else
    assert variation["grizzlor"] == {"hp": -203, "mp": 89, "atk": -399, "def": 572, "skl": -931, "pry": 51}
    g = state.units["p1.grizzlor"]
    assert (g.max_hp, g.max_mp) == (146, 25)                                # 150 x .9797, 25 x 1.0089
    assert g.base == {"atk": 67, "def": 63, "skl": 40, "pry": 40}
    # the other deck varies too
    assert len(of_type(events, DeckBuilt)[1].variation) == 10


def test_linear_variation_with_no_spread_changes_nothing():
    events, state = started(plain_setup(linear_variation=True, linear_spread_bp=0))
    assert [d.variation for d in of_type(events, DeckBuilt)] == [{}, {}]
    assert state.units["p1.grizzlor"] == built("grizzlor")


def test_pools_and_base_kept_per_unit_and_equipment_are_what_working_them_out_gives():
    from domain.rulesets.ring.roster import _base, _shape, equipped_base, equipped_pools
    for rules in (CONTENT, RULESET.releases.content_of("1.0.0")):
        with playing(rules):
            for unit_id in rules.units:
                for equipment in (None, *rules.equipment.values()):
                    assert equipped_pools(unit_id, equipment) == [p for p, _ in _shape(rules, unit_id, equipment)]
                    assert equipped_base(unit_id, equipment, {}) == _base(rules, unit_id, equipment, {})
    handed_out = equipped_base("grizzlor", None, {})
    handed_out["atk"] = -1                                    # a copy: what is kept stays as it was
    assert equipped_base("grizzlor", None, {})["atk"] == _base(CONTENT, "grizzlor", None, {})["atk"] > 0


def test_a_kept_fighter_is_the_one_building_it_gives_and_each_event_gets_its_own_copy():
    from domain.rulesets.ring.start import fighter_json
    from domain.rulesets.ring.setup import as_json, deck_json
    for rules in (CONTENT, RULESET.releases.content_of("1.0.0")):
        with playing(rules):
            for name, deck in rules.decks.items():
                assert deck_json(name) == as_json(deck) and deck_json(name) is not deck_json(name)
                for entry in deck.units:
                    for lp, exs in ((None, 0), (1, 2500)):
                        built = as_json(build_fighter("p2", entry, Params(), lp=lp, exs=exs))
                        for _ in range(2):                  # built, then kept
                            assert fighter_json("p2", entry, Params(), lp=lp, exs=exs, variation={}) == built
    first = fighter_json("p1", entry, Params(), lp=None, exs=0, variation={})
    first["hp"] = -1
    assert fighter_json("p1", entry, Params(), lp=None, exs=0, variation={})["hp"] > 0
