"""Seed 003, 2.x AI, since 1.3.0 (`Rules.ai_version` 2, ai/joint.py): the planning AIs guess
a member's DEF from its kind, value the damage planned on a member together, and count
damage to a knocked-out member as the kill that ends the battle.

A hit is guessed at the mean roll (92 %): power% x ATK x 92 x 100 / ((100 + DEF) x 100),
floored once. A member of a kind the content does not list ("sc") is guessed at DEF 30; a
member of a listed kind at its base DEF and a quarter of its EV budget in DEF (Ash, "mc":
30 + 10 x 10 // 4 = 55).
"""
from __future__ import annotations

import pytest

from domain.engine.rng import Rng
from domain.engine.events import Viewer
from domain.rulesets.rat.ai import choose_for_enemies
from domain.rulesets.rat.ai.joint import early, guess_def
from domain.rulesets.rat.state import Params
from domain.rulesets.rat.view import view

from .given import SEED, battle, enemy, entity


def chosen(plans):
    return [(p.actor, p.action, p.target) for p in plans]


def members(s):
    return {m["id"]: m for m in view(s, Viewer(seat="p2"))["party"]}


def test_a_members_def_is_guessed_from_its_kind():
    given = battle([entity("mc", defense=999), entity("sc", defense=999, levels={"def": 1})])
    seen = members(given)
    # mc: Ash's 30 + 10 x 10 // 4 = 55 (its real 999 is hidden); sc: 30 at DEF +1 = 30 x 5/4 = 37.5 -> 37
    assert (guess_def(given, seen["mc"]), guess_def(given, seen["sc"])) == (55, 37)


@pytest.mark.parametrize("level", ["no_memory", "memory"])
def test_a_planning_ai_finishes_off_a_knocked_out_member(level):
    # given: mc knocked out last turn; TAIL_WHIP or STRIKE on the standing sc are the others
    given = battle([entity("mc", hp=0, max_hp=100, ko=True, ko_turn=1), entity("sc", spd=10)],
                   [enemy("e1", ai=level, spd=90, moves={"tail_whip": 10})], turn=2, ai=True)
    # when / then: any damage kills mc and wins the battle: STRIKE on mc
    assert chosen(choose_for_enemies(given, Rng(SEED))) == [("e1", "strike", "mc")]


@pytest.mark.parametrize("fast, slow", [("e1", "e2"), ("e2", "e1")])
def test_the_memory_enemy_that_acts_before_the_party_takes_the_kill(fast, slow):
    # given: mc knocked out; sc (SPD 50) could revive it; one enemy acts before sc (SPD 90),
    # the other after it (SPD 10)
    speeds = {fast: 90, slow: 10}
    given = battle([entity("mc", hp=0, max_hp=100, ko=True, ko_turn=1), entity("sc", spd=50)],
                   [enemy(k, ai="memory", spd=speeds[k]) for k in ("e1", "e2")], turn=2, ai=True)
    # the share of the standing party that comes after each: 1 for the fast one, 0 for the slow
    assert (early(given, fast), early(given, slow)) == (1, 0)
    # when: the memory enemies plan together
    plans = dict((actor, (action, target)) for actor, action, target in chosen(choose_for_enemies(given, Rng(SEED))))
    # then: the fast one kills mc (1000 + 75); a second hit there adds nothing, so the slow one
    # strikes sc: 100% x 40 x 92 x 100 / (130 x 100) = 28.3 -> 28 HP of 100, worth 28 > 0
    assert plans == {fast: ("strike", "mc"), slow: ("strike", "sc")}


def test_no_memory_enemies_both_go_for_the_kill():
    # given: the same board, each no_memory enemy planning alone
    given = battle([entity("mc", hp=0, max_hp=100, ko=True, ko_turn=1), entity("sc", spd=50)],
                   [enemy("e1", ai="no_memory", spd=90), enemy("e2", ai="no_memory", spd=10)], turn=2, ai=True)
    # then: each sees the kill alone (1000 + 75 > 28): both strike mc
    assert chosen(choose_for_enemies(given, Rng(SEED))) == [("e1", "strike", "mc"), ("e2", "strike", "mc")]


def test_memory_enemies_knock_out_together_what_neither_could_alone():
    # given: sc at 50 of 100 HP, mc (guessed DEF 55) at full; two memory enemies of ATK 40
    given = battle([entity("mc"), entity("sc", hp=50, max_hp=100)],
                   [enemy("e1", ai="memory", spd=90), enemy("e2", ai="memory", spd=80)], ai=True)
    # when: they plan together
    plans = chosen(choose_for_enemies(given, Rng(SEED)))
    # then: 28 + 28 = 56 >= 50 on sc: worth 50 + 150 x min(4 x 56 - 3 x 50, 250) // 250 = 50 + 44 = 94,
    # more than splitting (28 + 150 x 0 on sc, and 4000 x 92 / 15500 = 23 on mc)
    assert plans == [("e1", "strike", "sc"), ("e2", "strike", "sc")]


@pytest.mark.parametrize("margin, targets", [(0, {"sc"}), (15, {"sc"}), (25, {"mc", "sc"})])
def test_a_planning_ai_draws_among_the_options_within_its_margin(margin, targets):
    # given: a no_memory enemy with STRIKE alone; sc (unknown kind, DEF 30) and mc (Ash, DEF 55)
    given = battle([entity("mc"), entity("sc")], [enemy("e1", ai="no_memory")], ai=True,
                   params=Params(ai_margin_pct=margin))
    # STRIKE on sc: 100% x 40 x 92 x 100 / (130 x 100) = 28.3 -> 28 of 100 HP, worth 28;
    # on mc: 100% x 40 x 92 x 100 / (155 x 100) = 23.7 -> 23, worth 23, which is 82 % of 28
    # when: it chooses under twenty different battle seeds
    drawn = {choose_for_enemies(given, Rng(bytes([n])))[0].target for n in range(20)}
    # then: a margin of 0 or 15 % always takes sc; 25 % draws mc too (23 x 100 >= 28 x 75)
    assert drawn == targets
