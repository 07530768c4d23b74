"""The mechanics beyond HP damage as the preset decks carry them (README.md, "Presets and what
they reach"): each preset unit is built from its deck entry (equipment, growth, bought slots
and levels), one command runs through `decide`, and the events and the state they fold to
are exact.

Given / when / then; the effectiveness roll is the command's first draw (`build.seed_drawing`).
"""
from __future__ import annotations

from msgspec.structs import replace

from domain.rulesets.ring import events as ev
from domain.rulesets.ring.commands import UseAbility, UseItem
from domain.rulesets.ring.content import CONTENT
from domain.rulesets.ring.roster import build_fighter, loadout
from domain.rulesets.ring.state import Fighter, Params, PoolSlot

from .build import HIGH, MID, of, ring, run, seed_drawing, unit


def preset(seat: str, deck: str, unit_id: str) -> Fighter:
    """A unit as its preset deck brings it into battle."""
    entry = next(e for e in CONTENT.decks[deck].units if e.unit == unit_id)
    return build_fighter(seat, entry, Params())


def test_the_presets_slot_the_abilities_and_pack_the_items_that_reach_the_mechanics():
    # Seed 000, Ability Slots: a pool's slots hold the highest-priority abilities its level allows.
    # Ember Rush's drake: Pyre 3 has 2 slots and the Lorekeeper's Satchel a third: Searing Brand.
    assert loadout(preset("p1", "ember_rush", "sunflare_drake"))[:3] == ("fireball", "blaze_lance", "searing_brand")
    # Null Court's shadow cat: the Focus Crystal lifts Hexer 2 to 3, so tier-3 Mind Drain fits.
    cat = preset("p1", "null_court", "shadow_cat")
    assert (cat.pools[1], loadout(cat)) == (PoolSlot("hexer", 3), ("skull_crack", "mind_drain", "brittle_hex", "spark"))
    # Storm Runners' iron boar: a GP-bought second Brawler slot holds Disarm beside War Cry.
    assert loadout(preset("p1", "storm_runners", "iron_boar"))[:2] == ("war_cry", "disarm")
    assert {"hex_effigy", "soul_needle", "lethe_water"} <= set(CONTENT.decks["null_court"].items)


def test_searing_brand_takes_leader_hp_whatever_stands_in_the_enemy_ring():
    # Seed 000, Choosing a Leader: "Some rare and powerful Abilities and Dynamic Rules may reduce
    # (or restore) a leader's HP directly." No KO needed: p2's grizzlor stands in its Ring.
    given = ring([preset("p1", "ember_rush", "sunflare_drake")], [unit("p2", "grizzlor")])
    events, then = run(given, "p1", UseAbility(ability="searing_brand"), MID)
    assert of(events, ev.LeaderHpReduced) == [ev.LeaderHpReduced(seat="p2", amount=1, by="p1")]    # Normal: 1
    assert (then.p2.leader_hp, then.p1.ap, then.units["p1.sunflare_drake"].mp) == (26, 6, 62)     # 27 - 1, 10 - 4, 70 - 8


def test_a_critical_searing_brand_on_a_leader_with_2_hp_ends_the_battle():
    # Seed 000, KO'ing Enemy Units: "When the enemy leader reaches 0 HP, the ally team wins."
    given = ring([preset("p1", "ember_rush", "sunflare_drake")], [unit("p2", "grizzlor")])
    given = given.with_side("p2", replace(given.p2, leader_hp=2))
    events, then = run(given, "p1", UseAbility(ability="searing_brand"), HIGH)
    assert of(events, ev.LeaderHpReduced) == [ev.LeaderHpReduced(seat="p2", amount=2, by="p1")]    # Critical: 2
    assert then.p2.leader_hp == 0 and then.over()


def test_a_soul_needle_takes_one_lp_and_the_last_lp_removes_the_unit():
    # Seed 000, LP: "may also rarely be reduced by other Abilities, Dynamics, etc." and "at '0',
    # the Unit is removed from the Team and Deck." Null Court's Soul Needle: 2 HP, then 1 LP.
    given = ring([preset("p1", "null_court", "shadow_cat")], [unit("p2", "grizzlor")], items={"p1": ["soul_needle"]})
    events, then = run(given, "p1", UseItem(item="soul_needle"))
    assert of(events, ev.LpLost) == [ev.LpLost(unit="p2.grizzlor", amount=1)]
    assert (then.units["p2.grizzlor"].hp, then.units["p2.grizzlor"].lp) == (148, 2)            # 150 - 2, 3 - 1
    last = ring([preset("p1", "null_court", "shadow_cat")], [unit("p2", "grizzlor", lp=1)],
                items={"p1": ["soul_needle"]})
    events, then = run(last, "p1", UseItem(item="soul_needle"))
    assert [type(e) for e in events[-2:]] == [ev.LpLost, ev.UnitRemoved]
    assert then.units["p2.grizzlor"].removed and "p2.grizzlor" in then.down


def test_mind_drain_takes_the_highest_pool_and_the_abilities_it_slotted():
    # Seed 000, Ability Pools: units "can gain, lose, or replace their Ability Pools". Null
    # Court's cat (SKL 80) on Storm Runners' grizzlor (PRY 40): 15 / 0 / 85%, a Critical.
    given = ring([preset("p1", "null_court", "shadow_cat")], [preset("p2", "storm_runners", "grizzlor")])
    assert loadout(given.units["p2.grizzlor"]) == ("heavy_slap", "haymaker", "ember_ward", "soothe")
    events, then = run(given, "p1", UseAbility(ability="mind_drain"), HIGH)
    assert of(events, ev.PoolLost) == [ev.PoolLost(unit="p2.grizzlor", pool="brawler")]         # Brawler 3, the highest
    assert loadout(then.units["p2.grizzlor"]) == ("ember_ward", "soothe")
    assert then.units["p1.shadow_cat"].mp == 35                                                  # 45 - 10


def test_disarm_takes_the_crystals_level_and_mind_drain_with_it():
    # Seed 000, Add, Replace, or Upgrade Ability Pools: "any equipped Abilities which belong to an
    # augmented pool may become inaccessible in the case that that Equipment is removed or
    # otherwise disabled (perhaps by an Ability in combat)." Storm Runners' boar (SKL 45) on Null
    # Court's cat (PRY 75) is 61.66 / 23.34 / 15%; a draw of 7,000-7,999 is Normal: 1 turn.
    given = ring([preset("p1", "storm_runners", "iron_boar")], [preset("p2", "null_court", "shadow_cat")])
    events, then = run(given, "p1", UseAbility(ability="disarm"), seed_drawing((7_000, 8_000)))
    bare = (PoolSlot("brawler", 2), PoolSlot("hexer", 2), PoolSlot("pyre", 1))
    assert of(events, ev.EquipmentDisabled) == [
        ev.EquipmentDisabled(unit="p2.shadow_cat", equipment="focus_crystal", turns=1, pools=bare)]
    assert of(events, ev.HpReduced)[0].amount == 6                                               # 3 x 81 / 40 = 6.075
    assert loadout(then.units["p2.shadow_cat"]) == ("skull_crack", "brittle_hex", "spark")
    assert then.units["p2.shadow_cat"].mp == 45                                                  # the +5 MP stays
