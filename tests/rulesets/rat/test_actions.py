"""Seed 003, 2.2 Actions and 2.3 Consumables: STRIKE, PROTECT, WISH, ANALYZE, POTION,
STUTTER_POTION, PP and used-up stacks, and the commands a turn refuses.

Entities come from given.py: 100 HP, ATK 40, DEF 20, SPD 50 unless a test says otherwise.
Damage is power% x ATK x 100 / (100 + DEF) x roll%; `EXACT` pins the roll at 100%.
"""
from __future__ import annotations

import msgspec
import pytest

from domain.engine.errors import RuleViolation
from domain.engine.events import Viewer
from domain.engine.rng import Rng
from domain.rulesets.rat import RULESET
from domain.rulesets.rat.commands import Act
from domain.rulesets.rat.decide import decide
from domain.rulesets.rat.events import (ActionFailed, ActionTaken, Analyzed, ConsumableUsed, DamageIgnored,
                                        EnemyHpChanged, HpChanged, HpGauge, KnockedOut, Killed, PpRestored,
                                        Protected, RatStarted, Revived, StatLevelChanged, TurnEnded, TurnStarted,
                                        WishGranted, WishMade)
from domain.rulesets.rat.legal import options
from domain.rulesets.rat.setup import DEFAULT_SETUP
from domain.rulesets.rat.state import Params, Rules, Stack
from domain.rulesets.rat.view import view

from .given import RULES_1_1_0, SEED, ailment, battle, enemy, entity, of_type, started_turn, turn

EXACT = Params(roll_min_pct=100)


def actions(s, key):
    """The distinct actions `key` may choose now, in the order `legal.options` lists them."""
    return list(dict.fromkeys(o.action for o in options(s, s.entities[key])))


# -- STRIKE ---------------------------------------------------------------------------------

