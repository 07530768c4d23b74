"""Dynamics in battle, one kind at a time, with exact values (seed 000: UD, Check Phase,
Severity, Targeting Dynamics, HP). magnitude = content value + scale x severity.

Every hook that changes something leaves an `EffectTriggered(kind, owner=<Dynamic id>, on=<topic>)`.
Turn-start Dynamics are seen by letting the other side end its turn (Gale leads both: 10 AP).
"""
from __future__ import annotations

import pytest

from domain.engine.errors import RuleViolation
from domain.engine.hooks import EffectTriggered
from domain.rulesets.ring.commands import EndTurn, Swap, UseAbility, UseItem
from domain.rulesets.ring.legal import legal_commands
from domain.rulesets.ring.events import (Augmented, DynamicAdded, DynamicRemoved, HpReduced, HpRestored, LpLost,
                                         MpChanged, SeverityChanged, TurnStarted, UnitRevived, UnitSwapped)

from .build import MID, dyn, of, ring, run, triggers, unit

HP, MP = "ring.HpReduced", "ring.MpChanged"


def hits(events):
    return [(e.unit, e.amount, e.kind) for e in of(events, HpReduced)]


def p1_turn_starts(p1, p2, dynamics):
    """p2 ends its turn: the events of p1's turn start (TurnStarted and what follows it)."""
    events, state = run(ring(p1, p2, dynamics=dynamics, active="p2"), "p2", EndTurn())
    start = events.index(next(e for e in events if isinstance(e, TurnStarted)))
    return events[start:], state


# -- the seed's examples ---------------------------------------------------------------

@pytest.mark.parametrize("severity, taken", [(5, 10), (3, 6)])
def test_casters_bane_costs_hp_equal_to_the_mp_cost_at_severity_5(severity, taken):
    # "When using an Ability, Units take HP damage equal to the MP cost": fireball takes 10 MP.
    s = ring([unit("p1", "ember_wisp", abilities=("fireball",))], [unit("p2", "hex_lich")],
             dynamics=[dyn("d1", "casters_bane", source="battlefield", severity=severity)])
    events, _ = run(s, "p1", UseAbility(ability="fireball"), MID)
    # AFTER: the MP change, then the trigger, then its reaction
    assert events[2:5] == [MpChanged(unit="p1.ember_wisp", delta=-10, ability="fireball"),
                           EffectTriggered(kind="casters_bane", owner="d1", on=MP),
                           HpReduced(unit="p1.ember_wisp", amount=taken, kind="dynamic")]
    assert triggers(events) == [("casters_bane", "d1", MP)]


def test_casters_bane_spares_abilities_that_take_no_mp():
    s = ring([unit("p1", "ember_wisp", abilities=("jab",))], [unit("p2", "hex_lich")],
             dynamics=[dyn("d1", "casters_bane", source="battlefield")])
    events, _ = run(s, "p1", UseAbility(ability="jab"), MID)
    assert triggers(events) == [] and hits(events) == [("p2.hex_lich", 6, "ability")]     # 4 x 78/45


@pytest.mark.parametrize("nurture_seat, healed", [("p1", 27), ("p2", 25)])
def test_nurturing_raises_ally_hp_restoration_by_10_percent_at_severity_5(nurture_seat, healed):
    # "All ally HP restoration is increased by 10%": a 25 HP potion restores 27 (27.5 floored);
    # the enemy's Nurturing does nothing for p1.
    s = ring([unit("p1", "grizzlor", hp=50)], [unit("p2", "moss_mother")], items={"p1": ["potion"]},
             dynamics=[dyn("d1", "nurturing", source="unit", seat=nurture_seat)])
    events, state = run(s, "p1", UseItem(item="potion", target="p1.grizzlor"))
    assert of(events, HpRestored) == [HpRestored(unit="p1.grizzlor", amount=healed, by=None,
                                                 ability="potion")]
    assert triggers(events) == ([("nurturing", "d1", "ring.HpRestored")] if nurture_seat == "p1" else [])
    assert state.units["p1.grizzlor"].hp == 50 + healed


