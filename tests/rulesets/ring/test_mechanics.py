"""Ring 1.1.0's mechanics, with exact values (seed 000): Stun Slap's Critical, direct leader
HP damage, LP damage, equipment disabled in battle, and pools lost in battle.

The content: Stun Slap (brawler), Searing Brand (pyre) and the Hex Effigy item burn the
enemy leader's HP; Soul Rend (hexer) and the Soul Needle item take LP; Disarm (brawler)
disables equipment and the Tinker's Kit item mends it; Mind Drain (hexer) and the Lethe
Water item take a pool.
"""
from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.engine.errors import RuleViolation
from domain.engine.events import OMNISCIENT
from domain.engine.hooks import BoundEffect, EffectTriggered
from domain.engine.rng import Rng
from domain.rulesets.ring.commands import EndTurn, UseAbility, UseItem
from domain.rulesets.ring.content import CONTENT, DeckUnit
from domain.rulesets.ring.decide import outcome
from domain.rulesets.ring.legal import legal_commands
from domain.rulesets.ring.moves import RESOLVING, active_effects
from domain.rulesets.ring.steps import STEPS, Use
from domain.rulesets.ring.events import (ApSpent, DynamicAdded, EffectivenessRolled,
                                         EquipmentDisableChanged, EquipmentDisabled, EquipmentRestored, HpReduced,
                                         ItemUsed, LeaderHpReduced, LpLost, PoolChanged, PoolLost, TurnEnded,
                                         TurnStarted, UnitKnockedOut, UnitRemoved)
from domain.rulesets.ring.roster import build_fighter, equipped_pools, loadout, unequipped_pools
from domain.rulesets.ring.state import Params, PoolSlot
from domain.rulesets.ring.view import view

from .build import HIGH, LOW, MID, ROLLS, dyn, of, ring, run, seed_drawing, unit


def worn(seat: str, unit_id: str, equipment: str, **entry) -> object:
    """A unit as it enters battle wearing `equipment` (and any GP `entry` fields)."""
    return build_fighter(seat, DeckUnit(unit=unit_id, equipment=equipment, **entry), Params())


def rolled(events) -> str:
    return of(events, EffectivenessRolled)[0].effectiveness


# -- Stun Slap (seed 000, Techniques) ----------------------------------------------------

def brawl():
    """grizzlor (ATK 70, SKL 45) against iron_boar (DEF 65, PRY 45): 1:1, so 15 / 70 / 15."""
    return ring([unit("p1", "grizzlor", abilities=("stun_slap",))], [unit("p2", "iron_boar")])


@pytest.mark.parametrize("stun_draw, stunned", [((0, 6_000), True), ((6_000, 10_000), False)])
def test_stun_slap_critical_deals_normal_damage_and_rolls_its_60_percent_stun(stun_draw, stunned):
    # "instead of gaining damage at Critical Effectiveness, it has a chance to inflict a
    # 'Stunned' Dynamic": 9 power as on a Normal hit, 9 x 70/65 = 9.69 -> 9; then the second
    # draw is the 60% stun chance.
    given = brawl()
    events, then = run(given, "p1", UseAbility(ability="stun_slap"), seed_drawing((9_900, 10_000), stun_draw))
    assert rolled(events) == "critical"
    assert of(events, HpReduced) == [HpReduced(unit="p2.iron_boar", amount=9, by="p1.grizzlor", ability="stun_slap")]
    normal, _ = run(given, "p1", UseAbility(ability="stun_slap"), MID)
    assert rolled(normal) == "normal" and of(normal, HpReduced) == of(events, HpReduced)
    assert of(events, DynamicAdded) == ([DynamicAdded(id="d1", kind="stunned", source="ability", seat="p2",
                                                      unit="p2.iron_boar", severity=2, by="p1")] if stunned else [])
    assert then.units["p2.iron_boar"].hp == 130 - 9


# -- leader HP damage (seed 000, Choosing a Leader, HP) ----------------------------------

