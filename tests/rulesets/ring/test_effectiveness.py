"""The effectiveness roll inside a battle, and the damage that follows it (seed 000: SKL and
PRY, ATK and DEF, EXS, Targeting Units, Unique Properties, Descriptor Tags, and the Slap
variants of Limitations of the Alpha / Techniques).

Numbers are the content's: no equipment, no growth, no Dynamics unless a test adds them.
grizzlor ATK 70 SKL 45 | iron_boar DEF 65 PRY 45 | cinderhound SKL 60 | fang_shrike ATK 80
SKL 70 DEF 40 PRY 50 | glimmer_moth DEF 40 PRY 70 | ember_wisp ATK 78 SKL 65.
"""
from __future__ import annotations

import pytest

from domain.rulesets.ring.commands import UseAbility, UseItem, UseLeaderAbility
from domain.rulesets.ring.events import (Augmented, DynamicAdded, EffectivenessRolled, HpReduced,
                                         UnitKnockedOut)
from domain.rulesets.ring.formulas import damage

from .build import HIGH, LOW, MID, ROLLS, dyn, of, ring, run, seed_drawing, unit


def rolled(events):
    (roll,) = of(events, EffectivenessRolled)
    return roll.effectiveness, roll.chances


def hits(events):
    return [(e.unit, e.amount) for e in of(events, HpReduced)]


def brawl(**grizzlor):
    """grizzlor (SKL 45) against iron_boar (PRY 45): 1:1, so 15 / 70 / 15."""
    abilities = ("haymaker", "heavy_slap", "stun_slap", "rising_haymaker", "slap")
    return ring([unit("p1", "grizzlor", abilities=abilities, **grizzlor)], [unit("p2", "iron_boar")])


# -- the chances: SKL of the user against the PRY of its targets --------------------------

def test_skill_over_parry_raises_critical():
    # 60 : 50 -> Critical 15% + (6/5 - 1) x 70% = 29%
    s = ring([unit("p1", "cinderhound", abilities=("jab",))], [unit("p2", "fang_shrike")])
    events, _ = run(s, "p1", UseAbility(ability="jab"), MID)
    assert of(events, EffectivenessRolled) == [
        EffectivenessRolled(ability="jab", effectiveness="normal", chances=(1500, 5600, 2900))]


def test_parry_over_skill_raises_glancing():
    # 45 : 75 -> Glancing 15% + (75/45 - 1) x 70% = 61.66%
    s = ring([unit("p1", "grizzlor", abilities=("jab",))], [unit("p2", "shadow_cat")])
    events, _ = run(s, "p1", UseAbility(ability="jab"), LOW)
    assert rolled(events) == ("glancing", (6166, 2334, 1500))


def test_the_users_exhaustion_lowers_the_skill_in_effect():
    # EXS 20%: SKL 60 -> 48 against PRY 50, so parry wins: Glancing 15% + (50/48 - 1) x 70%
    s = ring([unit("p1", "cinderhound", abilities=("jab",), exs=2000)], [unit("p2", "fang_shrike")])
    events, _ = run(s, "p1", UseAbility(ability="jab"), MID)
    assert rolled(events) == ("normal", (1791, 6709, 1500))


def test_the_targets_exhaustion_lowers_the_parry_in_effect():
    # EXS 20%: PRY 50 -> 40 against SKL 60: Critical 15% + 0.5 x 70% = 50%
    s = ring([unit("p1", "cinderhound", abilities=("jab",))], [unit("p2", "fang_shrike", exs=2000)])
    events, _ = run(s, "p1", UseAbility(ability="jab"), HIGH)
    assert rolled(events) == ("critical", (1500, 3500, 5000))


@pytest.mark.parametrize("user_aug, target_aug", [({}, {"pry": 10}), ({"skl": -10}, {})])
def test_augments_change_the_stats_in_effect(user_aug, target_aug):
    # SKL 60 : PRY 60, or SKL 50 : PRY 50 -> the 1:1 chances
    s = ring([unit("p1", "cinderhound", abilities=("jab",), aug=user_aug)],
             [unit("p2", "fang_shrike", aug=target_aug)])
    events, _ = run(s, "p1", UseAbility(ability="jab"), MID)
    assert rolled(events) == ("normal", (1500, 7000, 1500))


def test_several_targets_are_parried_with_their_average_pry():
    # Seed 000, Targeting Units: inferno hits grizzlor (PRY 40) and shellback (PRY 70), average
    # 55, against SKL 65. The KO'd shadow_cat (PRY 75) is not a target and does not count.
    s = ring([unit("p1", "ember_wisp", abilities=("inferno",))],
             [unit("p2", "grizzlor"), unit("p2", "shellback"), unit("p2", "shadow_cat", hp=0, ko=True)])
    events, _ = run(s, "p1", UseAbility(ability="inferno"), MID)
    assert rolled(events) == ("normal", (1500, 5728, 2772))


