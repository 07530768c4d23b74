"""Seed 000, Battle: striking the enemy leader once its Ring unit is KO'd, and the time limit
(neither reading of the strike window nor the limit is the seed's alone: README).

Default teams (given.py): p1 Grizzlor in the Ring against p2's Bastion Golem (140 HP, 3 LP);
both leaders are Captain Gale (10 AP, 27 HP). Heavy Slap, seed b"a": Normal, 14 power x
ATK 70 / DEF 72 = 13.61 -> 13 damage, for 3 AP.
"""
from __future__ import annotations

import pytest

from domain.engine.errors import RuleViolation
from domain.engine.ruleset import Outcome
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.commands import EndTurn, StrikeLeader, UseAbility
from domain.rulesets.ring.events import (ApSpent, HpReduced, LeaderHpReduced, LeaderStruck, LpLost, SwapRequired,
                                         TimeLimitReached, TurnEnded, TurnStarted, TurnYielded, UnitKnockedOut)
from domain.rulesets.ring.state import Params

from .given import P1_TEAM, battle, decide_after, play

NORMAL = b"a"
GOLEM_DOWN = {"p2.bastion_golem": {"hp": 0, "ko": True, "lp": 2}}
GRIZZLOR_DOWN = {"p1.grizzlor": {"hp": 0, "ko": True, "lp": 2}}


def struck_this_turn(**kw):
    """p1 knocked the Golem out earlier in this turn: the strike window is open to p1."""
    return battle(units=GOLEM_DOWN, strike_open="p1", **kw)


def strikes(state, seat="p1"):
    return [c.ap for c in RULESET.legal_commands(state, seat) if isinstance(c, StrikeLeader)]


# -- the strike window ----------------------------------------------------------------------

def test_a_knock_out_on_the_strikers_turn_opens_the_leader_for_the_rest_of_that_turn():
    # given the Golem at 13 HP; when Heavy Slap deals 13 (Normal): 13 - 13 = 0 HP, a KO
    then, state = play(battle(units={"p2.bastion_golem": {"hp": 13}}), "p1", UseAbility(ability="heavy_slap"),
                       NORMAL)
    assert then[-3:] == [HpReduced(unit="p2.bastion_golem", amount=13, by="p1.grizzlor", ability="heavy_slap"),
                         UnitKnockedOut(unit="p2.bastion_golem"), LpLost(unit="p2.bastion_golem", amount=1)]
    # then the 10 - 3 = 7 AP left may go on the leader, 1 to 7
    assert state.strike_open == "p1"
    assert strikes(state) == [1, 2, 3, 4, 5, 6, 7]


def test_the_window_closes_when_the_turn_ends():
    # given p1 KO'd the Golem this turn; when p1 ends its turn, p2 swaps on its own turn
    _, state = play(struck_this_turn(), "p1", EndTurn())
    assert (state.active, state.strike_open, state.swap_required) == ("p2", None, True)


def test_a_unit_knocked_out_on_its_own_sides_turn_does_not_open_its_leader_by_default():
    # given Grizzlor fell on p1's turn (a retaliation, say) and stays in the Ring; p2 has 10 AP
    given = battle(units=GRIZZLOR_DOWN, active="p2")
    # then p2 may not spend its fresh turn on p1's leader
    assert strikes(given, "p2") == []
    with pytest.raises(RuleViolation, match="only in the turn you knock out the enemy unit in the Ring"):
        decide_after(given, "p2", StrikeLeader(ap=1))


def test_a_side_with_no_unit_left_to_send_in_leaves_its_leader_open_on_every_turn():
    # given p2's team of one, the Golem, KO'd on an earlier turn: nobody can take its place
    given = battle(p2_team=("bastion_golem",), units=GOLEM_DOWN)
    # then p1 may strike with all 10 AP, or the battle could only end by the time limit
    assert strikes(given) == list(range(1, 11))


def test_strike_window_down_keeps_the_leader_open_while_the_unit_is_down():
    # ring 1.0.0's reading (seed 000's introduction, "whenever"): any turn, all 10 AP
    given = battle(units=GRIZZLOR_DOWN, active="p2", params=Params(strike_window="down"))
    assert strikes(given, "p2") == list(range(1, 11))
    with pytest.raises(RuleViolation, match="only while the enemy unit in the Ring is KO'd"):
        decide_after(battle(params=Params(strike_window="down")), "p1", StrikeLeader(ap=1))


def test_the_leader_is_closed_while_the_enemy_ring_unit_stands():
    with pytest.raises(RuleViolation, match="only in the turn you knock out"):
        decide_after(battle(strike_open="p1"), "p1", StrikeLeader(ap=1))
    assert strikes(battle(strike_open="p1")) == []


