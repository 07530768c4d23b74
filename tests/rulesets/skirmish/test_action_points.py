"""Seed 001, Action points: each player starts with zero; the maximum rises by one at the start of
each of that player's turns, up to 10, and AP is fully restored then; AP pays for skill cards
only (walking and attacking cost nothing)."""
from __future__ import annotations


from domain.engine.rng import Rng
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.commands import Attack, EndTurn, Move, Play
from domain.rulesets.skirmish.events import ApRestored, CardPlayed
from domain.rulesets.skirmish.state import Params

from .given import decide_after, legal, of_type, play, refused, skirmish, unit


def test_each_player_starts_with_zero_action_points():
    setup = RULESET.parse_setup({"p1": {"team": ["cinder", "flint", "brand"]},
                                 "p2": {"team": ["wisp", "sable", "thorn"]}})
    [started] = RULESET.start(setup, Rng(b"x"))
    state = RULESET.evolve(None, started)
    assert [(p.ap, p.max_ap) for p in (state.p1, state.p2)] == [(0, 0), (0, 0)]


def test_the_first_turn_gives_one_action_point():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 6)), active="p2", turn=0)
    then, state = play(given, "p2", EndTurn())
    # 0 + 1 = 1: the maximum rises, and AP is restored to it
    assert of_type(then, ApRestored) == [ApRestored(seat="p1", max_ap=1, ap=1)]
    assert (state.p1.ap, state.p1.max_ap) == (1, 1)


def test_the_maximum_rises_by_one_and_ap_is_fully_restored():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 6)), p2={"ap": 0, "max_ap": 4})
    then, state = play(given, "p1", EndTurn())
    # 4 + 1 = 5; 0 left is restored to all 5
    assert of_type(then, ApRestored) == [ApRestored(seat="p2", max_ap=5, ap=5)]
    assert (state.p2.ap, state.p2.max_ap) == (5, 5)


def test_unspent_points_do_not_carry_over_above_the_maximum():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 6)), p2={"ap": 3, "max_ap": 3})
    _, state = play(given, "p1", EndTurn())
    # 3 unspent, maximum 3 + 1 = 4: AP is 4, not 3 + 4
    assert (state.p2.ap, state.p2.max_ap) == (4, 4)


def test_the_maximum_reaches_ten():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 6)), p2={"ap": 2, "max_ap": 9})
    then, _ = play(given, "p1", EndTurn())
    # 9 + 1 = 10
    assert of_type(then, ApRestored) == [ApRestored(seat="p2", max_ap=10, ap=10)]


def test_a_player_at_ten_stays_at_ten():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 6)), p2={"ap": 1, "max_ap": 10})
    then, state = play(given, "p1", EndTurn())
    # 10 + 1 = 11 > 10: capped at 10, fully restored
    assert of_type(then, ApRestored) == [ApRestored(seat="p2", max_ap=10, ap=10)]
    assert (state.p2.ap, state.p2.max_ap) == (10, 10)


def test_the_cap_is_a_param():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 6)), p2={"ap": 0, "max_ap": 4},
                     params=Params(ap_cap=4))
    then, _ = play(given, "p1", EndTurn())
    assert of_type(then, ApRestored) == [ApRestored(seat="p2", max_ap=4, ap=4)]


def test_only_the_player_starting_a_turn_gains_a_point():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 6)),
                     p1={"ap": 1, "max_ap": 3}, p2={"ap": 0, "max_ap": 2})
    then, state = play(given, "p1", EndTurn())
    assert [e.seat for e in of_type(then, ApRestored)] == ["p2"]
    assert (state.p1.ap, state.p1.max_ap) == (1, 3)       # p1's turn is over: nothing changes
    assert (state.p2.ap, state.p2.max_ap) == (3, 3)       # 2 + 1


def test_the_maximum_rises_once_per_own_turn_over_several_rounds():
    state = skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 6)), active="p2", turn=0)
    seen = []
    for seat in ("p2", "p1", "p2", "p1", "p2", "p1", "p2"):
        then, state = play(state, seat, EndTurn())
        [restored] = of_type(then, ApRestored)
        seen.append((restored.seat, restored.max_ap))
    # p1's turns 1, 3, 5: 1, 2, 3; p2's turns 2, 4, 6: 1, 2, 3
    assert seen == [("p1", 1), ("p2", 1), ("p1", 2), ("p2", 2), ("p1", 3), ("p2", 3), ("p1", 4)]


# -- AP pays for cards ------------------------------------------------------------------------

def test_a_card_costs_its_ap():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 6)), p1={"hand": ["war_drum"], "ap": 3})
    then, state = play(given, "p1", Play(card="war_drum", character="brand"))
    # War Drum costs 2: 3 - 2 = 1 left
    assert of_type(then, CardPlayed) == [CardPlayed(seat="p1", card="war_drum", character="brand", cost=2)]
    assert state.p1.ap == 1


def test_a_card_costing_exactly_the_ap_left_is_played():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 6)), p1={"hand": ["rallying_cry"], "ap": 3})
    _, state = play(given, "p1", Play(card="rallying_cry", character="brand"))
    # Rallying Cry costs 3: 3 - 3 = 0
    assert state.p1.ap == 0


def test_a_card_costing_more_than_the_ap_left_is_refused():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 6)), p1={"hand": ["rallying_cry"], "ap": 2})
    # Rallying Cry costs 3 > 2
    refused(given, "p1", Play(card="rallying_cry", character="brand"), "Rallying Cry costs 3 AP; you have 2")
    assert [c for c in legal(given, "p1") if c["type"] == "play"] == []


def test_cards_are_played_while_points_remain():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 6)),
                     p1={"hand": ["fighter_skill", "war_drum", "bark_skin", "fighter_skill"], "ap": 3})
    _, state = play(given, "p1", Play(card="war_drum", character="brand"))          # 3 - 2 = 1
    _, state = play(state, "p1", Play(card="fighter_skill", character="brand"))     # 1 - 1 = 0
    assert state.p1.ap == 0
    refused(state, "p1", Play(card="fighter_skill", character="brand"), "Challenge costs 1 AP; you have 0")


def test_walking_and_attacking_cost_no_action_points():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (3, 4)), p1={"ap": 0})
    _, state = play(given, "p1", Move(character="brand", to=(3, 3)))
    _, state = play(state, "p1", Attack(character="brand", target="p2.wisp"))
    assert (state.p1.ap, state.units["p1.brand"].cell, state.units["p2.wisp"].damage) == (0, (3, 3), 10)


def test_with_no_points_a_player_may_still_walk_and_attack():
    given = skirmish(unit("p1.brand", (3, 3)), unit("p2.wisp", (3, 4)), p1={"ap": 0, "hand": ["fighter_skill"]})
    kinds = {c["type"] for c in legal(given, "p1")}
    assert kinds == {"move", "attack", "end_turn"}