def test_abilities_on_dynamics_meet_the_users_own_skill():
    # README: without an enemy target, SKL meets itself (15 / 70 / 15).
    s = ring([unit("p1", "hex_lich", abilities=("sealing_sigil",))], [unit("p2", "grizzlor")],
             dynamics=[dyn("d1", "rage", source="unit", unit="p2.grizzlor")])
    events, _ = run(s, "p1", UseAbility(ability="sealing_sigil", target="d1"), LOW)
    assert rolled(events) == ("glancing", (1500, 7000, 1500))


def test_a_leader_ability_rolls_with_the_ring_units_attributes():
    # README: a leader ability uses the Ring unit's SKL: cinderhound 60 against PRY 50.
    s = ring([unit("p1", "cinderhound")], [unit("p2", "fang_shrike")])
    events, _ = run(s, "p1", UseLeaderAbility(ability="gust_strike"), HIGH)
    assert rolled(events) == ("critical", (1500, 5600, 2900))
    assert hits(events) == [("p2.fang_shrike", 4)]         # true damage 1 / 3 / 4


@pytest.mark.parametrize("seed", [LOW, MID, HIGH])
def test_friendly_abilities_never_glance(seed):
    # Seed 000: friendly targets don't want to parry; README: Glancing folds into Normal.
    s = ring([unit("p1", "shellback", abilities=("guard",))], [unit("p2", "shadow_cat")])
    events, _ = run(s, "p1", UseAbility(ability="guard"), seed)
    tier = "critical" if seed == HIGH else "normal"
    assert rolled(events) == (tier, (0, 8500, 1500))
    assert of(events, Augmented) == [Augmented(unit="p1.shellback", attr="def", delta=7 if seed == HIGH else 5)]


@pytest.mark.parametrize("seed", [LOW, HIGH])
def test_sure_abilities_are_always_normal(seed):
    s = ring([unit("p1", "bog_witch", abilities=("silence_field",))], [unit("p2", "shadow_cat")])
    events, _ = run(s, "p1", UseAbility(ability="silence_field"), seed)
    assert rolled(events) == ("normal", (0, 10_000, 0))


def test_items_are_sure():
    s = ring([unit("p1", "grizzlor")], [unit("p2", "shadow_cat")], items={"p1": ["whetstone"]})
    events, _ = run(s, "p1", UseItem(item="whetstone", target="p1.grizzlor"), HIGH)
    assert of(events, EffectivenessRolled) == [
        EffectivenessRolled(ability="whetstone", effectiveness="normal", chances=(0, 10_000, 0))]
    assert of(events, Augmented) == [Augmented(unit="p1.grizzlor", attr="atk", delta=6)]


def test_keen_eye_moves_normal_chance_to_critical():
    # Keen Eye 5: 2% per severity = 10% from Normal to Critical: 15 / 56 / 29 -> 15 / 46 / 39.
    s = ring([unit("p1", "cinderhound", abilities=("jab",))], [unit("p2", "fang_shrike")],
             dynamics=[dyn("d1", "keen_eye", seat="p1", source="leader")])
    events, _ = run(s, "p1", UseAbility(ability="jab"), MID)
    assert rolled(events) == ("normal", (1500, 4600, 3900))


def test_keen_eye_moves_no_more_than_the_normal_chance_there_is():
    # 70 : 40 -> 15 / 17.5 / 67.5; Keen Eye 10 would move 20% but only 17.5% is left.
    s = ring([unit("p1", "fang_shrike", abilities=("jab",))], [unit("p2", "grizzlor")],
             dynamics=[dyn("d1", "keen_eye", seat="p1", severity=10)])
    events, _ = run(s, "p1", UseAbility(ability="jab"), MID)
    assert rolled(events) == ("critical", (1500, 0, 8500))


def test_keen_eye_helps_only_its_own_team():
    s = ring([unit("p1", "cinderhound", abilities=("jab",))], [unit("p2", "fang_shrike")],
             dynamics=[dyn("d1", "keen_eye", source="leader", seat="p2")])
    events, _ = run(s, "p1", UseAbility(ability="jab"), MID)
    assert rolled(events) == ("normal", (1500, 5600, 2900))                # 60 : 50, untouched


# -- the damage that follows: the rolled tier's power, ATK / DEF in effect -----------------

@pytest.mark.parametrize("tier, power, dealt", [("glancing", 10, 10), ("normal", 16, 17), ("critical", 22, 23)])
def test_damage_uses_the_rolled_tiers_power(tier, power, dealt):
    # haymaker 10 / 16 / 22 power, ATK 70 over DEF 65
    events, state = run(brawl(), "p1", UseAbility(ability="haymaker"), ROLLS[tier])
    assert rolled(events) == (tier, (1500, 7000, 1500))
    assert dealt == damage(power, 70, 65)
    assert of(events, HpReduced) == [HpReduced(unit="p2.iron_boar", amount=dealt, by="p1.grizzlor",
                                               ability="haymaker")]
    assert state.units["p2.iron_boar"].hp == 130 - dealt