def test_rage_gives_plus_1_atk_when_its_carrier_is_damaged():
    s = ring([unit("p1", "fang_shrike", abilities=("jab",))], [unit("p2", "glimmer_moth")],
             dynamics=[dyn("d1", "rage", source="unit", unit="p2.glimmer_moth")])
    events, state = run(s, "p1", UseAbility(ability="jab"), MID)
    assert of(events, Augmented) == [Augmented(unit="p2.glimmer_moth", attr="atk", delta=1)]
    assert triggers(events) == [("rage", "d1", HP)]
    assert state.units["p2.glimmer_moth"].stat("atk") == 41


# fang_shrike (ATK 80, SKL 70) haymakers moss_mother (DEF 55, PRY 60): 16 x 80/55 = 23.
FANG_VS_MOSS = ([unit("p1", "fang_shrike", abilities=("haymaker",))], [unit("p2", "moss_mother"),
                                                                        unit("p2", "bastion_golem")])
BRUTALITY = dyn("d1", "brutality", source="unit", unit="p1.fang_shrike")
RETALIATION = dyn("d2", "retaliation", source="unit", unit="p2.bastion_golem")


def test_brutality_before_raises_the_hp_reduction_by_25_percent_at_severity_5():
    events, _ = run(ring(*FANG_VS_MOSS, dynamics=[BRUTALITY]), "p1", UseAbility(ability="haymaker"), MID)
    # BEFORE: the trigger is recorded, then the changed hit: 23 x 1.25 = 28.75
    assert events[-2:] == [EffectTriggered(kind="brutality", owner="d1", on=HP),
                           HpReduced(unit="p2.moss_mother", amount=28, by="p1.fang_shrike", ability="haymaker")]
    assert triggers(events) == [("brutality", "d1", HP)]


def test_the_before_change_sets_off_a_damage_threshold_reaction():
    # Seed 000, Check Phase: 23 alone stays under Retaliation's 25; brutality lifts it to 28, so
    # the attacker takes 2 x 5 = 10 (bastion_golem's Retaliation covers its whole team).
    events, _ = run(ring(*FANG_VS_MOSS, dynamics=[RETALIATION]), "p1", UseAbility(ability="haymaker"), MID)
    assert hits(events) == [("p2.moss_mother", 23, "ability")] and triggers(events) == []
    events, _ = run(ring(*FANG_VS_MOSS, dynamics=[BRUTALITY, RETALIATION]), "p1", UseAbility(ability="haymaker"), MID)
    assert hits(events) == [("p2.moss_mother", 28, "ability"), ("p1.fang_shrike", 10, "counter")]
    assert triggers(events) == [("brutality", "d1", HP), ("retaliation", "d2", HP)]


# shadow_cat (ATK 70, SKL 80) haymakers shellback (DEF 68, PRY 70): 16 x 70/68 = 16.47 -> 16.
def shadow_vs_shell(shell_hits, dynamics):
    s = ring([unit("p1", "shadow_cat", abilities=("haymaker",))], [unit("p2", "shellback", hits=shell_hits)],
             dynamics=dynamics)
    return run(s, "p1", UseAbility(ability="haymaker"), MID)


SHADOW = dyn("d1", "shadow", source="unit", unit="p1.shadow_cat")
COUNTER = dyn("d2", "counter_stance", source="unit", unit="p2.shellback")


def test_shadow_after_attacks_again_for_25_percent_at_severity_5():
    events, state = shadow_vs_shell(0, [SHADOW])
    # AFTER: the hit, the trigger, the shadow's 16 x 25% = 4
    assert events[-3:] == [HpReduced(unit="p2.shellback", amount=16, by="p1.shadow_cat", ability="haymaker"),
                           EffectTriggered(kind="shadow", owner="d1", on=HP),
                           HpReduced(unit="p2.shellback", amount=4, by="p1.shadow_cat", kind="shadow")]
    assert state.units["p2.shellback"].hits == 2


