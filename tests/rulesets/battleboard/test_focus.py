"""Seed 002, Stats > Focus: focus points reroll hit dice (one point a die; the lowest misses are
rerolled first, up to the number the attacker asked for), or raise the Defense against one
incoming attack (one point a Defense; only the points that turn a break into a tap are worth
offering)."""
from __future__ import annotations

from domain.rulesets.battleboard.attack import defenses
from domain.rulesets.battleboard.commands import Act, Convert, Defend
from domain.rulesets.battleboard.events import (Defeated, DefenseAwaited, Defended, DiceRolled, TokenDiscarded,
                                                TokenTapped)

from .given import ACTIONS, battle, legal, of_type, play, refused, unit

BREAK = [5, 6]      # strike 2d*2+1: 2 hits x 2 + 1 = 5


def test_the_content_numbers_these_tests_quote():
    assert (ACTIONS["strike"].dice, ACTIONS["scatter_shot"].dice, ACTIONS["scatter_shot"].energy) == ("2d*2+1", "2d*2+1", 1)
    assert (ACTIONS["heavy_blow"].dice, ACTIONS["sword_cut"].dice) == ("2d*3+1", "2d*3")
    assert (ACTIONS["recover"].dice, ACTIONS["blur"].focus) == (None, 1)


# -- Focus for Defense ------------------------------------------------------------------------

def strike(dice, **target):
    given = battle(unit("h1", (2, 2)), unit("f1", (2, 3), **target), unit("f2", (0, 5)))
    return play(given, "h1", Act(unit="h1", action="strike", targets=("f1",)), dice)


def test_enough_focus_to_lower_a_break_to_a_tap_is_a_choice():
    then, state = strike(BREAK, focus=2)
    # AV 5 > defense 4: 5 - 4 = 1 focus makes it a tap
    assert then[-1] == DefenseAwaited(unit="f1", chooser="gm", av=5, defense=4, attacker="h1", action="strike",
                                      origin=(2, 3), remaining=[], rerolls=0)
    assert legal(state, "gm") == [{"type": "defend", "lose": "untapped"},
                                  {"type": "defend", "lose": "untapped", "focus": 1}]


def test_focus_turns_the_break_into_a_tap():
    _, state = strike(BREAK, focus=2)
    then, state = play(state, "gm", Defend(lose="untapped", focus=1))
    assert then == [Defended(seat="gm", unit="f1", lose="untapped", focus=1, band="tap"),
                    TokenTapped(unit="f1", reason="tap")]
    f1 = state.units["f1"]
    assert (f1.focus, f1.untapped, f1.tapped) == (1, 2, 1)


def test_the_defender_may_keep_its_focus_and_take_the_break():
    _, state = strike(BREAK, focus=2)
    then, state = play(state, "gm", Defend(lose="untapped"))
    assert then == [Defended(seat="gm", unit="f1", lose="untapped", band="break"),
                    TokenDiscarded(unit="f1", tapped=False, reason="break")]
    assert (state.units["f1"].focus, state.units["f1"].untapped) == (2, 2)


def test_the_focus_needed_is_the_attack_value_above_the_defense():
    given = battle(unit("h1", (2, 2), actions=("heavy_blow",)), unit("f1", (2, 3), focus=3), unit("f2", (0, 5)))
    _, state = play(given, "h1", Act(unit="h1", action="heavy_blow", targets=("f1",)), [8, 12])
    # heavy_blow 2d*3+1: 2 hits x 3 + 1 = 7; 7 - defense 4 = 3 focus
    assert defenses(state, state.plan) == [("untapped", 0), ("untapped", 3)]
    refused(state, "gm", Defend(lose="untapped", focus=2), "may lose untapped with focus 0, lose untapped with focus 3")
    then, state = play(state, "gm", Defend(lose="untapped", focus=3))
    assert then[-1] == TokenTapped(unit="f1", reason="tap") and state.units["f1"].focus == 0


def test_too_little_focus_is_no_choice():
    given = battle(unit("h1", (2, 2), actions=("sword_cut",)), unit("f1", (2, 3), focus=1), unit("f2", (0, 5)))
    then, state = play(given, "h1", Act(unit="h1", action="sword_cut", targets=("f1",)), [8, 12])
    # sword_cut 2d*3: 2 hits x 3 = 6; 6 - 4 = 2 focus needed, f1 has 1: the break is taken at once
    assert then[-1] == TokenDiscarded(unit="f1", tapped=False, reason="break")
    assert state.plan is None and state.units["f1"].focus == 1


def test_focus_and_tokens_make_four_choices():
    _, state = strike(BREAK, untapped=1, tapped=2, focus=1)
    assert defenses(state, state.plan) == [("untapped", 0), ("tapped", 0), ("untapped", 1), ("tapped", 1)]
    then, state = play(state, "gm", Defend(lose="tapped", focus=1))
    # lowered to a tap: one tapped token discarded, not two
    assert then[1:] == [TokenDiscarded(unit="f1", tapped=True, reason="tap")]
    assert (state.units["f1"].untapped, state.units["f1"].tapped) == (1, 1)


def test_focus_is_no_choice_on_a_tap():
    then, state = strike([5, 1], focus=3)
    # AV 3 <= defense 4: nothing to lower
    assert then[-1] == TokenTapped(unit="f1", reason="tap") and state.units["f1"].focus == 3