def test_strike_deals_the_users_attack_against_the_targets_defense():
    given = battle([entity("mc", atk=60, spd=60)], [enemy("e1", defense=20, spd=10)], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    # mc: 100% x 60 x 100 / (100 + 20) = 50; e1: 100% x 40 x 100 / (100 + 20) = 33.3 -> 33
    assert of_type(then, EnemyHpChanged) == [EnemyHpChanged(target="e1", seat="p2", delta=-50, hp=50, healed=False,
                                                            cause="strike", by="mc")]
    assert of_type(then, HpChanged) == [HpChanged(target="mc", delta=-33, hp=67, cause="strike", by="e1")]
    assert (state.entities["e1"].hp, state.entities["mc"].hp) == (50, 67)


def test_strike_rolls_85_to_100_percent_from_the_seeded_rng():
    given = battle([entity("mc", atk=60, spd=60)], [enemy("e1", defense=20, atk=0, spd=10)])
    roll = Rng(SEED).int(85, 100)               # the batch's first draw is mc's roll: 95
    then, _ = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    # 60 x 100 / 120 = 50, times 95%, floored: 47
    assert roll == 95
    assert of_type(then, EnemyHpChanged)[0].delta == -(50 * roll // 100) == -47


# -- PROTECT --------------------------------------------------------------------------------

def test_protect_blocks_damage_and_lowered_stats_but_not_a_raise():
    given = battle([entity("mc", spd=60), entity("sc", spd=50, moves={"war_cry": 6})],
                   [enemy("e1", spd=40), enemy("e2", spd=30, moves={"tail_whip": 10})], params=EXACT)
    then, state = turn(given, {"mc": ("protect", "mc"), "sc": ("war_cry", "mc"), "e1": ("strike", "mc"),
                               "e2": ("tail_whip", "mc")})
    assert of_type(then, Protected) == [Protected(target="mc", by="mc", turn=1)]
    # seed 003, PROTECT: a move that only raises a stat still applies
    assert of_type(then, StatLevelChanged) == [StatLevelChanged(target="mc", stat="atk", level=1, by="sc")]
    assert of_type(then, DamageIgnored) == [DamageIgnored(target="mc", reason="protected", by="e1"),
                                            DamageIgnored(target="mc", reason="protected", by="e2")]
    assert state.entities["mc"].hp == 100
    assert state.entities["mc"].levels == {"atk": 1}          # no DEF -1 from tail_whip


def test_bleeding_still_hurts_a_protected_entity_at_the_end_of_the_turn():
    given = battle([entity("mc", spd=60)], [enemy("e1", spd=40)], effects=[ailment("bleeding", "mc")], params=EXACT)
    then, state = turn(given, {"mc": ("protect", "mc"), "e1": ("strike", "mc")})
    # seed 003, PROTECT: "continuous conditions that activate at the end of a turn still active"; 100 / 8 = 12
    assert of_type(then, HpChanged) == [HpChanged(target="mc", delta=-12, hp=88, cause="bleeding", by=None)]
    assert state.entities["mc"].hp == 88


def test_protect_on_the_same_entity_two_turns_in_a_row_fails():
    given = battle([entity("mc", spd=60, protected_turn=1)], [enemy("e1", spd=40)], turn=2, params=EXACT)
    then, state = turn(given, {"mc": ("protect", "mc"), "e1": ("strike", "mc")})
    assert of_type(then, ActionFailed) == [ActionFailed(actor="mc", action="protect", target="mc",
                                                        reason="protected_last_turn")]
    assert of_type(then, Protected) == []
    assert of_type(then, HpChanged) == [HpChanged(target="mc", delta=-33, hp=67, cause="strike", by="e1")]
    assert state.entities["mc"].protected_turn == 1


def test_protect_by_an_ally_also_fails_on_one_protected_last_turn():
    # seed 003: "if an entity is targeted by PROTECT for two turns in a row" - whoever casts it
    given = battle([entity("mc", spd=60, protected_turn=1), entity("sc", spd=55)], [enemy("e1", spd=40)], turn=2)
    then, _ = turn(given, {"mc": ("strike", "e1"), "sc": ("protect", "mc"), "e1": ("strike", "sc")})
    assert of_type(then, ActionFailed) == [ActionFailed(actor="sc", action="protect", target="mc",
                                                        reason="protected_last_turn")]


def test_protect_works_again_the_turn_after_it_failed():
    # protected in turn 1, failed in turn 2 (which records nothing), so turn 3 is not "in a row"
    given = battle([entity("mc", spd=60, protected_turn=1)], [enemy("e1", spd=40)], turn=3, params=EXACT)
    then, state = turn(given, {"mc": ("protect", "mc"), "e1": ("strike", "mc")})
    assert of_type(then, Protected) == [Protected(target="mc", by="mc", turn=3)]
    assert of_type(then, DamageIgnored) == [DamageIgnored(target="mc", reason="protected", by="e1")]
    assert state.entities["mc"].protected_turn == 3


# -- WISH -----------------------------------------------------------------------------------

def wished(params: Params = EXACT):
    """Turn 1: girl (300 max HP) WISHes on mc (40 / 200 HP); e1 has ATK 0."""
    given = battle([entity("mc", hp=40, max_hp=200, spd=60), entity("girl", hp=300, spd=10, intrinsic=("strike", "wish"))],
                   [enemy("e1", spd=90, atk=0)], params=params)
    return turn(given, {"mc": ("protect", "mc"), "girl": ("wish", "mc"), "e1": ("strike", "girl")})


def test_wish_heals_at_the_start_of_the_turn_after_the_one_it_was_used_in():
    # seed 003, 2.2 WISH: "To clarify, if girl has 300 max HP and her target has 200 max HP, then
    # the turn wish is used nothing happens. Then, the turn after, that target is healed for 150 HP"
    # given: turn 1, girl (300 max HP) WISHes on mc (40 / 200 HP)
    # when: turn 1 resolves and turn 2 starts (the same batch)
    then, state = wished()
    # then: nothing in turn 1; at turn 2's start mc heals 0.5 x 300 = 150: 40 + 150 = 190
    assert of_type(then, WishMade) == [WishMade(target="mc", by="girl", amount=150, turn=1)]
    ended = then.index(TurnEnded(turn=1, party_hp={"mc": 40, "girl": 300}))
    assert of_type(then[:ended], HpChanged) == []
    assert then[ended + 1:] == [WishGranted(target="mc", amount=150),
                                HpChanged(target="mc", delta=150, hp=190, cause="wish", by=None),
                                TurnStarted(turn=2, queue=("e1", "mc", "girl"))]
    assert (state.entities["mc"].hp, state.has("mc", "wish")) == (190, False)


def test_a_battle_of_rat_1_1_0_heals_its_wish_a_turn_later_as_it_recorded():
    # given: 1.1.0's wish_delay of 2 (its kept params), girl WISHes on mc in turn 1
    then, state = wished(Params(roll_min_pct=100, wish_delay=2))
    assert of_type(then, WishGranted) == [] and state.entities["mc"].hp == 40
    # when: turn 2 ends and turn 3 starts
    then, after = started_turn(state)
    # then: the heal comes at turn 3's start: 40 + 150 = 190
    assert then[:2] == [WishGranted(target="mc", amount=150),
                        HpChanged(target="mc", delta=150, hp=190, cause="wish", by=None)]
    assert then[-1] == TurnStarted(turn=3, queue=("e1", "mc", "girl"))
    assert after.entities["mc"].hp == 190


def test_the_1_1_0_release_opens_its_battles_with_its_wish_delay_and_rules():
    # given: rat 1.1.0 as this code still plays it, on its kept content
    old = RULESET.release("1.1.0", RULESET.releases["1.1.0"].content)     # type: ignore[index]
    assert old is not None
    # when: it opens the default battle, and today's version does
    opened = [of_type(list(r.start(r.parse_setup(DEFAULT_SETUP), Rng(SEED)).events), RatStarted)[0]
              for r in (old, RULESET)]
    # then: 1.1.0 waits 2 turns and plays the rules as it did; today waits 1
    assert [(e.params["wish_delay"], e.rules) for e in opened] == [
        (2, msgspec.to_builtins(RULES_1_1_0)), (1, msgspec.to_builtins(Rules()))]


# -- POTION ---------------------------------------------------------------------------------

def downed(**girl):
    """Turn 2: mc was knocked out in turn 1; the slow girl carries a potion; e1 is fast."""
    return battle([entity("mc", hp=0, max_hp=100, ko=True, ko_turn=1, spd=60),
                   entity("girl", spd=10, intrinsic=("strike", "wish"), **girl)], [enemy("e1", spd=90)],
                  turn=2, params=EXACT)


def test_a_potion_revives_a_knocked_out_ally_before_the_enemy_kills_it():
    given = downed(items={"potion": Stack(count=1, durability=3)})
    then, state = turn(given, {"girl": ("potion", "mc"), "e1": ("strike", "mc")})
    # seed 003, POTION: +2 priority puts SPD 10 ahead of SPD 90; the 1 HP it heals is lost again,
    # which knocks mc out (invulnerable for the rest of the turn) instead of killing it
    acted = [e for e in then if isinstance(e, (ConsumableUsed, HpChanged, Revived, ActionTaken, KnockedOut, Killed))]
    assert acted == [ConsumableUsed(actor="girl", item="potion", target="mc", seat="p1", left=0),
                     HpChanged(target="mc", delta=1, hp=1, cause="potion", by="girl"),
                     Revived(target="mc"),
                     ActionTaken(actor="e1", action="strike", target="mc", pp=None),
                     HpChanged(target="mc", delta=-1, hp=0, cause="strike", by="e1"),
                     KnockedOut(target="mc", turn=2)]
    assert state.result is None
    assert (state.entities["mc"].ko, state.entities["mc"].dead) == (True, False)


def test_without_the_potion_the_strike_kills_the_knocked_out_ally():
    then, state = turn(downed(), {"girl": ("strike", "e1"), "e1": ("strike", "mc")})
    assert of_type(then, Killed) == [Killed(target="mc", cause="strike")]
    assert state.result == ("enemies", "party_member_killed")


# -- STUTTER_POTION, PP and used-up stacks ------------------------------------------------

def test_stutter_potion_is_an_option_only_for_a_move_at_0_pp():
    stutter = {"stutter_potion": Stack(count=1, durability=3)}
    drained = battle([entity("mc", moves={"heavy_swing": 0, "quick_jab": 3}, items=stutter)])
    fresh = battle([entity("mc", moves={"heavy_swing": 2, "quick_jab": 3}, items=stutter)])
    assert [o for o in options(drained, drained.entities["mc"]) if o.action == "stutter_potion"] == \
        [Act(actor="mc", action="stutter_potion", target="mc", move="heavy_swing")]
    assert [o for o in options(fresh, fresh.entities["mc"]) if o.action == "stutter_potion"] == []


def test_stutter_potion_naming_a_move_with_pp_left_is_refused():
    given = battle([entity("mc", spd=60, moves={"heavy_swing": 0, "quick_jab": 3},
                           items={"stutter_potion": Stack(count=1, durability=3)})], [enemy("e1", spd=40)])
    for move in ("quick_jab", None):
        with pytest.raises(RuleViolation):
            decide(given, "p1", Act(actor="mc", action="stutter_potion", target="mc", move=move), Rng(SEED))


def test_stutter_potion_sets_a_0_pp_move_to_3_pp():
    given = battle([entity("mc", spd=60, moves={"heavy_swing": 0}, max_pp={"heavy_swing": 5},
                           items={"stutter_potion": Stack(count=1, durability=3)})], [enemy("e1", spd=40)])
    then, state = turn(given, {"mc": ("stutter_potion", "mc", "heavy_swing"), "e1": ("strike", "mc")})
    assert of_type(then, PpRestored) == [PpRestored(actor="mc", move="heavy_swing", pp=3)]
    assert state.entities["mc"].moves == {"heavy_swing": 3}
    assert "heavy_swing" in actions(state, "mc")


def test_a_consumable_is_used_up_and_an_empty_stack_is_no_longer_an_option():
    given = battle([entity("mc", spd=60, hp=50, max_hp=100,
                           items={"potion": Stack(count=1, durability=3), "hi_potion": Stack(count=2, durability=3)})],
                   [enemy("e1", atk=0, spd=40)])
    then, state = turn(given, {"mc": ("potion", "mc"), "e1": ("strike", "mc")})
    assert of_type(then, ConsumableUsed) == [ConsumableUsed(actor="mc", item="potion", target="mc", seat="p1", left=0)]
    assert state.entities["mc"].items == {"potion": Stack(count=0, durability=3),
                                          "hi_potion": Stack(count=2, durability=3)}
    assert actions(given, "mc") == ["strike", "protect", "potion", "hi_potion"]
    assert actions(state, "mc") == ["strike", "protect", "hi_potion"]


def test_a_move_spends_a_pp_and_at_0_pp_is_no_longer_an_option():
    given = battle([entity("mc", spd=60, moves={"heavy_swing": 1, "quick_jab": 10})], [enemy("e1", spd=40)])
    then, state = turn(given, {"mc": ("heavy_swing", "e1"), "e1": ("strike", "mc")})
    assert of_type(then, ActionTaken)[0] == ActionTaken(actor="mc", action="heavy_swing", target="e1", pp=0)
    assert state.entities["mc"].moves == {"heavy_swing": 0, "quick_jab": 10}
    assert state.entities["mc"].used == ("heavy_swing",)
    assert actions(state, "mc") == ["quick_jab", "strike", "protect"]
    with pytest.raises(RuleViolation):
        decide(state, "p1", Act(actor="mc", action="heavy_swing", target="e1"), Rng(SEED))


# -- ANALYZE --------------------------------------------------------------------------------

def test_analyze_shows_the_party_an_enemys_hp_bar_and_never_its_hp():
    prof = entity("prof", spd=60, intrinsic=("strike", "protect", "analyze"))
    given = battle([prof], [enemy("e1", hp=80, max_hp=120, atk=0, spd=40), enemy("e2", atk=0, spd=30)])
    then, state = turn(given, {"prof": ("analyze", "e1"), "e1": ("strike", "prof"), "e2": ("strike", "prof")})
    # 80 / 120 = 66.7% -> a bar of 66
    assert of_type(then, Analyzed) == [Analyzed(target="e1", by="prof", mode="")]
    assert of_type(then, HpGauge) == [HpGauge(target="e1", pct=66)]
    seen = {e["id"]: e for e in view(state, Viewer(seat="p1"))["enemies"]}
    assert (seen["e1"]["analyzed"], seen["e1"]["hp_pct"], "hp" in seen["e1"], "max_hp" in seen["e1"]) == \
        (True, 66, False, False)
    assert (seen["e2"]["analyzed"], seen["e2"]["hp_pct"], "hp" in seen["e2"]) == (False, None, False)


# -- refused commands -----------------------------------------------------------------------

def two_members():
    return battle([entity("mc", spd=60), entity("sc", spd=50)], [enemy("e1", spd=40)])


@pytest.mark.parametrize("seat, cmd", [
    ("p1", Act(actor="sc", action="strike", target="e1")),          # mc chooses first (the queue)
    ("p1", Act(actor="mc", action="heavy_swing", target="e1")),     # not one of mc's actions
    ("p1", Act(actor="mc", action="strike", target="sc")),          # STRIKE targets an enemy
    ("p1", Act(actor="mc", action="protect", target="e1")),         # PROTECT targets self or ally
    ("p1", Act(actor="mc", action="strike", target="e9")),          # no such entity
    ("p2", Act(actor="mc", action="strike", target="e1")),          # p2 is waiting on e1, not mc
], ids=["out_of_order", "unusable", "own_side", "protect_enemy", "unknown_target", "other_seat"])
def test_a_refused_command_raises_before_any_event(seat, cmd):
    given = two_members()
    with pytest.raises(RuleViolation):
        decide(given, seat, cmd, Rng(SEED))
    assert given.plans == {}


def test_a_seat_that_has_planned_everyone_is_refused_until_the_turn_resolves():
    planned = decide(battle([entity("mc", spd=60)], [enemy("e1", spd=40)]), "p1",
                     Act(actor="mc", action="strike", target="e1"), Rng(SEED)).state
    assert planned is not None and planned.turn == 1           # still waiting on p2's e1
    with pytest.raises(RuleViolation, match="nothing to choose"):
        decide(planned, "p1", Act(actor="mc", action="strike", target="e1"), Rng(SEED))