def test_counter_stance_strikes_back_on_every_third_hit():
    # 2 x 5 = 10 HP at severity 5; the 2nd hit does nothing, the 3rd strikes back.
    events, _ = shadow_vs_shell(1, [COUNTER])
    assert triggers(events) == []
    events, state = shadow_vs_shell(2, [COUNTER])
    assert hits(events) == [("p2.shellback", 16, "ability"), ("p1.shadow_cat", 10, "counter")]
    assert triggers(events) == [("counter_stance", "d2", HP)]
    assert state.units["p1.shadow_cat"].hp == 90 - 10


def test_the_shadows_extra_hit_brings_the_counter_stances_third_hit_forward():
    # Without the shadow, a second attack is only the 2nd hit; with it, hits 1-2 are the first
    # attack and its shadow, so the next attack is the 3rd hit and sets off the counter.
    first, state = shadow_vs_shell(0, [COUNTER, SHADOW])
    assert triggers(first) == [("shadow", "d1", HP)] and state.units["p2.shellback"].hits == 2
    events, _ = run(state, "p1", UseAbility(ability="haymaker"), MID)
    assert triggers(events) == [("counter_stance", "d2", HP), ("shadow", "d1", HP)]
    assert hits(events) == [("p2.shellback", 16, "ability"), ("p1.shadow_cat", 10, "counter"),
                            ("p2.shellback", 4, "shadow")]


def test_the_counter_stance_third_hit_does_not_depend_on_which_dynamic_came_first():
    # The same 3rd hit as above, with the shadow listed first in play.
    events, _ = shadow_vs_shell(2, [SHADOW, COUNTER])
    assert ("p1.shadow_cat", 10, "counter") in hits(events)


def test_the_shadows_hit_that_is_the_third_sets_off_counter_stance():
    # Seed 000, Check Phase: the AFTER shadow "may trigger another active Dynamic which reacts
    # after a Unit has been hit a certain number of times".
    events, _ = shadow_vs_shell(1, [COUNTER, SHADOW])
    assert ("p1.shadow_cat", 10, "counter") in hits(events)


@pytest.mark.parametrize("ability, dealt, fired", [("fireball", 20, True), ("jab", 6, False)])
def test_fire_ward_cuts_fiery_ability_damage_by_20_percent_at_severity_5(ability, dealt, fired):
    # ember_wisp (ATK 78) on cinderhound (DEF 45): fireball 15 x 78/45 = 26 -> 20.8; jab is not fiery.
    s = ring([unit("p1", "ember_wisp", abilities=("fireball", "jab"))], [unit("p2", "cinderhound")],
             dynamics=[dyn("d1", "fire_ward", source="unit", unit="p2.cinderhound")])
    events, _ = run(s, "p1", UseAbility(ability=ability), MID)
    assert hits(events) == [("p2.cinderhound", dealt, "ability")]
    assert triggers(events) == ([("fire_ward", "d1", HP)] if fired else [])


def test_fortify_cuts_all_hp_damage_to_its_carrier_by_4_percent_a_severity():
    # grizzlor haymakers iron_boar: 16 x 70/65 = 17, less 20% = 13.6
    s = ring([unit("p1", "grizzlor", abilities=("haymaker",))], [unit("p2", "iron_boar")],
             dynamics=[dyn("d1", "fortify", source="item", unit="p2.iron_boar")])
    events, _ = run(s, "p1", UseAbility(ability="haymaker"), MID)
    assert hits(events) == [("p2.iron_boar", 13, "ability")] and triggers(events) == [("fortify", "d1", HP)]


# -- permissions: mana_lock, stunned --------------------------------------------------------

def test_mana_lock_blocks_abilities_taking_10_mp_or_more_at_severity_5():
    s = ring([unit("p1", "ember_wisp", abilities=("fireball", "umbral_strike"))], [unit("p2", "hex_lich")],
             dynamics=[dyn("d1", "mana_lock", source="battlefield")])
    usable = {c.ability for c in legal_commands(s, "p1") if isinstance(c, UseAbility)}
    assert usable == {"umbral_strike"}                                      # 6 MP passes, 10 does not
    with pytest.raises(RuleViolation, match="Dynamic in play blocks"):
        run(s, "p1", UseAbility(ability="fireball"), MID)


