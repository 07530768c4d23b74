"""Seed 003, 2.1.x Stats: the stat-level factors, levels stepping to +-infinity, the stats
ailments and equipment modify, the turn order (priority bracket, SPD, cleartext name) and
the damage formula.

Unless a test says otherwise, `params=EXACT` makes every damage roll 100%, and a hit is
power% x ATK x 100 / (100 + DEF), floored once (stats.damage).
"""
from __future__ import annotations

import pytest

from domain.engine.events import Viewer
from domain.rulesets.rat.events import (ActionTaken, BattleDecided, ConsumableUsed, DamageIgnored, EnemyHpChanged,
                                        HpChanged, KnockedOut, PriorityBoosted, StatLevelChanged, TurnStarted)
from domain.rulesets.rat.state import Params, Stack
from domain.rulesets.rat.stats import NEG_INF, POS_INF, clamp_level, damage, leveled, stat
from domain.rulesets.rat.view import view

from .given import RULES_1_1_0, ailment, battle, enemy, entity, of_type, passive, started_turn, turn

EXACT = Params(roll_min_pct=100)
INFINITE = Params(level_cap=4)     # levels reach +-infinity (test_level_cap.py: the default stops at +-3)
# Seed 003's table, level -> (a stat of 100 at that level); +-4 stand for +-infinity.
FACTOR_OF_100 = [(-4, 0), (-3, 25), (-2, 50), (-1, 75), (0, 100), (1, 125), (2, 150), (3, 200), (4, POS_INF)]


def actors(events) -> list[str]:
    return [e.actor for e in events if isinstance(e, (ActionTaken, ConsumableUsed))]


# -- the level table -------------------------------------------------------------------------------

@pytest.mark.parametrize("level, value", FACTOR_OF_100)
def test_each_level_scales_a_stat_by_the_seeds_factor(level, value):
    assert leveled(100, level) == value     # -3: 1 - 3/4, ..., +3: 2, +inf: infinity, -inf: 0


@pytest.mark.parametrize("level, value", FACTOR_OF_100)
def test_the_stat_in_effect_applies_the_entitys_level(level, value):
    mc = entity("mc", atk=100, defense=100, spd=100, levels={"atk": level, "def": level, "spd": level})
    s = battle([mc])
    assert (stat(s, mc, "atk"), stat(s, mc, "def"), stat(s, mc, "spd")) == (value, value, value)


def test_spd_at_level_minus_infinity_is_zero_in_the_order_and_the_view():
    # seed 003, Stats: "| -infinity | 0 |": the factor is 0 for SPD as for ATK and DEF
    # given: mc (SPD 999) at SPD level -infinity, e1 (named Zed) at SPD 0
    given = battle([entity("mc", spd=999, levels={"spd": -4})], [enemy("e1", name="Zed", spd=0)])
    mc = given.entities["mc"]
    # when: turn 2 is sorted
    then, _ = started_turn(given)
    # then: 999 x 0 = 0, a tie with Zed's 0 that the smaller name ("MC" < "Zed") breaks; the
    # view shows the 0, not "-inf"
    assert stat(given, mc, "spd") == 0
    assert then == [TurnStarted(turn=2, queue=("mc", "e1"))]
    assert view(given, Viewer(seat="p1"))["party"][0]["spd"] == 0


def test_a_battle_of_rat_1_1_0_keeps_spd_at_level_minus_infinity_as_minus_infinity():
    # given: the same battle under 1.1.0's rules, which treated that SPD as -infinity
    given = battle([entity("mc", spd=999, levels={"spd": -4})], [enemy("e1", name="Zed", spd=0)], rules=RULES_1_1_0)
    # when: turn 2 is sorted
    then, _ = started_turn(given)
    # then: mc sorts after Zed's 0, and the view reads "-inf", as 1.1.0 recorded
    assert stat(given, given.entities["mc"], "spd") == NEG_INF
    assert then == [TurnStarted(turn=2, queue=("e1", "mc"))]
    assert view(given, Viewer(seat="p1"))["party"][0]["spd"] == "-inf"


def test_frozen_spd_stays_minus_infinity_below_a_level_of_minus_infinity():
    # seed 003, FROZEN: "Target SPD is treated as negative infinity at all times"
    given = battle([entity("mc", spd=999, levels={"spd": -4})], [enemy("e1", name="Zed", spd=0)],
                   effects=[ailment("frozen", "mc")])
    assert stat(given, given.entities["mc"], "spd") == NEG_INF
    assert given.order == ("e1", "mc")