def test_damage_uses_atk_and_def_in_effect():
    # ATK 70 + 10 augment = 80; DEF 65 at EXS 20% = 52 (and PRY 45 -> 36 raises Critical).
    s = ring([unit("p1", "grizzlor", abilities=("haymaker",), aug={"atk": 10})],
             [unit("p2", "iron_boar", exs=2000)])
    events, _ = run(s, "p1", UseAbility(ability="haymaker"), MID)
    assert rolled(events) == ("normal", (1500, 5250, 3250))
    assert hits(events) == [("p2.iron_boar", damage(16, 80, 52))] == [("p2.iron_boar", 24)]


def test_penetration_rewards_atk_over_def():
    # skull_crack 9 power, penetration 4000: 9 x 2 + 9 x (2 - 1) x (2 x 0.4) = 25.2, not 18
    s = ring([unit("p1", "fang_shrike", abilities=("skull_crack",))], [unit("p2", "glimmer_moth")])
    events, _ = run(s, "p1", UseAbility(ability="skull_crack"), MID)
    assert rolled(events) == ("normal", (1500, 7000, 1500))
    assert hits(events) == [("p2.glimmer_moth", damage(9, 80, 40, 4000))] == [("p2.glimmer_moth", 25)]


def test_penetration_punishes_atk_under_def():
    # ATK 40 against DEF 68: 9 x 40/68 = 5.29, less 9 x (40/68 - 1) x (40/68 x 0.4) = 0.87
    # penetration: 4.42 -> 4, where plain damage would be 5
    s = ring([unit("p1", "glimmer_moth", abilities=("skull_crack",))], [unit("p2", "shellback")])
    events, _ = run(s, "p1", UseAbility(ability="skull_crack"), MID)
    assert rolled(events) == ("normal", (2666, 5834, 1500))
    assert hits(events) == [("p2.shellback", damage(9, 40, 68, 4000))] == [("p2.shellback", 4)]
    assert damage(9, 40, 68) == 5


def test_each_hit_is_dealt_on_its_own():
    # double_slap: 2 hits of 6 power with penetration 6000 against DEF 40 -> 19 each
    s = ring([unit("p1", "fang_shrike", abilities=("double_slap",))], [unit("p2", "glimmer_moth")])
    events, state = run(s, "p1", UseAbility(ability="double_slap"), MID)
    assert hits(events) == [("p2.glimmer_moth", 19)] * 2
    assert (state.units["p2.glimmer_moth"].hp, state.units["p2.glimmer_moth"].hits) == (85 - 38, 2)


def test_hits_stop_once_the_target_is_ko():
    s = ring([unit("p1", "fang_shrike", abilities=("double_slap",))], [unit("p2", "glimmer_moth", hp=19)])
    events, _ = run(s, "p1", UseAbility(ability="double_slap"), MID)
    assert hits(events) == [("p2.glimmer_moth", 19)]
    assert of(events, UnitKnockedOut) == [UnitKnockedOut(unit="p2.glimmer_moth")]