def test_stunned_units_cannot_use_abilities_but_the_team_can_still_act():
    s = ring([unit("p1", "grizzlor", abilities=("jab",)), unit("p1", "shellback")], [unit("p2", "iron_boar")],
             items={"p1": ["potion"]}, dynamics=[dyn("d1", "stunned", unit="p1.grizzlor", severity=2)])
    kinds = {type(c).__name__ for c in legal_commands(s, "p1")}
    assert kinds == {"UseLeaderAbility", "UseItem", "Swap", "EndTurn"}
    with pytest.raises(RuleViolation, match="Dynamic in play blocks"):
        run(s, "p1", UseAbility(ability="jab"), MID)


@pytest.mark.parametrize("severity, then", [(2, [SeverityChanged(id="d1", severity=1, delta=-1)]),
                                            (1, [DynamicRemoved(id="d1", reason="severity")])])
def test_stunned_drops_by_1_at_the_end_of_its_teams_turn_and_wears_off_at_0(severity, then):
    s = ring([unit("p1", "grizzlor")], [unit("p2", "iron_boar")],
             dynamics=[dyn("d1", "stunned", unit="p1.grizzlor", severity=severity)])
    events, state = run(s, "p1", EndTurn())
    assert triggers(events) == [("stunned", "d1", "ring.TurnEnded")]
    assert of(events, SeverityChanged) + of(events, DynamicRemoved) == then
    assert events.index(then[0]) < events.index(of(events, TurnStarted)[0])
    # the enemy's turn end does not wear it down
    events, _ = run(state, "p2", EndTurn())
    assert triggers(events) == []


# -- turn-start Dynamics -------------------------------------------------------------------

@pytest.mark.parametrize("kind, severity, hp, change", [
    ("burning", 3, 150, [HpReduced(unit="p1.grizzlor", amount=6, kind="dynamic")]),           # 2 / severity
    ("venom", 4, 150, [HpReduced(unit="p1.grizzlor", amount=6, kind="dynamic")]),             # 4% of 150
    ("venom", 1, 150, [HpReduced(unit="p1.grizzlor", amount=1, kind="dynamic")]),             # 1.5 -> 1
    ("regeneration", 3, 100, [HpRestored(unit="p1.grizzlor", amount=6)]),                     # 2 / severity
    ("regeneration", 3, 150, []),                                                              # full HP
])
def test_damage_and_healing_over_time_at_the_start_of_the_carriers_turn(kind, severity, hp, change):
    d = dyn("d1", kind, unit="p1.grizzlor", severity=severity)
    then, _ = p1_turn_starts([unit("p1", "grizzlor", hp=hp)], [unit("p2", "iron_boar")], [d])
    assert then[1:] == ([EffectTriggered(kind=kind, owner="d1", on="ring.TurnStarted"), *change] if change else [])


def test_a_dynamic_over_time_waits_for_its_carriers_own_turn():
    s = ring([unit("p1", "grizzlor")], [unit("p2", "iron_boar")], dynamics=[dyn("d1", "burning", unit="p1.grizzlor")])
    events, _ = run(s, "p1", EndTurn())                                     # p2's turn starts
    assert hits(events) == [] and triggers(events) == []


@pytest.mark.parametrize("mp, gain", [(10, 3), (24, 1)])
def test_mana_spring_restores_the_ring_units_mp_up_to_its_max(mp, gain):
    then, _ = p1_turn_starts([unit("p1", "grizzlor", mp=mp)], [unit("p2", "iron_boar")],
                             [dyn("d1", "mana_spring", source="leader", seat="p1", severity=3)])
    assert of(then, MpChanged) == [MpChanged(unit="p1.grizzlor", delta=gain)]
    assert triggers(then) == [("mana_spring", "d1", "ring.TurnStarted")]