def test_remaining_ap_converts_one_to_one_into_leader_damage():
    # 27 HP - 4 AP = 23; 10 AP - 4 = 6 left
    then, state = play(struck_this_turn(), "p1", StrikeLeader(ap=4))
    assert then == [LeaderStruck(seat="p1", ap=4), ApSpent(seat="p1", amount=4),
                    LeaderHpReduced(seat="p2", amount=4, by="p1")]
    assert (state.p2.leader_hp, state.p1.ap, state.active) == (23, 6, "p1")


@pytest.mark.parametrize("ap", [0, 8, -1])
def test_a_strike_is_between_one_and_the_ap_left(ap):
    with pytest.raises(RuleViolation, match="between 1 and 7 AP"):
        decide_after(struck_this_turn(ap=7), "p1", StrikeLeader(ap=ap))


def test_spending_every_ap_on_the_strike_ends_the_turn():
    # 27 - 10 = 17
    then, state = play(struck_this_turn(), "p1", StrikeLeader(ap=10))
    assert then[3:] == [TurnEnded(seat="p1", reason="out_of_ap"), TurnStarted(seat="p2", turn=2, ap=10),
                        SwapRequired(seat="p2", unit="p2.bastion_golem")]
    assert state.p2.leader_hp == 17


def test_the_battle_is_won_when_the_enemy_leaders_hp_reaches_zero():
    # 4 HP - 6 AP: 0, not below
    then, state = play(struck_this_turn(p2_leader_hp=4), "p1", StrikeLeader(ap=6))
    assert then == [LeaderStruck(seat="p1", ap=6), ApSpent(seat="p1", amount=6),
                    LeaderHpReduced(seat="p2", amount=6, by="p1")]            # no turn change after
    assert state.p2.leader_hp == 0
    assert RULESET.outcome(state) == Outcome(winner="p1", reason="p2's leader is down")
    assert RULESET.awaiting(state) == frozenset()
    assert RULESET.legal_commands(state, "p1") == []


# -- the time limit ---------------------------------------------------------------------------

def at_the_limit(tiebreak="share_lost", **kw):
    return battle(params=Params(max_turns=2, time_tiebreak=tiebreak), turn=2, **kw)


def test_at_the_time_limit_the_smaller_share_of_leader_hp_lost_wins():
    # given p1's Gale at 25 of 27 HP (lost 2/27 = 7.4%) and p2's Vesper at 30 of 34 (lost
    # 4/34 = 11.8%): p1 wins, though p2 has more HP left (30 > 25). A leader with more max HP
    # than Gale is needed for this: Ironhelm (26) has fewer.
    given = at_the_limit(p1_leader_hp=25, p2_leader="vesper", p2_leader_hp=30)
    then, state = play(given, "p1", EndTurn())
    assert then == [TurnYielded(seat="p1"), TurnEnded(seat="p1", reason="chosen"),
                    TimeLimitReached(turn=3, winner="p1", reason="time limit: smaller share of leader HP lost")]
    assert RULESET.outcome(state) == Outcome(winner="p1", reason="time limit: smaller share of leader HP lost")
    assert RULESET.awaiting(state) == frozenset()


def test_time_tiebreak_hp_left_counts_the_hp_left():
    # ring 1.0.0: the same leaders, 30 HP left beats 25
    then = decide_after(at_the_limit("hp_left", p1_leader_hp=25, p2_leader="vesper", p2_leader_hp=30), "p1",
                        EndTurn())
    assert then[-1] == TimeLimitReached(turn=3, winner="p2", reason="time limit: more leader HP")


def test_at_the_time_limit_equal_shares_go_to_the_teams_share_then_initiative():
    # both leaders untouched; p2's Golem at 124 of 140 HP: p2's team lost 16/440 (Golem 140,
    # Moss Mother 120, Hex Lich 90, Shadow Cat 90), p1's none
    then = decide_after(at_the_limit(units={"p2.bastion_golem": {"hp": 124}}), "p1", EndTurn())
    assert then[-1] == TimeLimitReached(turn=3, winner="p1", reason="time limit: smaller share of team HP lost")
    # the same team on both sides, untouched: the initiative winner takes it
    then = decide_after(at_the_limit(p2_team=P1_TEAM, initiative="p2"), "p1", EndTurn())
    assert then[-1] == TimeLimitReached(turn=3, winner="p2", reason="time limit: initiative")


def test_before_the_limit_the_battle_goes_on():
    then = decide_after(battle(params=Params(max_turns=3), turn=2), "p1", EndTurn())
    assert then[-1] == TurnStarted(seat="p2", turn=3, ap=10)