def test_team_attacks_deal_half_to_targets_off_the_ring():
    # Seed 000, Targeting Units: grizzlor (Ring, DEF 60) takes 8 x 78/60 = 10.4 -> 10; shellback
    # (bench, DEF 68) 8 x 78/68 = 9.18 -> 9, halved to 4. Both catch Burning 2 (Normal).
    s = ring([unit("p1", "ember_wisp", abilities=("inferno",))], [unit("p2", "grizzlor"), unit("p2", "shellback")])
    events, _ = run(s, "p1", UseAbility(ability="inferno"), MID)
    assert hits(events) == [("p2.grizzlor", damage(8, 78, 60)), ("p2.shellback", damage(8, 78, 68) // 2)] \
        == [("p2.grizzlor", 10), ("p2.shellback", 4)]
    assert [(e.unit, e.kind, e.severity) for e in of(events, DynamicAdded)] == [
        ("p2.grizzlor", "burning", 2), ("p2.shellback", "burning", 2)]


@pytest.mark.parametrize("target, dealt", [("p2.glimmer_moth", 5), ("p2.fang_shrike", 2)])
def test_a_single_target_attack_deals_half_off_the_ring(target, dealt):
    # ember_toss (enemy_unit), Critical 3 power against DEF 40: 3 x 78/40 = 5; off the Ring 2
    s = ring([unit("p1", "ember_wisp", abilities=("ember_toss",))],
             [unit("p2", "glimmer_moth"), unit("p2", "fang_shrike")])
    events, _ = run(s, "p1", UseAbility(ability="ember_toss", target=target), HIGH)
    assert rolled(events)[0] == "critical"
    assert hits(events) == [(target, dealt)]


@pytest.mark.parametrize("earlier, power", [(0, 11), (2, 17)])
def test_escalate_adds_power_for_each_earlier_use(earlier, power):
    # Seed 000, Unique Properties: rising_haymaker 11 power on Normal, +3 per earlier use
    uses = {"rising_haymaker": earlier} if earlier else {}
    events, state = run(brawl(uses=uses), "p1", UseAbility(ability="rising_haymaker"), MID)
    assert hits(events) == [("p2.iron_boar", damage(power, 70, 65))]
    assert damage(power, 70, 65) == {11: 11, 17: 18}[power]
    assert state.units["p1.grizzlor"].uses == {"rising_haymaker": earlier + 1}


def test_needs_tag_skips_targets_without_the_tag():
    # Seed 000, TAG: war_bellow only reaches eared units. cinderhound is eared, magma_tortoise
    # is not; both have PRY 50 against SKL 50, so the roll is 15 / 70 / 15 whatever counts.
    s = ring([unit("p1", "moss_mother", abilities=("war_bellow",))],
             [unit("p2", "cinderhound"), unit("p2", "magma_tortoise")])
    events, _ = run(s, "p1", UseAbility(ability="war_bellow"), MID)
    assert rolled(events) == ("normal", (1500, 7000, 1500))
    assert of(events, Augmented) == [Augmented(unit="p2.cinderhound", attr="atk", delta=-3)]


def test_a_tag_gained_in_battle_counts():
    s = ring([unit("p1", "moss_mother", abilities=("war_bellow",))],
             [unit("p2", "cinderhound"), unit("p2", "magma_tortoise", tags=("fiery", "armored", "giant", "eared"))])
    events, _ = run(s, "p1", UseAbility(ability="war_bellow"), MID)
    assert [(e.unit, e.delta) for e in of(events, Augmented)] == [("p2.cinderhound", -3), ("p2.magma_tortoise", -3)]


# -- the Slap variants in battle (seed 000, Techniques) ----------------------------------

@pytest.mark.parametrize("tier", ["glancing", "normal", "critical"])
def test_slap_deals_the_same_damage_at_every_effectiveness(tier):
    events, _ = run(brawl(), "p1", UseAbility(ability="slap"), ROLLS[tier])
    assert rolled(events)[0] == tier
    assert hits(events) == [("p2.iron_boar", damage(9, 70, 65))] == [("p2.iron_boar", 9)]


@pytest.mark.parametrize("tier, dealt", [("glancing", []), ("normal", [("p2.iron_boar", 15)]),
                                         ("critical", [("p2.iron_boar", 19)])])
def test_heavy_slap_deals_nothing_on_a_glancing_hit(tier, dealt):
    # 0 / 14 / 18 power: 14 x 70/65 = 15, 18 x 70/65 = 19
    events, state = run(brawl(), "p1", UseAbility(ability="heavy_slap"), ROLLS[tier])
    assert rolled(events)[0] == tier
    assert hits(events) == dealt
    assert state.units["p2.iron_boar"].hp == 130 - sum(n for _, n in dealt)


def test_stun_slap_deals_normal_damage_and_may_stun_on_a_critical():
    # Critical: no gain, Normal's 9 power (9 x 70/65 = 9.69 -> 9), then the 60% stun chance is
    # the second draw (here under 60%).
    seed = seed_drawing((9_900, 10_000), (0, 6_000))
    events, state = run(brawl(), "p1", UseAbility(ability="stun_slap"), seed)
    assert rolled(events)[0] == "critical"
    assert hits(events) == [("p2.iron_boar", 9)]
    assert of(events, DynamicAdded) == [DynamicAdded(id="d1", kind="stunned", source="ability", seat="p2",
                                                     unit="p2.iron_boar", severity=2, by="p1")]
    assert state.dynamics[0].severity == 2


def test_stun_slap_can_miss_its_stun():
    seed = seed_drawing((9_900, 10_000), (6_000, 10_000))
    events, state = run(brawl(), "p1", UseAbility(ability="stun_slap"), seed)
    assert rolled(events)[0] == "critical"
    assert (hits(events), state.dynamics) == ([("p2.iron_boar", 9)], ())


@pytest.mark.parametrize("tier", ["glancing", "normal"])
def test_stun_slap_deals_average_damage_and_never_stuns_below_critical(tier):
    # 8 / 9 power: 8 x 70/65 = 8, 9 x 70/65 = 9
    events, state = run(brawl(), "p1", UseAbility(ability="stun_slap"), ROLLS[tier])
    assert hits(events) == [("p2.iron_boar", {"glancing": 8, "normal": 9}[tier])]
    assert state.dynamics == ()

