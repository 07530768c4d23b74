"""Seed 000, Ability Pools: "Units can gain, lose, or replace their Ability Pools ... during
battle (via Abilities, Items, or Dynamics)", and grow their Pool Levels."""
from __future__ import annotations

from domain.rulesets.ring.commands import UseAbility, UseItem
from domain.rulesets.ring.content import CONTENT
from domain.rulesets.ring.events import PoolChanged, PoolReplaced
from domain.rulesets.ring.roster import loadout
from domain.rulesets.ring.state import PoolSlot

from .given import battle, of_type, play

TEAM = ("glimmer_moth", "grizzlor", "fang_shrike", "cinderhound")


def test_an_item_replaces_a_pool_at_the_same_level_and_the_slots_refill_from_it():
    given = battle(p1_team=TEAM, items={"p1": ["drill_manual"]})
    before = loadout(given.units["p1.glimmer_moth"])
    events, then = play(given, "p1", UseItem(item="drill_manual", target="p1.glimmer_moth"))
    assert of_type(events, PoolReplaced) == [PoolReplaced(unit="p1.glimmer_moth", pool="mender", into="warden")]
    moth = then.units["p1.glimmer_moth"]
    assert moth.pools == (PoolSlot("warden", 2), PoolSlot("hexer", 2), PoolSlot("pyre", 1))
    pools_before = [CONTENT.abilities[a].pool for a in before]
    pools_after = [CONTENT.abilities[a].pool for a in loadout(moth)]
    # One slot each (levels 2, 2, 1): the Mender slot is now a Warden slot.
    assert pools_before == ["mender", "hexer", "pyre"] and pools_after == ["warden", "hexer", "pyre"]
    assert loadout(moth)[1:] == before[1:]


def test_a_pool_already_there_or_missing_is_left_alone():
    given = battle(p1_team=TEAM, items={"p1": ["drill_manual"]})
    events, then = play(given, "p1", UseItem(item="drill_manual", target="p1.grizzlor"))   # has warden
    assert of_type(events, PoolReplaced) == [] and then.units["p1.grizzlor"].pools == given.units["p1.grizzlor"].pools
    events, _ = play(given, "p1", UseItem(item="drill_manual", target="p1.fang_shrike"))  # has no mender
    assert of_type(events, PoolReplaced) == []


def test_an_item_grants_a_new_pool_and_its_first_tier_fills_a_slot():
    given = battle(p1_team=TEAM, items={"p1": ["ember_scroll"]})
    events, then = play(given, "p1", UseItem(item="ember_scroll", target="p1.grizzlor"))
    assert of_type(events, PoolChanged) == [PoolChanged(unit="p1.grizzlor", pool="pyre", level=1)]
    grizzlor = then.units["p1.grizzlor"]
    assert grizzlor.pools[-1] == PoolSlot("pyre", 1)
    gained = [a for a in loadout(grizzlor) if a not in loadout(given.units["p1.grizzlor"])]
    assert len(gained) == 1 and CONTENT.abilities[gained[0]].pool == "pyre" and CONTENT.abilities[gained[0]].tier == 1
    events, _ = play(given, "p1", UseItem(item="ember_scroll", target="p1.fang_shrike"))   # has pyre already
    assert of_type(events, PoolChanged) == []


def test_an_ability_raises_its_users_pool_level_up_to_three():
    given = battle(p1_team=TEAM, units={"p1.glimmer_moth": {"priorities": ("deep_study",)}})
    assert "deep_study" in loadout(given.units["p1.glimmer_moth"])
    events, then = play(given, "p1", UseAbility(ability="deep_study"))
    # Hexer 2 + 1 (Normal) or + 2 (Critical): level 3 either way, the cap.
    assert of_type(events, PoolChanged) == [PoolChanged(unit="p1.glimmer_moth", pool="hexer", level=3)]
    assert then.units["p1.glimmer_moth"].pools[1] == PoolSlot("hexer", 3)
    assert len(loadout(then.units["p1.glimmer_moth"])) == len(loadout(given.units["p1.glimmer_moth"])) + 1