def test_a_leveled_stat_is_floored():
    assert (leveled(33, -1), leveled(33, 1), leveled(33, -3)) == (24, 41, 8)    # 24.75, 41.25, 8.25


@pytest.mark.parametrize("level, dealt", [(-3, 25), (-2, 50), (-1, 75), (0, 100), (1, 125), (2, 150), (3, 200)])
def test_the_attackers_atk_level_scales_a_real_hit(level, dealt):
    given = battle([entity("mc", atk=100, spd=90, levels={"atk": level})], [enemy("e1", hp=1000, defense=0)],
                   params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    # ATK 100 x factor x 100 / (100 + DEF 0)
    assert of_type(then, EnemyHpChanged)[0].delta == -dealt
    assert state.entities["e1"].hp == 1000 - dealt


@pytest.mark.parametrize("level, dealt", [(-4, 100), (-3, 80), (-2, 66), (-1, 57), (0, 50), (1, 44), (2, 40),
                                          (3, 33)])
def test_the_defenders_def_level_scales_a_real_hit(level, dealt):
    given = battle([entity("mc", atk=100, spd=90)], [enemy("e1", hp=1000, defense=100, levels={"def": level})],
                   params=EXACT)
    then, _ = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    # 100 x 100 / (100 + DEF): DEF 25 -> 80, 50 -> 66.7, 75 -> 57.1, 125 -> 44.4, 200 -> 33.3; -inf: DEF 0
    assert of_type(then, EnemyHpChanged)[0].delta == -dealt


def test_atk_at_minus_infinity_deals_nothing():
    given = battle([entity("mc", atk=100, spd=90, levels={"atk": -4})], [enemy("e1", defense=0)], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert then[4:6] == [ActionTaken(actor="mc", action="strike", target="e1"),
                         DamageIgnored(target="e1", reason="no_damage", by="mc")]
    assert state.entities["e1"].hp == 100


def test_def_at_plus_infinity_takes_nothing():
    given = battle([entity("mc", atk=100, spd=90)], [enemy("e1", levels={"def": 4})], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert DamageIgnored(target="e1", reason="no_damage", by="mc") in then
    assert state.entities["e1"].hp == 100


def test_atk_at_plus_infinity_is_lethal():
    given = battle([entity("mc", atk=1, spd=90, levels={"atk": 4})], [enemy("e1", hp=1000, defense=500)],
                   params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert then[5:] == [EnemyHpChanged(target="e1", seat="p2", delta=-1000, hp=0, healed=False, cause="strike",
                                       by="mc"),
                        KnockedOut(target="e1", turn=1),
                        BattleDecided(winner="party", reason="all_enemies_knocked_out")]


# -- levels step along (-inf, -3 .. +3, +inf) ------------------------------------------------------

@pytest.mark.parametrize("level, step, after", [(3, 1, 4), (4, 1, 4), (2, 2, 4), (-3, -1, -4), (-2, -2, -4),
                                                (-4, 1, -3), (4, -1, 3), (0, 1, 1)])
def test_one_step_past_three_is_infinity(level, step, after):
    assert clamp_level(level + step) == after


def test_war_cry_on_atk_plus_three_makes_it_plus_infinity_under_a_level_cap_of_4():
    # `level_cap` 4 (a setup's choice; every release before 1.3.0) lets a level reach +-infinity
    given = battle([entity("mc", spd=90, levels={"atk": 3}, moves={"war_cry": 6})], params=INFINITE)
    then, state = turn(given, {"mc": ("war_cry", "mc"), "e1": ("strike", "mc")})
    assert StatLevelChanged(target="mc", stat="atk", level=4, by="mc") in then
    assert stat(state, state.entities["mc"], "atk") == POS_INF


def test_trip_on_spd_minus_two_makes_its_level_minus_infinity_under_a_level_cap_of_4():
    given = battle([entity("mc", spd=90, moves={"trip": 6})], [enemy("e1", levels={"spd": -2})], params=INFINITE)
    then, state = turn(given, {"mc": ("trip", "e1"), "e1": ("strike", "mc")})
    assert StatLevelChanged(target="e1", stat="spd", level=-4, by="mc") in then     # -2 -> -3 -> -inf
    assert stat(state, state.entities["e1"], "spd") == 0                             # factor 0


# -- the turn order --------------------------------------------------------------------------------

def test_spd_plus_infinity_acts_first_and_minus_infinity_last():
    given = battle([entity("mc", spd=1, levels={"spd": 4}), entity("m2", spd=999, levels={"spd": -4})],
                   [enemy("e1", spd=500)])
    then, _ = started_turn(given)
    assert then == [TurnStarted(turn=2, queue=("mc", "e1", "m2"))]


@pytest.mark.parametrize("slowed", [ailment("frozen", "mc"), passive("ball_and_chain", "mc")])
def test_frozen_or_ball_and_chain_acts_last(slowed):
    given = battle([entity("mc", spd=999)], [enemy("e1", spd=1)], effects=[slowed])
    _, state = started_turn(given)
    assert state.order == ("e1", "mc")
    assert stat(state, state.entities["mc"], "spd") == NEG_INF


def test_minus_infinity_spd_beats_a_plus_infinity_level():
    given = battle([entity("mc", spd=999, levels={"spd": 4})], [enemy("e1", spd=1)],
                   effects=[passive("ball_and_chain", "mc")])
    assert given.order == ("e1", "mc")


def test_a_higher_priority_bracket_acts_before_any_spd():
    given = battle([entity("mc", spd=1, priority=1, levels={"spd": -4})], [enemy("e1", spd=999, levels={"spd": 4})],
                   params=EXACT)
    then, _ = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert given.order == ("mc", "e1")
    assert actors(then) == ["mc", "e1"]


def test_within_a_bracket_the_higher_spd_acts_first():
    given = battle([entity("mc", spd=49)], [enemy("e1", spd=50)], params=EXACT)
    then, _ = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert given.order == ("e1", "mc")
    assert actors(then) == ["e1", "mc"]


def test_a_speed_tie_goes_to_the_lexicographically_smaller_name():
    # the ids would sort m1 first; the cleartext names put GIRL before PROF
    given = battle([entity("m1", name="PROF", spd=50), entity("m2", name="GIRL", spd=50)], [enemy("e1", spd=10)],
                   params=EXACT)
    then, state = turn(given, {"m1": ("strike", "e1"), "m2": ("strike", "e1"), "e1": ("strike", "m1")})
    assert given.order == ("m2", "m1", "e1")
    assert actors(then) == ["m2", "m1", "e1"]
    assert of_type(then, TurnStarted) == [TurnStarted(turn=2, queue=("m2", "m1", "e1"))]


def test_a_move_with_priority_one_goes_before_a_faster_strike():
    given = battle([entity("mc", spd=10, moves={"quick_jab": 10})], [enemy("e1", spd=90)], params=EXACT)
    then, state = turn(given, {"mc": ("quick_jab", "e1"), "e1": ("strike", "mc")})
    assert given.order == ("e1", "mc")
    assert PriorityBoosted(target="mc", amount=1, by="mc") in then
    assert actors(then) == ["mc", "e1"]
    assert of_type(then, EnemyHpChanged)[0].delta == -20     # 60% x 40 x 100/120 = 20
    assert state.entities["mc"].boost == 0                  # the boost lasts the turn only


def test_a_potions_plus_two_goes_before_a_plus_one_move():
    given = battle([entity("mc", spd=10, hp=50, max_hp=100, items={"potion": Stack(count=1, durability=3)})],
                   [enemy("e1", spd=90, moves={"quick_jab": 10})], params=EXACT)
    then, state = turn(given, {"mc": ("potion", "mc"), "e1": ("quick_jab", "mc")})
    assert actors(then) == ["mc", "e1"]
    assert of_type(then, HpChanged) == [HpChanged(target="mc", delta=1, hp=51, cause="potion", by="mc"),
                                        HpChanged(target="mc", delta=-20, hp=31, cause="quick_jab", by="e1")]


def test_a_priority_boost_mid_turn_moves_the_ally_ahead():
    given = battle([entity("m1", spd=10, moves={"hurry_up": 5}), entity("m2", spd=5)], [enemy("e1", spd=90)],
                   params=EXACT)
    then, _ = turn(given, {"m1": ("hurry_up", "m2"), "m2": ("strike", "e1"), "e1": ("strike", "m1")})
    assert given.order == ("e1", "m1", "m2")
    # hurry_up: m1 +2 at the reveal, then m2 +2 when it resolves, ahead of e1 still waiting
    assert of_type(then, PriorityBoosted) == [PriorityBoosted(target="m1", amount=2, by="m1"),
                                              PriorityBoosted(target="m2", amount=2, by="m1")]
    assert actors(then) == ["m1", "m2", "e1"]


def test_a_spd_change_mid_turn_reorders_who_is_still_waiting():
    given = battle([entity("m1", spd=90, moves={"trip": 6}), entity("m2", spd=40)], [enemy("e1", spd=60)],
                   params=EXACT)
    then, _ = turn(given, {"m1": ("trip", "e1"), "m2": ("strike", "e1"), "e1": ("strike", "m1")})
    # TRIP: e1's SPD level -2, 60 x 1/2 = 30 < m2's 40
    assert given.order == ("m1", "e1", "m2")
    assert actors(then) == ["m1", "m2", "e1"]


# -- the damage formula ----------------------------------------------------------------------------

@pytest.mark.parametrize("power, atk, defense, roll, dealt", [
    (100, 40, 20, 93, 31),          # 40 x 100/120 = 33.3 x 93% = 31.0
    (100, 40, 20, 85, 28),          # 33.3 x 85% = 28.3
    (150, 33, 20, 87, 35),          # 49.5 x 100/120 = 41.25 x 87% = 35.9; flooring each step gives 34
    (60, 40, 0, 100, 24),           # 60% x 40
    (1, 1, 1000, 85, 1),            # 0.0008: at least 1
    (100, 0, 20, 100, 0),           # ATK 0 deals nothing
    (0, 40, 20, 100, 0),            # no power, no damage
    (100, 40, POS_INF, 100, 0),     # DEF +infinity blocks everything
    (100, POS_INF, 999, 85, POS_INF),   # ATK +infinity is lethal
])
def test_damage_formula(power, atk, defense, roll, dealt):
    assert damage(power, atk, defense, roll, 100) == dealt


def test_the_defense_scale_is_a_param():
    assert damage(100, 40, 20, 100, 60) == 30      # 40 x 60/80


def test_the_roll_is_drawn_between_85_and_100_percent():
    given = battle([entity("mc", spd=90)], [enemy("e1")])
    then, _ = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    # seed b"rat-rules" draws rolls 95 (mc's hit), then 92 (e1's): 33.3 x 95% = 31.7, 33.3 x 92% = 30.7
    assert [e.delta for e in then if isinstance(e, (EnemyHpChanged, HpChanged))] == [-31, -30]


# -- ailments in the stats -------------------------------------------------------------------------

@pytest.mark.parametrize("kind, stats", [("burned", (40, 10, 50)), ("chilled", (40, 20, 25)),
                                          ("paralyzed", (40, 20, 75)), ("blinded", (0, 20, 50))])
def test_an_ailment_scales_one_stat(kind, stats):
    mc = entity("mc", atk=40, defense=20, spd=50)
    s = battle([mc], effects=[ailment(kind, "mc")])
    # BURNED DEF 20 x 50%, CHILLED SPD 50 x 50%, PARALYZED SPD 50 x 150%, BLINDED ATK x 0
    assert (stat(s, mc, "atk"), stat(s, mc, "def"), stat(s, mc, "spd")) == stats


def test_blinded_is_zero_atk_even_at_plus_infinity():
    # seed 003, BLINDED: "Target ATK is treated as 0 at all times", as FROZEN's SPD -infinity
    # "at all times" beats a +infinity SPD level
    given = battle([entity("mc", spd=90, levels={"atk": 4})], [enemy("e1"), enemy("e2")],
                   effects=[ailment("blinded", "mc")], params=EXACT)
    assert stat(given, given.entities["mc"], "atk") == 0
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc"), "e2": ("strike", "mc")})
    assert DamageIgnored(target="e1", reason="no_damage", by="mc") in then
    assert state.entities["e1"].hp == 100


def test_an_ailment_applies_after_the_level():
    mc = entity("mc", defense=20, levels={"def": 2})
    s = battle([mc], effects=[ailment("burned", "mc")])
    assert stat(s, mc, "def") == 15     # 20 x 1.5 = 30, x 50%


def test_a_burned_target_takes_more_from_a_hit():
    given = battle([entity("mc", spd=90)], [enemy("e1")], effects=[ailment("burned", "e1")], params=EXACT)
    then, _ = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert of_type(then, EnemyHpChanged)[0].delta == -36    # 40 x 100/(100 + 10) = 36.4


def test_chilled_halves_spd_in_the_queue():
    given = battle([entity("mc", spd=60)], [enemy("e1", spd=50)], effects=[ailment("chilled", "mc")])
    assert given.order == ("e1", "mc")      # 60 x 50% = 30 < 50


def test_paralyzed_raises_spd_in_the_queue():
    given = battle([entity("mc", spd=40)], [enemy("e1", spd=50)], effects=[ailment("paralyzed", "mc")])
    assert given.order == ("mc", "e1")      # 40 x 150% = 60 > 50


def test_a_blinded_attacker_deals_nothing():
    given = battle([entity("mc", spd=90)], [enemy("e1")], effects=[ailment("blinded", "mc")], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert DamageIgnored(target="e1", reason="no_damage", by="mc") in then
    assert state.entities["e1"].hp == 100