def test_the_hex_effigy_burns_3_hp_off_the_enemy_leader_whatever_stands_in_its_ring():
    given = ring([unit("p1", "grizzlor")], [unit("p2", "iron_boar")], items={"p1": ["hex_effigy"]})
    events, then = run(given, "p1", UseItem(item="hex_effigy"))
    assert events == [ItemUsed(seat="p1", item="hex_effigy", target=None), ApSpent(seat="p1", amount=1),
                      EffectivenessRolled(ability="hex_effigy", effectiveness="normal", chances=(0, 10_000, 0)),
                      LeaderHpReduced(seat="p2", amount=3, by="p1")]
    assert (then.p2.leader_hp, then.p1.leader_hp) == (27 - 3, 27)      # Gale: 27 HP
    assert then.units["p2.iron_boar"].hp == 130                 # the Ring unit is untouched


def test_leader_damage_to_0_hp_ends_the_battle_at_once():
    given = ring([unit("p1", "grizzlor")], [unit("p2", "iron_boar")], items={"p1": ["hex_effigy"]})
    given = given.with_side("p2", replace(given.p2, leader_hp=2))
    events, then = run(given, "p1", UseItem(item="hex_effigy"))
    assert events[-1] == LeaderHpReduced(seat="p2", amount=3, by="p1")   # 2 - 3: 0, no turn passes
    assert then.p2.leader_hp == 0 and outcome(then).winner == "p1"


@pytest.mark.parametrize("tier, burned", [("glancing", 0), ("normal", 1), ("critical", 2)])
def test_searing_brand_burns_the_enemy_leader_by_effectiveness(tier, burned):
    # 0 / 1 / 2 leader HP (of Gale's 27) for 4 AP and 8 MP; no enemy unit is targeted, so SKL
    # meets itself: 15 / 70 / 15.
    given = ring([unit("p1", "cinderhound", abilities=("searing_brand",))], [unit("p2", "iron_boar")])
    events, then = run(given, "p1", UseAbility(ability="searing_brand"), ROLLS[tier])
    assert of(events, EffectivenessRolled) == [EffectivenessRolled(ability="searing_brand", effectiveness=tier,
                                                                   chances=(1500, 7000, 1500))]
    assert of(events, LeaderHpReduced) == ([LeaderHpReduced(seat="p2", amount=burned, by="p1")] if burned else [])
    assert (then.p2.leader_hp, then.p1.ap, then.units["p1.cinderhound"].mp) == (27 - burned, 10 - 4, 75 - 8)


# -- LP damage (seed 000, HP and LP) ------------------------------------------------------

def needle(**boar):
    return ring([unit("p1", "grizzlor")], [unit("p2", "iron_boar", **boar)], items={"p1": ["soul_needle"]})


def test_the_soul_needle_takes_1_lp_from_a_healthy_unit():
    events, then = run(needle(), "p1", UseItem(item="soul_needle"))
    assert events[3:] == [HpReduced(unit="p2.iron_boar", amount=2, ability="soul_needle"),
                          LpLost(unit="p2.iron_boar", amount=1)]
    boar = then.units["p2.iron_boar"]
    assert (boar.hp, boar.lp, boar.ko) == (130 - 2, 3 - 1, False)


def test_lp_damage_to_0_lp_removes_the_unit():
    events, then = run(needle(lp=1), "p1", UseItem(item="soul_needle"))
    assert events[-2:] == [LpLost(unit="p2.iron_boar", amount=1), UnitRemoved(unit="p2.iron_boar")]
    assert then.units["p2.iron_boar"].removed and "p2.iron_boar" in then.down


def test_a_unit_the_needle_knocks_out_pays_only_the_kos_lp():
    # "a KO'd Unit cannot be targeted for HP or LP damage": 2 HP of 2 is a KO, which costs
    # 1 LP; the needle's own LP step then finds a KO'd unit and takes nothing. 3 - 1 = 2.
    events, then = run(needle(hp=2), "p1", UseItem(item="soul_needle"))
    assert events[3:] == [HpReduced(unit="p2.iron_boar", amount=2, ability="soul_needle"),
                          UnitKnockedOut(unit="p2.iron_boar"), LpLost(unit="p2.iron_boar", amount=1)]
    assert then.units["p2.iron_boar"].lp == 2


def test_the_lp_step_spares_a_unit_already_knocked_out():
    given = needle(hp=0, ko=True, lp=2)
    b = RESOLVING(given, Rng(b"x"))
    st = next(st for st in CONTENT.items["soul_needle"].steps if st.do == "lp")
    STEPS["lp"](b, Use(seat="p1", user="p1.grizzlor", ability=CONTENT.item_abilities["soul_needle"],
                       targets=("p2.iron_boar",), tier=1), st)
    assert b.events == [] and b.state.units["p2.iron_boar"].lp == 2