@pytest.mark.parametrize("ring_unit, taken", [("grizzlor", 10), ("cinderhound", 0)])
def test_scorched_earth_burns_the_active_ring_unit_unless_fiery(ring_unit, taken):
    then, _ = p1_turn_starts([unit("p1", ring_unit)], [unit("p2", "iron_boar")],
                             [dyn("d1", "scorched_earth", source="battlefield")])
    assert hits(then) == ([(f"p1.{ring_unit}", taken, "dynamic")] if taken else [])
    assert triggers(then) == ([("scorched_earth", "d1", "ring.TurnStarted")] if taken else [])


@pytest.mark.parametrize("seat, ap", [("p1", 11), (None, 11), ("p2", 10)])
def test_tailwind_adds_1_ap_at_the_start_of_its_teams_turn(seat, ap):
    then, state = p1_turn_starts([unit("p1", "grizzlor")], [unit("p2", "iron_boar")],
                                 [dyn("d1", "tailwind", source="leader" if seat else "battlefield", seat=seat)])
    assert then[0] == TurnStarted(seat="p1", turn=2, ap=ap) and state.p1.ap == ap


def test_quick_hands_makes_swap_unit_1_ap_cheaper():
    s = ring([unit("p1", "grizzlor"), unit("p1", "shellback")], [unit("p2", "iron_boar")],
             dynamics=[dyn("d1", "quick_hands", source="leader", seat="p1")])
    events, state = run(s, "p1", Swap(unit="shellback"))
    assert of(events, UnitSwapped) == [UnitSwapped(seat="p1", unit="shellback", out="p1.grizzlor", cost=2)]
    assert state.p1.ap == 8


@pytest.mark.parametrize("kind", ["tailwind", "quick_hands", "keen_eye"])
def test_query_dynamics_leave_an_effect_triggered_too(kind):
    d = dyn("d1", kind, source="leader", seat="p1")
    team = [unit("p1", "cinderhound", abilities=("jab",)), unit("p1", "shellback")]
    if kind == "tailwind":      # the whole batch: the trigger is logged as the AP is restored
        events, _ = run(ring(team, [unit("p2", "fang_shrike")], dynamics=[d], active="p2"), "p2", EndTurn())
    else:
        cmd = Swap(unit="shellback") if kind == "quick_hands" else UseAbility(ability="jab")
        events, _ = run(ring(team, [unit("p2", "fang_shrike")], dynamics=[d]), "p1", cmd, MID)
    assert (kind, "d1", {"tailwind": "ApRestore", "quick_hands": "SwapCost", "keen_eye": "Odds"}[kind]) \
        in triggers(events)


# -- soul_anchor -----------------------------------------------------------------------

@pytest.mark.parametrize("severity, after", [(5, 1), (10, 5), (4, None)])
def test_soul_anchor_saves_a_kos_lp_while_at_5_or_more_then_drops_by_5(severity, after):
    # A leader's Dynamic cannot go below 1, so 5 - 5 stops at 1; at 4 the LP is lost.
    s = ring([unit("p1", "grizzlor", abilities=("haymaker",))], [unit("p2", "iron_boar", hp=5)],
             dynamics=[dyn("d1", "soul_anchor", source="leader", seat="p2", severity=severity)])
    events, state = run(s, "p1", UseAbility(ability="haymaker"), MID)
    if after is None:
        assert of(events, LpLost) == [LpLost(unit="p2.iron_boar", amount=1)] and triggers(events) == []
        return
    assert of(events, LpLost) == [] and (state.units["p2.iron_boar"].lp, state.units["p2.iron_boar"].ko) == (3, True)
    assert events[-2:] == [EffectTriggered(kind="soul_anchor", owner="d1", on="ring.LpLost", cancelled=True),
                           SeverityChanged(id="d1", severity=after, delta=after - severity)]


# -- severity: 1-10, raised, lowered, removed (seed 000, Severity, Targeting Dynamics) ----

def hexer(ability, dynamics, target):
    """hex_lich (SKL 75) uses a Hexer ability on a Dynamic: SKL meets itself, Normal at MID."""
    s = ring([unit("p1", "hex_lich", abilities=(ability,))], [unit("p2", "grizzlor")], dynamics=dynamics)
    return run(s, "p1", UseAbility(ability=ability, target=target), MID)


