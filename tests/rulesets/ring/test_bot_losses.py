"""How ring's bots value what a step takes beyond a unit's HP (`bots/losses.py`): the enemy
leader's HP, a unit's LP, its Ability Pools and its equipment while disabled. They pick these
abilities and items when they are worth more than the alternatives.

Each test builds the state, reads it through the seat's view and asserts the exact score of
a command (an ability scores its value less 1.5 per AP, an item its value less 6) or the
command the bot picks.
"""
from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from domain.ai.memory import Memory
from domain.engine.events import Viewer
from domain.engine.rng import Rng
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.bots.losses import lp_change, pools_lost
from domain.rulesets.ring.bots.memory import MemoryPolicy, Recall
from domain.rulesets.ring.bots.reading import Reading
from domain.rulesets.ring.bots.value import ValuePolicy, score
from domain.rulesets.ring.content import DeckUnit
from domain.rulesets.ring.roster import build_fighter, unequipped_pools
from domain.rulesets.ring.state import DisabledEquipment, Params, Ring

from .build import dyn, ring, unit


def seen_by(s: Ring, seat: str = "p1") -> dict[str, Any]:
    return RULESET.view(s, Viewer(seat=seat))


def scores(s: Ring) -> dict[str, float]:
    """Each legal command's score for p1, by its ability, item or type."""
    read = Reading(seen_by(s))
    legal = [RULESET.codec.wire(c) for c in RULESET.legal_commands(s, "p1")]
    return {c.get("ability") or c.get("item") or c["type"]: round(score(read, c), 4) for c in legal}


def pick(s: Ring) -> dict[str, Any]:
    """The greedy bot's command for p1."""
    legal = [RULESET.codec.wire(c) for c in RULESET.legal_commands(s, "p1")]
    return ValuePolicy().choose(seen_by(s), legal, Rng(b"bots"))


def with_leader_hp(s: Ring, seat: str, hp: int) -> Ring:
    return s.with_side(seat, replace(s.side(seat), leader_hp=hp))


# -- the enemy leader's HP -----------------------------------------------------------------------

def brand_or_fireball() -> Ring:
    """Cinderhound (ATK 72, SKL 60) can Fireball or Searing Brand; p2's grizzlor (DEF 60,
    PRY 40) stands in the Ring, Captain Gale (27 HP) leads p2."""
    return ring([unit("p1", "cinderhound", abilities=("fireball", "searing_brand"))], [unit("p2", "grizzlor")])


def test_searing_brand_is_worth_its_share_of_the_enemy_leaders_hp():
    # Seed 000, Choosing a Leader: "Some rare and powerful Abilities ... may reduce ... a
    # leader's HP directly." Searing Brand takes 0 / 1 / 2 HP; with no enemy unit as its
    # target, SKL meets itself (15 / 70 / 15%). An HP is worth 300 / the 27 HP Gale has:
    # (.7 x 1 + .15 x 2) x 300 / 27 = 11.1111, less 4 AP x 1.5 = 5.1111.
    # Fireball: 10 / 15 / 20 power x 72 / 60 = 12 / 18 / 24 HP at 15 / 35 / 50%
    # (SKL 60 : PRY 40) = 20.1, less 4.5 = 15.6: the better use of the turn.
    given = brand_or_fireball()
    assert scores(given) == {"fireball": 15.6, "searing_brand": 5.1111, "gust_strike": 0.2, "end_turn": 0.0}
    assert pick(given)["ability"] == "fireball"


def test_searing_brand_finishes_a_leader_its_hit_can_take_down():
    # Gale at 2 HP: Normal's 1 HP is 300 x 1 / 2 = 150, a Critical's 2 HP is the battle
    # (1000): .7 x 150 + .15 x 1000 = 255, less 6 = 249.
    given = with_leader_hp(brand_or_fireball(), "p2", 2)
    assert scores(given)["searing_brand"] == 249.0
    assert pick(given)["ability"] == "searing_brand"


@pytest.mark.parametrize("hp, ap, value", [
    (27, 5, 55.5556),           # 300 x 5 / 27
    (10, 5, 150.0),             # 300 x 5 / 10: the same strike is worth more on a weaker leader
    (5, 5, 1000.0),             # the leader's last HP: the battle
])
def test_a_strike_is_worth_its_share_of_the_enemy_leaders_hp(hp, ap, value):
    # p1 has just knocked out p2's Ring unit: its leader is open this turn.
    given = with_leader_hp(ring([unit("p1", "grizzlor")], [unit("p2", "shellback", hp=0, ko=True)],
                                strike_open="p1"), "p2", hp)
    assert round(score(Reading(seen_by(given)), {"type": "strike_leader", "ap": ap}), 4) == value


