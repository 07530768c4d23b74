"""Seed 003, 2.x AI: the random AI's PP-weighted draw, the no-memory AI's best option, the
memory AI planning the enemies together from the public history, and the AI never reading
the party's plans. The planning AIs here are the first ones (ai/planner.py, `ai_version` 1,
which every release before 1.3.0 plays: `PLANNER_1`); today's are in test_ai_joint.py.

The planner estimates a hit as power% x ATK x 100 / (100 + 30): it guesses every party
member's DEF is 30 (`GUESS_DEF`), so STRIKE from ATK 40 is worth 4000 / 130 = 30.
"""
from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.engine.rng import Rng
from domain.rulesets.rat.ai import choose_for_enemies
from domain.rulesets.rat.ai.planner import no_memory
from domain.rulesets.rat.ai.random import random_ai, tickets
from domain.rulesets.rat.events import ActionPlanned, ActionRevealed, EnemyChose
from domain.rulesets.rat.state import Plan, Rules, TurnLog

from .given import SEED, battle as any_battle, enemy, entity, turn

PLANNER_1 = Rules(ai_version=1)


def battle(*args, **kw):
    """A battle under the first planning AIs (`ai_version` 1)."""
    return any_battle(*args, **{"rules": PLANNER_1, **kw})


def chosen(plans):
    return [(p.actor, p.action, p.target) for p in plans]


# -- random -------------------------------------------------------------------------------

def biter(**fields):
    return enemy("e1", moves={"bite": 3, "tail_whip": 1}, **fields)


def test_random_ai_tickets_are_one_per_pp_left_and_one_for_strike():
    given = battle([entity("mc")], [biter()])
    # seed 003, Random AI: each move once per PP; an intrinsic move has params.intrinsic_weight = 1
    assert tickets(given, "e1") == ["bite", "bite", "bite", "tail_whip", "strike"]


@pytest.mark.parametrize("seed, action", [(b"ai-1", "bite"), (b"ai-0", "tail_whip"), (b"ai-2", "strike")])
def test_random_ai_draws_its_ticket_with_the_seeded_rng(seed, action):
    given = battle([entity("mc"), entity("sc")], [biter()], ai=True)
    draws = Rng(seed)
    index, target = draws.int(1, 5), draws.int(1, 2)    # the seed's rt.random.integer(1, 5), then a target
    expected = tickets(given, "e1")[index - 1]
    plans = random_ai(given, ["e1"], Rng(seed))
    assert expected == action
    assert chosen(plans) == [("e1", expected, ["mc", "sc"][target - 1])]


def test_random_ai_never_draws_a_move_at_0_pp():
    given = battle([entity("mc")], [enemy("e1", moves={"bite": 0, "tail_whip": 2})], ai=True)
    assert tickets(given, "e1") == ["tail_whip", "tail_whip", "strike"]
    drawn = {random_ai(given, ["e1"], Rng(b"ai-%d" % i))[0].action for i in range(60)}
    assert drawn == {"tail_whip", "strike"}


# -- no memory ----------------------------------------------------------------------------

def test_no_memory_ai_finishes_off_a_knocked_out_member():
    # a member knocked out in an earlier turn dies to any damage: worth 300, a plain hit 30
    given = battle([entity("mc", hp=0, max_hp=100, ko=True, ko_turn=1), entity("sc")],
                   [enemy("e1", ai="no_memory", moves={"tail_whip": 10})], turn=2, ai=True)
    for seed in (b"a", b"b", b"c"):
        assert chosen(no_memory(given, ["e1"], Rng(seed))) == [("e1", "strike", "mc")]


def test_no_memory_ai_prefers_the_hit_that_knocks_out():
    # sc at 20 HP: min(30, 20) = 20 points + 80 for a knock-out = 100; mc at full: 30
    given = battle([entity("mc"), entity("sc", hp=20, max_hp=100)], [enemy("e1", ai="no_memory")], ai=True)
    assert chosen(choose_for_enemies(given, Rng(SEED))) == [("e1", "strike", "sc")]


# -- memory: the enemies plan together ----------------------------------------------------

def pair(level, **moves):
    return [enemy("e1", ai=level, **moves), enemy("e2", ai=level, **moves)]