# What each source brings in, placed as `picks.teams_enter` places it.
BROUGHT_IN = {"unit": dict(kind="rage", unit="p2.grizzlor"), "equipment": dict(kind="fortify", unit="p2.grizzlor"),
              "leader": dict(kind="soul_anchor", seat="p2"), "battlefield": dict(kind="scorched_earth")}


@pytest.mark.parametrize("ability, before, after", [("deepen", 3, 5), ("deepen", 9, 10), ("unravel", 3, 1)])
def test_the_severity_step_raises_and_lowers_within_1_to_10(ability, before, after):
    events, state = hexer(ability, [dyn("d1", "burning", unit="p2.grizzlor", severity=before)], "d1")
    assert of(events, SeverityChanged) == [SeverityChanged(id="d1", severity=after, delta=after - before)]
    assert state.dynamics[0].severity == after


def test_a_removable_dynamic_lowered_to_0_leaves_play():
    events, state = hexer("unravel", [dyn("d1", "burning", unit="p2.grizzlor", severity=2)], "d1")
    assert of(events, DynamicRemoved) == [DynamicRemoved(id="d1", reason="severity")] and state.dynamics == ()


@pytest.mark.parametrize("source", sorted(BROUGHT_IN))
def test_brought_in_dynamics_stop_at_severity_1(source):
    d = dyn("d1", source=source, severity=2, **BROUGHT_IN[source])
    events, state = hexer("unravel", [d], "d1")
    assert of(events, SeverityChanged) == [SeverityChanged(id="d1", severity=1, delta=-1)]
    events, _ = hexer("unravel", state.dynamics, "d1")
    assert of(events, SeverityChanged) + of(events, DynamicRemoved) == []


@pytest.mark.parametrize("source", sorted(BROUGHT_IN))
def test_only_ability_and_item_dynamics_can_be_removed(source):
    dynamics = [dyn("d1", source=source, **BROUGHT_IN[source]), dyn("d2", "burning", unit="p2.grizzlor")]
    s = ring([unit("p1", "hex_lich", abilities=("dispel",))], [unit("p2", "grizzlor")], dynamics=dynamics)
    assert [c.target for c in legal_commands(s, "p1") if getattr(c, "ability", "") == "dispel"] == ["d2"]
    with pytest.raises(RuleViolation):
        run(s, "p1", UseAbility(ability="dispel", target="d1"), MID)
    events, state = run(s, "p1", UseAbility(ability="dispel", target="d2"), MID)
    assert of(events, DynamicRemoved) == [DynamicRemoved(id="d2", reason="dispel")] and len(state.dynamics) == 1


@pytest.mark.parametrize("before, after", [(2, 5), (9, 10)])
def test_reinflicting_an_ability_dynamic_adds_severity_up_to_10(before, after):
    # immolate inflicts Burning 3 on a Normal hit; ember_wisp's SKL 65 meets hex_lich's PRY 65.
    s = ring([unit("p1", "ember_wisp", abilities=("immolate",))], [unit("p2", "hex_lich")],
             dynamics=[dyn("d1", "burning", unit="p2.hex_lich", severity=before)])
    events, state = run(s, "p1", UseAbility(ability="immolate"), MID)
    assert of(events, DynamicAdded) == [] and len(state.dynamics) == 1
    assert of(events, SeverityChanged) == [SeverityChanged(id="d1", severity=after, delta=after - before)]


def test_an_ability_dynamic_does_not_merge_into_a_units_own():
    s = ring([unit("p1", "shellback", abilities=("riposte_stance",))], [unit("p2", "grizzlor")],
             dynamics=[dyn("d1", "counter_stance", source="unit", unit="p1.shellback")])
    events, _ = run(s, "p1", UseAbility(ability="riposte_stance"), MID)
    assert of(events, DynamicAdded) == [DynamicAdded(id="d2", kind="counter_stance", source="ability", seat="p1",
                                                     unit="p1.shellback", severity=4, by="p1")]