# -- LP ------------------------------------------------------------------------------------------

def soul_needle_on(**grizzlor: Any) -> Ring:
    """p1 holds a Soul Needle (2 HP ignoring DEF, then 1 LP); p2's grizzlor is in the Ring."""
    return ring([unit("p1", "cinderhound")], [unit("p2", "grizzlor", **grizzlor)], items={"p1": ["soul_needle"]})


@pytest.mark.parametrize("grizzlor, value", [
    # 3 LP: 2 HP, and 1 LP is a third of the 30 all its LP are worth: 2 + 10 = 12, less 6.
    ({}, 6.0),
    # Its last LP (seed 000, LP: "at '0', the Unit is removed from the Team and Deck"): the
    # 148 HP the prick leaves it and 60 more than any HP: 2 + 148 + 60 = 210, less 6.
    ({"lp": 1}, 204.0),
    # 2 HP left: the prick knocks it out (2 HP + a KO's 40), and the KO's LP is all it loses
    # (seed 000, HP: "a KO'd Unit cannot be targeted for HP or LP damage"): 42, less 6.
    ({"lp": 1, "hp": 2}, 36.0),
])
def test_lp_damage_is_worth_its_share_of_the_lp_left_and_the_last_lp_is_the_unit(grizzlor, value):
    assert scores(soul_needle_on(**grizzlor))["soul_needle"] == value


def test_the_bot_spends_a_soul_needle_on_a_unit_at_its_last_lp_before_attacking():
    given = ring([unit("p1", "cinderhound", abilities=("fireball",))], [unit("p2", "grizzlor", lp=1)],
                 items={"p1": ["soul_needle"]})
    assert pick(given) == {"type": "use_item", "item": "soul_needle", "target": None}


def test_lp_on_an_own_unit_counts_against_the_seat_and_a_ko_d_unit_loses_none():
    t = {"hp": 90, "lp": 2, "max_lp": 3, "ko": False, "removed": False}
    assert lp_change(t, -1, mine=True, hp=90) == -15.0           # 30 x 1 / 2
    assert lp_change(t, -1, mine=False, hp=90) == 15.0
    assert lp_change(t, 1, mine=True, hp=90) == 10.0            # 30 x 1 / 3 of its max
    assert lp_change({**t, "ko": True, "hp": 0}, -1, mine=False, hp=0) == 0.0


# -- Ability Pools -------------------------------------------------------------------------------

def mind_drain() -> Ring:
    """Shadow Cat (SKL 80) can Mind Drain p2's grizzlor (PRY 40): 15% Glancing, 0% Normal,
    85% Critical. The grizzlor's slots: Heavy Slap and Double Slap (Brawler 3), Ember Ward
    (Warden 2), Soothe (Mender 1)."""
    return ring([unit("p1", "shadow_cat", abilities=("mind_drain",))], [unit("p2", "grizzlor")])


def test_a_lost_pool_is_worth_the_share_of_the_kit_it_held():
    # Seed 000, Ability Pools: units "can gain, lose, or replace their Ability Pools". Mind Drain
    # takes the highest-level pool, Brawler: 2 of 4 abilities. The whole kit for the rest of
    # the battle is worth 90: .85 x 90 x 2 / 4 = 38.25, less 4 AP x 1.5 = 32.25.
    given = mind_drain()
    assert pools_lost(seen_by(given)["seats"]["p2"]["units"]["p2.grizzlor"], "highest", 1) == ["brawler"]
    assert scores(given)["mind_drain"] == 32.25
    assert pick(given)["ability"] == "mind_drain"


@pytest.mark.parametrize("used, value", [
    # It was seen slapping: all it relies on goes with Brawler. .85 x 90 = 76.5, less 6.
    ("heavy_slap", 70.5),
    # It was seen only warding: Brawler takes none of that. 0 - 6 is under 1% of 0.
    ("ember_ward", 0.0),
])
def test_the_memory_bot_weighs_a_lost_pool_by_the_abilities_the_unit_was_seen_using(used, value):
    given = mind_drain()
    memory = Memory("p1")
    memory.observe({"seq": 1, "type": "ring.AbilityUsed",
                    "data": {"seat": "p2", "ability": used, "target": None, "unit": "p2.grizzlor"}}, True)
    memory.settle(RULESET, given, seen_by(given))
    mind = {"type": "ability", "ability": "mind_drain", "target": None}
    assert MemoryPolicy().score(Recall(seen_by(given), memory), mind) == value