@pytest.mark.parametrize("level, expected", [
    ("memory", [("e1", "venom_dart", "mc"), ("e2", "strike", "mc")]),
    ("no_memory", [("e1", "venom_dart", "mc"), ("e2", "venom_dart", "mc")]),
])
def test_memory_ai_does_not_plan_the_same_ailment_twice_on_one_target(level, expected):
    # venom_dart: 60% -> 2400 / 130 = 18, + POISONED's ai_value 30 = 48 > STRIKE's 30; the
    # second memory enemy sees the first's poison planned: 18 < 30, so it strikes
    given = battle([entity("mc")], pair(level, moves={"venom_dart": 8}), ai=True)
    assert chosen(choose_for_enemies(given, Rng(SEED))) == expected


@pytest.mark.parametrize("level, expected", [
    ("memory", [("e1", "strike", "mc"), ("e2", "strike", "sc")]),
    ("no_memory", [("e1", "strike", "mc"), ("e2", "strike", "mc")]),
])
def test_memory_ai_wastes_no_overkill_on_a_target_already_planned_down(level, expected):
    # mc at 20 HP: 20 + 80 = 100 for e1; e1's planned 30 leaves mc nothing, so e2 hits sc
    given = battle([entity("mc", hp=20, max_hp=100), entity("sc")], pair(level), ai=True)
    assert chosen(choose_for_enemies(given, Rng(SEED))) == expected


def protect_history():
    """Turn 1: mc protected itself; turn 2: sc protected itself."""
    return (TurnLog(turn=1, actions=(Plan(actor="mc", action="protect", target="mc"),), party_hp={"mc": 100, "sc": 100}),
            TurnLog(turn=2, actions=(Plan(actor="sc", action="protect", target="sc"),), party_hp={"mc": 100, "sc": 100}))


@pytest.mark.parametrize("level, target", [("memory", "sc"), ("no_memory", "mc")])
def test_memory_ai_hits_the_member_who_cannot_be_protected_again(level, target):
    # seed 003: PROTECT fails two turns in a row, so sc (protected in turn 2) is open in turn 3:
    # shield 0, STRIKE worth 30; mc, protected in 1 of 2 turns, is shielded 1/2: 30 x 1/2 = 15.
    # Without memory both score 30 and the first listed (mc) wins the tie.
    given = battle([entity("mc"), entity("sc")], [enemy("e1", ai=level)], turn=3, history=protect_history(), ai=True)
    assert chosen(choose_for_enemies(given, Rng(SEED))) == [("e1", "strike", target)]


def test_memory_ai_goes_for_the_member_that_keeps_hitting_enemies():
    # sc hit enemies in both past turns: threat 5 x 2 = 10, so STRIKE on sc is 30 + 10 = 40 > 30
    hits = tuple(TurnLog(turn=t, actions=(Plan(actor="sc", action="strike", target="e1"),),
                         party_hp={"mc": 100, "sc": 100}) for t in (1, 2))
    given = battle([entity("mc"), entity("sc")], [enemy("e1", ai="memory")], turn=3, history=hits, ai=True)
    assert chosen(choose_for_enemies(given, Rng(SEED))) == [("e1", "strike", "sc")]


# -- what the AI may see ------------------------------------------------------------------

@pytest.mark.parametrize("level", ["random", "no_memory", "memory"])
def test_the_ai_chooses_the_same_with_or_without_the_partys_plans(level):
    # mc has planned PROTECT on itself: an AI that peeked would turn to sc
    given = battle([entity("mc", hp=30, max_hp=100), entity("sc")], pair(level, moves={"bite": 5}), ai=True)
    planned = replace(given, plans={"mc": Plan(actor="mc", action="protect", target="mc")})
    assert choose_for_enemies(planned, Rng(SEED)) == choose_for_enemies(given, Rng(SEED))


def test_in_an_ai_battle_one_party_command_resolves_the_turn_with_the_enemies_choice_first():
    given = battle([entity("mc", spd=60)], [enemy("e1", spd=40)], ai=True)
    then, state = turn(given, {"mc": ("strike", "e1")})
    choices = [e for e in then if isinstance(e, (ActionPlanned, EnemyChose, ActionRevealed))]
    assert choices == [ActionPlanned(seat="p1", actor="mc", action="strike", target="e1"),
                       EnemyChose(actor="e1", ai="random", action="strike", target="mc"),
                       ActionRevealed(seat="p1", actor="mc", action="strike", target="e1")]
    assert (state.turn, [p.actor for p in state.history[-1].actions]) == (2, ["e1", "mc"])