@pytest.mark.parametrize("tier, dealt, lp_lost", [("normal", 4, []), ("critical", 6, [LpLost(unit="p2.glimmer_moth",
                                                                                              amount=1)])])
def test_soul_rend_takes_1_lp_only_on_a_critical(tier, dealt, lp_lost):
    # hex_lich (ATK 60, SKL 75) against glimmer_moth (DEF 40, PRY 70): 1500 / 6500 / 2000.
    # 3 x 60/40 = 4.5 -> 4; 4 x 60/40 = 6.
    given = ring([unit("p1", "hex_lich", abilities=("soul_rend",))], [unit("p2", "glimmer_moth")])
    events, then = run(given, "p1", UseAbility(ability="soul_rend"), ROLLS[tier])
    assert rolled(events) == tier
    assert [(e.unit, e.amount) for e in of(events, HpReduced)] == [("p2.glimmer_moth", dealt)]
    assert of(events, LpLost) == lp_lost
    assert then.units["p2.glimmer_moth"].lp == 3 - len(lp_lost) and then.units["p1.hex_lich"].mp == 80 - 12


# -- equipment disabled in battle (seed 000, Choosing Equipment) ---------------------------

def disarm(p2_unit, dynamics=(), **kw):
    """p1's grizzlor (ATK 70, SKL 45) can Disarm and Haymaker p2's Ring unit."""
    return ring([unit("p1", "grizzlor", abilities=("disarm", "haymaker"))], [p2_unit], dynamics=dynamics, **kw)


PLATE = dyn("d1", "fortify", source="equipment", unit="p2.grizzlor", severity=3)
GRIZZLOR_POOLS = (PoolSlot("brawler", 3), PoolSlot("warden", 2), PoolSlot("mender", 1))


def test_disarm_takes_the_equipments_dynamics_out_of_effect():
    # p2's grizzlor wears an Iron Plate (DEF 60 + 10 = 70, Fortify 3: -12%). Disarm's 3
    # power: 3 x 70/70 = 3, fortified 3 x 0.88 = 2.64 -> 2; then the plate is off, so a
    # Haymaker's 16 x 70/70 = 16 lands whole (fortified it would be 14).
    given = disarm(worn("p2", "grizzlor", "iron_plate"), [PLATE])
    events, then = run(given, "p1", UseAbility(ability="disarm"), MID)
    assert events[2:] == [
        EffectivenessRolled(ability="disarm", effectiveness="normal", chances=(1500, 6125, 2375)),
        EffectTriggered(kind="fortify", owner="d1", on="ring.HpReduced"),
        HpReduced(unit="p2.grizzlor", amount=2, by="p1.grizzlor", ability="disarm"),
        EquipmentDisabled(unit="p2.grizzlor", equipment="iron_plate", turns=1, pools=GRIZZLOR_POOLS)]
    assert active_effects(then) == () and then.dynamics == (PLATE,)          # still in play, not in effect
    assert then.units["p2.grizzlor"].base["def"] == 70                        # attributes stay
    events, then = run(then, "p1", UseAbility(ability="haymaker"), MID)
    assert of(events, HpReduced) == [HpReduced(unit="p2.grizzlor", amount=16, by="p1.grizzlor", ability="haymaker")]
    assert of(events, EffectTriggered) == []


def test_disabled_equipment_comes_back_as_its_teams_next_turn_ends():
    given = disarm(worn("p2", "grizzlor", "iron_plate"), [PLATE])
    _, off = run(given, "p1", UseAbility(ability="disarm"), MID)
    events, p2_turn = run(off, "p1", EndTurn())                  # p1's turn ending counts nothing
    assert of(events, EquipmentRestored) == [] and p2_turn.disabled_equipment("p2.grizzlor").turns == 1
    events, back = run(p2_turn, "p2", EndTurn())
    assert events[1:] == [TurnEnded(seat="p2", reason="chosen"),
                          EquipmentRestored(unit="p2.grizzlor", equipment="iron_plate", pools=GRIZZLOR_POOLS,
                                            reason="expired"),
                          TurnStarted(seat="p1", turn=3, ap=10)]
    assert back.disabled == () and [e.owner for e in active_effects(back)] == ["d1"]