def test_lethe_water_takes_the_latest_pool_and_a_unit_keeps_its_last():
    # The latest pool is Mender, holding Soothe: 1 of 4, 90 / 4 = 22.5, less 6.
    assert scores(ring([unit("p1", "cinderhound")], [unit("p2", "grizzlor")],
                       items={"p1": ["lethe_water"]}))["lethe_water"] == 16.5
    lone = {"removed": False, "pools": [{"pool": "warden", "level": 3, "slots": 2}]}
    assert pools_lost(lone, "latest", 1) == [] and pools_lost(lone, "highest", 2) == []


# -- disabled equipment --------------------------------------------------------------------------

def disarm_on(wearer: str, equipment: str, **kw: Any) -> Ring:
    """Iron Boar (ATK 68, SKL 45) can Disarm p2's `wearer`, which wears `equipment`, or Heavy
    Slap it (the second slot of its Brawler pool)."""
    worn = build_fighter("p2", DeckUnit(unit=wearer, equipment=equipment), Params())
    return ring([unit("p1", "iron_boar", abilities=("disarm",))], [worn], **kw)


def test_disabled_equipment_is_worth_the_kit_it_gives_for_each_turn_it_is_off():
    # Seed 000, Choosing Equipment: Abilities of a pool the Equipment augments "may become
    # inaccessible in the case that that Equipment is removed or otherwise disabled". The
    # drake's Lorekeeper's Satchel gives each pool a slot: without it Fire Bolt, Skull Crack and
    # Palm Strike leave its 7 slots. A whole kit for one turn is worth 30: 30 x 3 / 7 = 12.857
    # a turn, for 0 / 1 / 2 turns. Disarm's 2 / 3 / 4 power x 68 / 55 DEF = 2 / 3 / 4 HP;
    # SKL 45 : PRY 45 is 15 / 70 / 15%:
    # .15 x 2 + .7 x (3 + 12.857) + .15 x (4 + 25.714) = 15.857, less 3 AP x 1.5 = 11.357.
    assert scores(disarm_on("sunflare_drake", "lore_satchel"))["disarm"] == 11.3571


def test_disabled_equipment_takes_its_dynamics_out_of_effect_for_each_turn_it_is_off():
    # Seed 000, Add Dynamics: "if a unit's 'Equipment' is disabled in battle (perhaps by an
    # Ability), this Dynamic may cease to be effective." An Iron Plate gives no pool, but its
    # Fortify 3 (the wearer's, so against p1) is out of effect: 3 severity x 1.5 = 4.5 a turn.
    # Disarm on the plated grizzlor: 2 / 3 / 4 power x 68 / 70 DEF = 1 / 2 / 3 HP; SKL 45 :
    # PRY 40 is 15 / 61.25 / 23.75%:
    # .15 x 1 + .6125 x (2 + 4.5) + .2375 x (3 + 9) = 6.98125, less 4.5 = 2.48125.
    plate = dyn("d1", "fortify", severity=3, source="equipment", unit="p2.grizzlor")
    assert scores(disarm_on("grizzlor", "iron_plate", dynamics=[plate]))["disarm"] == 2.4812
    # Still less than a Heavy Slap: the bot slaps.
    assert pick(disarm_on("grizzlor", "iron_plate", dynamics=[plate]))["ability"] == "heavy_slap"


def test_disabling_equipment_again_is_worth_only_the_turns_it_adds():
    # The satchel is off for 1 more turn already, its pools bare: a Normal Disarm adds no turn,
    # a Critical adds 1, and the kit it gives no longer shows in the view, so only the HP counts:
    # .15 x 2 + .7 x 3 + .15 x 4 = 3.0, less 4.5: 1% of 3.0.
    given = disarm_on("sunflare_drake", "lore_satchel")
    drake = given.units["p2.sunflare_drake"]
    off = replace(given, disabled=(DisabledEquipment(unit=drake.key, equipment="lore_satchel", turns=1,
                                                     worn=drake.pools),),
                  units={**given.units, drake.key: replace(drake, pools=unequipped_pools(drake))})
    assert scores(off)["disarm"] == 0.03