def test_focus_cannot_save_a_combatant_with_no_token_left():
    then, state = strike(BREAK, untapped=0, tapped=0, focus=3)
    # a tap would need a token too: nothing to choose, f1 falls
    assert then[-1] == Defeated(unit="f1")
    assert state.plan is None and state.units["f1"].defeated


# -- Focus rerolls ----------------------------------------------------------------------------

def rerolled(dice, reroll, focus, evasion=4):
    given = battle(unit("h1", (2, 2), focus=focus), unit("f1", (2, 3), evasion=evasion, defense=12), unit("f2", (0, 5)))
    then, state = play(given, "h1", Act(unit="h1", action="strike", targets=("f1",), reroll=reroll), dice)
    return of_type(then, DiceRolled)[0], state


def test_a_missed_die_is_rerolled_for_one_focus():
    rolled, state = rerolled([3, 5, 9], reroll=1, focus=2)
    # 3 misses evasion 4 and is rerolled: a 9; 2 hits x 2 + 1 = 5
    assert (rolled.dice, rolled.rerolls, rolled.hits, rolled.av) == ([3, 5], [[0, 9]], 2, 5)
    assert state.units["h1"].focus == 1


def test_the_lowest_miss_is_rerolled_first():
    rolled, _ = rerolled([4, 2, 7], reroll=1, focus=1)
    assert (rolled.rerolls, rolled.hits) == ([[1, 7]], 1)


def test_several_misses_are_rerolled_lowest_first():
    rolled, state = rerolled([4, 2, 7, 12], reroll=2, focus=2)
    assert (rolled.rerolls, rolled.hits, rolled.av) == ([[1, 7], [0, 12]], 2, 5)
    assert state.units["h1"].focus == 0


def test_a_rerolled_miss_still_costs_its_focus():
    rolled, state = rerolled([4, 2, 3], reroll=1, focus=1)
    # the 2 is rerolled to a 3: still 0 hits, 0 x 2 + 1 = 1
    assert (rolled.rerolls, rolled.hits, rolled.av) == ([[1, 3]], 0, 1)
    assert state.units["h1"].focus == 0


def test_hits_are_never_rerolled_and_unused_rerolls_cost_nothing():
    rolled, state = rerolled([11, 3, 8], reroll=2, focus=2)
    # 11 hits: only the 3 is rerolled
    assert (rolled.rerolls, rolled.hits) == ([[1, 8]], 2)
    assert state.units["h1"].focus == 1
    rolled, state = rerolled([5, 6], reroll=2, focus=2)
    assert (rolled.rerolls, state.units["h1"].focus) == ([], 2)


def test_rerolls_asked_for_must_be_paid_for():
    given = battle(unit("h1", (2, 2), focus=1), unit("f1", (2, 3)))
    refused(given, "h1", Act(unit="h1", action="strike", targets=("f1",), reroll=2),
            "Strike costs 0 focus and 2 more to reroll; h1 has 1")


def test_no_more_rerolls_than_dice():
    given = battle(unit("h1", (2, 2), focus=3), unit("f1", (2, 3)))
    refused(given, "h1", Act(unit="h1", action="strike", targets=("f1",), reroll=3), "Strike rerolls at most 2 dice")


def test_an_action_without_dice_rerolls_nothing():
    given = battle(unit("h1", (2, 2), focus=1, actions=("recover",)), unit("f1", (2, 3)))
    refused(given, "h1", Act(unit="h1", action="recover", reroll=1), "Recover rolls no dice to reroll")


def test_an_actions_attacks_share_its_rerolls():
    given = battle(unit("h1", (2, 2), focus=1, energy=1, actions=("scatter_shot",)),
                   unit("f1", (2, 3), defense=12), unit("f2", (3, 3), defense=12))
    then, state = play(given, "h1", Act(unit="h1", action="scatter_shot", targets=("f1", "f2"), reroll=1),
                       [1, 5, 9, 2, 6])
    # f1: the 1 is rerolled (a 9); f2's 2 misses and no reroll is left
    assert [(r.target, r.dice, r.rerolls, r.hits) for r in of_type(then, DiceRolled)] == [
        ("f1", [1, 5], [[0, 9]], 2), ("f2", [2, 6], [], 1)]
    assert state.units["h1"].focus == 0


def test_an_actions_focus_cost_is_paid_before_rerolls():
    given = battle(unit("h1", (2, 2), focus=1, actions=("blur",)), unit("f1", (2, 3)))
    _, state = play(given, "h1", Act(unit="h1", action="blur"))
    assert state.units["h1"].focus == 0


# -- Focus for movement -----------------------------------------------------------------------

def test_focus_converts_into_movement_points():
    from domain.rulesets.battleboard.events import Converted
    given = battle(unit("h1", (2, 2), focus=2, mp=0), unit("f1", (2, 5)))
    then, state = play(given, "h1", Convert(unit="h1"))
    assert then == [Converted(seat="h1", unit="h1", mp=1)]
    assert (state.units["h1"].focus, state.units["h1"].mp) == (1, 1)


def test_no_focus_nothing_to_convert():
    refused(battle(unit("h1", (2, 2), focus=0), unit("f1", (2, 5))), "h1", Convert(unit="h1"), "no focus to convert")