def test_disarm_removes_the_pool_the_equipment_added_and_its_abilities():
    # Hex Tome adds the Hexer pool at level 1: one slot, Hex Bolt (tier 1, first in content).
    tome = worn("p2", "grizzlor", "hex_tome")
    assert tome.pools == (*GRIZZLOR_POOLS, PoolSlot("hexer", 1)) and "hex_bolt" in loadout(tome)
    events, then = run(disarm(tome), "p1", UseAbility(ability="disarm"), MID)
    assert of(events, EquipmentDisabled) == [EquipmentDisabled(unit="p2.grizzlor", equipment="hex_tome", turns=1,
                                                               pools=GRIZZLOR_POOLS)]
    off = then.units["p2.grizzlor"]
    assert off.pools == GRIZZLOR_POOLS and loadout(off) == tuple(a for a in loadout(tome) if a != "hex_bolt")
    assert off.max_mp == tome.max_mp == 35                      # the tome's +10 MP stays


def test_a_rejected_ability_of_a_disabled_pool_appends_nothing():
    _, off = run(disarm(worn("p2", "grizzlor", "hex_tome")), "p1", UseAbility(ability="disarm"), MID)
    _, p2_turn = run(off, "p1", EndTurn())
    with pytest.raises(RuleViolation, match="'hex_bolt' is not in the Ability Slots of grizzlor"):
        run(p2_turn, "p2", UseAbility(ability="hex_bolt"))
    assert UseAbility(ability="hex_bolt") not in legal_commands(p2_turn, "p2")
    assert p2_turn.units["p2.grizzlor"].pools == GRIZZLOR_POOLS and p2_turn.p2.ap == 10


def test_the_tinkers_kit_brings_the_pools_back_at_once():
    tome = worn("p2", "grizzlor", "hex_tome")
    _, off = run(disarm(tome, items={"p2": ["tinkers_kit"]}), "p1", UseAbility(ability="disarm"), MID)
    _, p2_turn = run(off, "p1", EndTurn())
    events, back = run(p2_turn, "p2", UseItem(item="tinkers_kit", target="p2.grizzlor"))
    assert events[3:] == [EquipmentRestored(unit="p2.grizzlor", equipment="hex_tome", pools=tome.pools,
                                            reason="tinkers_kit")]
    assert back.disabled == () and loadout(back.units["p2.grizzlor"]) == loadout(tome)
    _, used = run(back, "p2", UseAbility(ability="hex_bolt"), MID)      # usable again
    assert used.units["p2.grizzlor"].mp == 35 - 3


def test_a_replaced_pool_is_the_original_again_and_merged_pools_split_back():
    # moss_mother has Mender 3, Warden 2, Hexer 1; War Vestments turn Mender into Warden, which
    # she has: one Warden at the higher level, 3. Disabled, both are hers again.
    vestments = worn("p2", "moss_mother", "war_vestments")
    assert vestments.pools == (PoolSlot("warden", 3), PoolSlot("hexer", 1))
    events, then = run(disarm(vestments), "p1", UseAbility(ability="disarm"), MID)
    assert of(events, EquipmentDisabled)[0].pools == (PoolSlot("mender", 3), PoolSlot("warden", 2),
                                                      PoolSlot("hexer", 1))
    assert [CONTENT.abilities[a].pool for a in loadout(then.units["p2.moss_mother"])] == \
        ["mender", "mender", "warden", "hexer"]                 # level 3: two slots


def test_an_upgrades_levels_and_extra_slots_go_while_growth_points_stay():
    # Training Belt raises the lowest pool, Mender 1 -> 2; 1 GP-bought level and 1 slot on it:
    # Mender 3 with 1 extra slot. Disabled: 3 - 1 = Mender 2, the bought slot stays.
    belt = worn("p1", "grizzlor", "training_belt", levels={"mender": 1}, slots={"mender": 1})
    assert belt.pools[2] == PoolSlot("mender", 3, 1)
    assert unequipped_pools(belt) == (PoolSlot("brawler", 3), PoolSlot("warden", 2), PoolSlot("mender", 2, 1))
    # The satchel's extra slot on every pool goes too.
    satchel = worn("p1", "grizzlor", "lore_satchel", slots={"brawler": 2})
    assert unequipped_pools(satchel) == (PoolSlot("brawler", 3, 2), PoolSlot("warden", 2), PoolSlot("mender", 1))