# -- Dynamic-on-Dynamic ----------------------------------------------------------------

def test_a_seal_blocks_its_target_while_in_play():
    sealed = [BRUTALITY, dyn("d2", "seal", seat="p2", target="d1", severity=1)]
    events, _ = run(ring(*FANG_VS_MOSS, dynamics=sealed), "p1", UseAbility(ability="haymaker"), MID)
    assert hits(events) == [("p2.moss_mother", 23, "ability")] and triggers(events) == []


def test_a_seal_comes_into_play_on_a_dynamic_and_never_on_another_seal():
    dynamics = [dyn("d1", "rage", source="unit", unit="p2.grizzlor"), dyn("d2", "seal", seat="p2", target="d9")]
    s = ring([unit("p1", "hex_lich", abilities=("null_sigil",))], [unit("p2", "grizzlor")], dynamics=dynamics)
    assert [c.target for c in legal_commands(s, "p1") if getattr(c, "ability", "") == "null_sigil"] == ["d1"]
    events, _ = run(s, "p1", UseAbility(ability="null_sigil", target="d1"))
    assert of(events, DynamicAdded) == [DynamicAdded(id="d3", kind="seal", source="ability", seat="p1",
                                                     target="d1", severity=1, by="p1")]


def test_erosion_lowers_its_target_on_its_owners_turn_start():
    d = [dyn("d1", "rage", source="unit", unit="p2.iron_boar", severity=4),
         dyn("d2", "erosion", seat="p1", target="d1")]
    then, state = p1_turn_starts([unit("p1", "grizzlor")], [unit("p2", "iron_boar")], d)
    assert then[1:] == [EffectTriggered(kind="erosion", owner="d2", on="ring.TurnStarted"),
                        SeverityChanged(id="d1", severity=3, delta=-1)]
    events, _ = run(state, "p1", EndTurn())                                 # p2's turn: not the owner's
    assert of(events, SeverityChanged) == []


def test_a_target_leaving_play_takes_its_dynamic_on_dynamic_with_it():
    d = [dyn("d1", "burning", unit="p1.grizzlor", severity=1), dyn("d2", "erosion", seat="p1", target="d1"),
         dyn("d3", "seal", seat="p2", target="d1")]
    then, state = p1_turn_starts([unit("p1", "grizzlor")], [unit("p2", "iron_boar")], d)
    assert of(then, DynamicRemoved) == [DynamicRemoved(id="d1", reason="severity")]
    assert state.dynamics == ()


# -- unit and equipment Dynamics sleep while their unit is KO'd (seed 000, HP) -------------

def test_a_ko_d_units_dynamics_are_inactive_until_it_is_revived():
    s = ring([unit("p1", "grizzlor", hp=50), unit("p1", "moss_mother", hp=0, ko=True)], [unit("p2", "iron_boar")],
             items={"p1": ["potion", "potion"]},
             dynamics=[dyn("d1", "nurturing", source="unit", unit="p1.moss_mother")])
    events, state = run(s, "p1", UseItem(item="potion", target="p1.moss_mother"))
    assert of(events, HpRestored)[0].amount == 25 and triggers(events) == []
    assert of(events, UnitRevived) == [UnitRevived(unit="p1.moss_mother")]
    events, _ = run(state, "p1", UseItem(item="potion", target="p1.grizzlor"))
    assert of(events, HpRestored)[0].amount == 27 and triggers(events) == [("nurturing", "d1", "ring.HpRestored")]


@pytest.mark.parametrize("ko, gain", [(True, []), (False, [MpChanged(unit="p1.grizzlor", delta=2)])])
def test_equipment_dynamics_are_inactive_while_their_unit_is_ko(ko, gain):
    wearer = unit("p1", "ember_wisp", hp=0 if ko else 80, ko=ko)
    then, _ = p1_turn_starts([unit("p1", "grizzlor", mp=10), wearer], [unit("p2", "iron_boar")],
                             [dyn("d1", "mana_spring", source="equipment", unit="p1.ember_wisp", severity=2)])
    assert of(then, MpChanged) == gain
