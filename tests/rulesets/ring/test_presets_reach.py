"""The preset decks play what ring's content can do beyond HP damage: seeded bot battles
between the presets reach direct leader damage, LP loss, pool loss and disabled equipment,
each from the preset that carries it (README.md, "Presets and what they reach").

`matchups.mechanics_used` reads a battle's events (ring's `tally` for `ringside balance`): a `LeaderHpReduced` of an ability or item
(not of a strike), an `LpLost` that no KO brought, a `PoolLost`, an `EquipmentDisabled`.
"""
from __future__ import annotations

from functools import cache

import pytest

from domain.engine.hooks import EffectTriggered
from domain.rulesets.ring import events as ev
from domain.balance import play_plan, plan
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.matchups import MECHANICS, mechanics_used

# Which preset reaches which mechanic, and with what.
REACHED = {
    "ember_rush": {"leader_damage"},                            # Searing Brand (the drake's third Pyre slot)
    "green_circle": set(),
    "iron_wall": {"leader_damage"},                             # Searing Brand (the tortoise's second Pyre slot)
    "null_court": {"leader_damage", "lp_loss", "pool_loss"},   # Hex Effigy, Soul Needle, Mind Drain, Lethe Water
    "storm_runners": {"equipment_disabled"},                    # Disarm (the iron boar's second Brawler slot)
}


@cache
def mechanics_reached(bots: str) -> dict[str, set[str]]:
    """The mechanics each preset's side used, over a balance run of every ordered pair of
    presets, two battles each (16 battles a deck), `bots` on both seats."""
    fought = play_plan(plan(RULESET, [bots], 2, "presets-reach"))
    assert len(fought) == 40
    found: dict[str, set[str]] = {deck: set() for deck in REACHED}
    for f in fought:
        for side, counts in f.tallies.items():
            found[f.entries[side]] |= {m for m in MECHANICS if counts[m]}
    return found


@pytest.mark.parametrize("bots", ["greedy", "memory"])
def test_seeded_bot_battles_between_presets_reach_every_mechanic_from_the_preset_that_carries_it(bots):
    reached = mechanics_reached(bots)
    assert reached == REACHED
    assert set().union(*reached.values()) == set(MECHANICS)


def test_a_strikes_leader_damage_and_a_kos_lp_loss_are_not_the_mechanics():
    # Seed 000, KO'ing Enemy Units: a KO costs 1 LP and opens the leader to a strike; neither
    # is what an ability's `lp` or `leader_damage` step does.
    strike = [ev.LeaderStruck(seat="p1", ap=3), ev.ApSpent(seat="p1", amount=3),
              ev.LeaderHpReduced(seat="p2", amount=3, by="p1")]
    knockout = [ev.AbilityUsed(seat="p1", ability="haymaker", target=None, unit="p1.grizzlor"),
                ev.HpReduced(unit="p2.shellback", amount=40, by="p1.grizzlor", ability="haymaker"),
                ev.UnitKnockedOut(unit="p2.shellback"), ev.LpLost(unit="p2.shellback", amount=1)]
    assert mechanics_used(strike + knockout) == set()


def test_each_mechanic_is_credited_to_the_seat_whose_ability_or_item_did_it():
    brand = [ev.AbilityUsed(seat="p1", ability="searing_brand", target=None, unit="p1.sunflare_drake"),
             ev.LeaderHpReduced(seat="p2", amount=1, by="p1")]
    needle = [ev.ItemUsed(seat="p2", item="soul_needle", target=None),
              ev.HpReduced(unit="p1.grizzlor", amount=2, ability="soul_needle", kind="ability"),
              ev.LpLost(unit="p1.grizzlor", amount=1)]
    drain = [ev.AbilityUsed(seat="p2", ability="mind_drain", target=None, unit="p2.shadow_cat"),
             ev.PoolLost(unit="p1.grizzlor", pool="brawler")]
    disarm = [ev.AbilityUsed(seat="p1", ability="disarm", target=None, unit="p1.iron_boar"),
              ev.EquipmentDisabled(unit="p2.shadow_cat", equipment="focus_crystal", turns=1, pools=())]
    # a Soul Anchor that cancels the LP loss leaves no LpLost: nothing is lost
    anchored = [ev.ItemUsed(seat="p1", item="soul_needle", target=None),
                EffectTriggered(kind="soul_anchor", owner="d3", on="ring.LpLost", cancelled=True)]
    assert mechanics_used(brand + needle + drain + disarm + anchored) == {
        ("p1", "leader_damage"), ("p2", "lp_loss"), ("p2", "pool_loss"), ("p1", "equipment_disabled")}