def test_without_its_equipment_every_unit_has_its_own_pools_whatever_it_wears():
    for unit_id in CONTENT.units:
        own = tuple(equipped_pools(unit_id, None))
        for equipment in CONTENT.equipment:
            assert unequipped_pools(worn("p1", unit_id, equipment)) == own, (unit_id, equipment)


def test_a_pool_gained_while_the_equipment_is_off_stays_when_it_comes_back():
    tome = worn("p2", "grizzlor", "hex_tome")
    _, off = run(disarm(tome, items={"p2": ["ember_scroll", "tinkers_kit"]}), "p1", UseAbility(ability="disarm"), MID)
    _, p2_turn = run(off, "p1", EndTurn())
    events, scrolled = run(p2_turn, "p2", UseItem(item="ember_scroll", target="p2.grizzlor"))
    assert of(events, PoolChanged) == [PoolChanged(unit="p2.grizzlor", pool="pyre", level=1)]
    assert scrolled.units["p2.grizzlor"].pools == (*GRIZZLOR_POOLS, PoolSlot("pyre", 1))
    events, back = run(scrolled, "p2", UseItem(item="tinkers_kit", target="p2.grizzlor"))
    assert back.units["p2.grizzlor"].pools == (*GRIZZLOR_POOLS, PoolSlot("hexer", 1), PoolSlot("pyre", 1))


def test_disarming_again_only_ever_lengthens_it():
    # Normal: 1 turn; a Critical on top: 2 (one more); a Normal after that changes nothing.
    given = ring([unit("p1", "grizzlor", abilities=("disarm",))], [worn("p2", "grizzlor", "iron_plate")], ap=9)
    _, once = run(given, "p1", UseAbility(ability="disarm"), MID)
    events, twice = run(once, "p1", UseAbility(ability="disarm"), HIGH)
    assert rolled(events) == "critical"
    assert of(events, EquipmentDisableChanged) == [EquipmentDisableChanged(unit="p2.grizzlor", turns=2, delta=1)]
    events, thrice = run(twice, "p1", UseAbility(ability="disarm"), MID)
    assert of(events, EquipmentDisableChanged) == [] and of(events, EquipmentDisabled) == []
    assert thrice.disabled_equipment("p2.grizzlor").turns == 2


def test_a_glancing_disarm_or_a_unit_without_equipment_disables_nothing():
    events, then = run(disarm(worn("p2", "grizzlor", "iron_plate")), "p1", UseAbility(ability="disarm"), LOW)
    assert rolled(events) == "glancing" and of(events, EquipmentDisabled) == [] and then.disabled == ()
    events, then = run(disarm(unit("p2", "grizzlor")), "p1", UseAbility(ability="disarm"), MID)
    assert of(events, EquipmentDisabled) == [] and then.disabled == ()


def test_the_view_shows_disabled_equipment_and_its_turns_left():
    given = disarm(worn("p2", "grizzlor", "iron_plate"), [PLATE])
    _, then = run(given, "p1", UseAbility(ability="disarm"), MID)
    shown = view(then, OMNISCIENT)
    assert shown["seats"]["p2"]["units"]["p2.grizzlor"]["equipment"] == "iron_plate"
    assert shown["seats"]["p2"]["units"]["p2.grizzlor"]["equipment_disabled"] == {"turns": 1}
    assert view(given, OMNISCIENT)["seats"]["p2"]["units"]["p2.grizzlor"]["equipment_disabled"] is None
    assert [d["active"] for d in shown["dynamics"]] == [False]


# -- pools lost in battle (seed 000, Ability Pools) --------------------------------------

def mind_drain(**grizzlor):
    """hex_lich (SKL 75) against grizzlor (PRY 40): 1500 / 875 / 7625."""
    return ring([unit("p1", "hex_lich", abilities=("mind_drain",))], [unit("p2", "grizzlor", **grizzlor)],
                items={"p1": ["lethe_water"]})


def test_mind_drain_takes_the_highest_pool_and_its_abilities():
    given = mind_drain()
    before = loadout(given.units["p2.grizzlor"])
    events, then = run(given, "p1", UseAbility(ability="mind_drain"), HIGH)
    assert events[3:] == [EffectivenessRolled(ability="mind_drain", effectiveness="critical",
                                              chances=(1500, 875, 7625)),
                          PoolLost(unit="p2.grizzlor", pool="brawler")]       # Brawler 3 of 3, 2, 1
    after = loadout(then.units["p2.grizzlor"])
    assert then.units["p2.grizzlor"].pools == GRIZZLOR_POOLS[1:]
    assert after == tuple(a for a in before if CONTENT.abilities[a].pool != "brawler")
    assert (then.p1.ap, then.units["p1.hex_lich"].mp) == (10 - 4, 80 - 10)


def test_a_lost_pools_ability_is_refused_and_appends_nothing():
    _, then = run(mind_drain(), "p1", UseAbility(ability="mind_drain"), HIGH)
    _, p2_turn = run(then, "p1", EndTurn())
    slap = next(a for a in loadout(mind_drain().units["p2.grizzlor"]) if CONTENT.abilities[a].pool == "brawler")
    with pytest.raises(RuleViolation, match="not in the Ability Slots"):
        run(p2_turn, "p2", UseAbility(ability=slap))
    assert UseAbility(ability=slap) not in legal_commands(p2_turn, "p2")


def test_a_glancing_mind_drain_takes_nothing_and_a_last_pool_is_kept():
    events, then = run(mind_drain(), "p1", UseAbility(ability="mind_drain"), LOW)
    assert rolled(events) == "glancing" and of(events, PoolLost) == [] and then.units["p2.grizzlor"].pools == \
        GRIZZLOR_POOLS
    events, then = run(mind_drain(pools=(PoolSlot("warden", 2),)), "p1", UseAbility(ability="mind_drain"), HIGH)
    assert of(events, PoolLost) == [] and then.units["p2.grizzlor"].pools == (PoolSlot("warden", 2),)


def test_lethe_water_takes_the_latest_pool():
    events, then = run(mind_drain(), "p1", UseItem(item="lethe_water"))
    assert events[3:] == [PoolLost(unit="p2.grizzlor", pool="mender")]
    assert then.units["p2.grizzlor"].pools == GRIZZLOR_POOLS[:2]


def test_a_pool_lost_while_the_equipment_is_off_stays_lost_when_it_comes_back():
    # Disarmed, the tome's grizzlor has Brawler 3, Warden 2, Mender 1; Lethe Water takes the
    # latest, Mender, from those and from the pools the tome gives back.
    given = ring([unit("p1", "grizzlor", abilities=("disarm",))], [worn("p2", "grizzlor", "hex_tome")],
                 items={"p1": ["lethe_water"]})
    _, off = run(given, "p1", UseAbility(ability="disarm"), MID)
    events, lost = run(off, "p1", UseItem(item="lethe_water"))
    assert of(events, PoolLost) == [PoolLost(unit="p2.grizzlor", pool="mender")]
    assert lost.disabled_equipment("p2.grizzlor").worn == (*GRIZZLOR_POOLS[:2], PoolSlot("hexer", 1))
    _, p2_turn = run(lost, "p1", EndTurn())
    events, back = run(p2_turn, "p2", EndTurn())
    assert of(events, EquipmentRestored)[0].pools == back.units["p2.grizzlor"].pools == \
        (*GRIZZLOR_POOLS[:2], PoolSlot("hexer", 1))


# -- the effects in play, as hooks see them ---------------------------------------------------

def test_effects_name_their_dynamic_and_carrier_and_stay_one_object_through_a_severity_change():
    rage, ward = dyn("d1", "rage", unit="p1.grizzlor", source="unit"), dyn("d2", "fire_ward", seat="p2", source="leader")
    given = ring([unit("p1", "grizzlor")], [unit("p2", "iron_boar")], dynamics=[rage, ward])
    effects = active_effects(given)
    assert effects == (BoundEffect(kind="rage", owner="d1", subject="p1.grizzlor"),
                       BoundEffect(kind="fire_ward", owner="d2", subject=None))
    weaker = replace(given, dynamics=(replace(rage, severity=2), ward))
    assert active_effects(weaker) is effects                 # equal effects: the same tuple, plans kept
    down = replace(given, down=frozenset({"p1.grizzlor"}))
    assert active_effects(down) == (effects[1],)             # a unit Dynamic is out while its unit is down
