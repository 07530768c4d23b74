"""Seed 002, Effects: each effect token, as given by attacks (on a break for attack actions, on
any tap or break for tactics actions) and by actions, and as it acts: Weakened and Vulnerable on
the Attack Value (test_attack_value), Hobbled, Stunned, Poisoned and Heroic at the start of the
holder's turn, Wounded at once, Confused and Invigorated when acting, Lucky when attacking."""
from __future__ import annotations

import pytest

from domain.rulesets.battleboard.commands import Act, EndTurn
from domain.rulesets.battleboard.events import (ActionTaken, AttackIgnored, CombatEnded, ConfusionRolled, Defeated,
                                                DiceRolled, Readied, TokenDiscarded, TokenGiven, TokenSpent,
                                                TokenTapped, TurnBegan, Untapped)
from domain.rulesets.battleboard.state import FOES, RULES_1_0_0, Params

from .given import ACTIONS, TOKENS, battle, of_type, play, refused, unit



def test_the_content_numbers_these_tests_quote():
    quoted = {k: (ACTIONS[k].kind, ACTIONS[k].dice, ACTIONS[k].effects, ACTIONS[k].energy)
              for k in ("heavy_blow", "shoulder_check", "hamstring", "crushing_blow", "feint", "freezing_grasp",
                        "cinders", "scatter_shot")}
    assert quoted == {"heavy_blow": ("attack", "2d*3+1", ("weakened",), 0),
                      "shoulder_check": ("tactics", "2d*2", ("vulnerable",), 0),
                      "hamstring": ("tactics", "2d*3", ("hobbled",), 0),
                      "crushing_blow": ("attack", "2d*3", ("wounded",), 1),
                      "feint": ("tactics", "1d*3", ("confused",), 0),
                      "freezing_grasp": ("tactics", "1d*3", ("stunned",), 1),
                      "cinders": ("tactics", "2d*2", ("poisoned",), 0),
                      "scatter_shot": ("attack", "2d*2+1", (), 1)}
    assert [t for t, token in TOKENS.items() if token.immediate] == ["wounded"]


# -- Giving tokens: attacks on a break, tactics on any tap -------------------------------------

def attack(action, dice, energy=1, focus=1, **target):
    given = battle(unit("h1", (2, 2), energy=energy, focus=focus, actions=(action,)),
                   unit("f1", (2, 3), **{"defense": 4, **target}), unit("f2", (0, 5)))
    return play(given, "h1", Act(unit="h1", action=action, targets=("f1",)), dice)


def test_an_attack_action_gives_its_token_on_a_break():
    then, state = attack("heavy_blow", [5, 6])
    # 2 hits x 3 + 1 = 7 > 4
    assert then[-2:] == [TokenDiscarded(unit="f1", tapped=False, reason="break"),
                         TokenGiven(unit="f1", token="weakened", by="h1")]
    assert state.units["f1"].tokens == {"weakened": 1}


def test_an_attack_action_gives_nothing_on_a_tap():
    then, state = attack("heavy_blow", [5, 1], defense=7)
    # 1 hit x 3 + 1 = 4 <= 7
    assert then[-1] == TokenTapped(unit="f1", reason="tap") and state.units["f1"].tokens == {}


def test_a_tactics_action_gives_its_token_on_a_tap():
    then, state = attack("shoulder_check", [5, 1])
    # 1 hit x 2 = 2 <= 4: a tap is enough for tactics
    assert then[-2:] == [TokenTapped(unit="f1", reason="tap"), TokenGiven(unit="f1", token="vulnerable", by="h1")]
    assert state.units["f1"].tokens == {"vulnerable": 1}


def test_a_tactics_action_gives_its_token_on_a_break():
    then, state = attack("hamstring", [5, 6], defense=5)
    # 2 hits x 3 = 6 > 5
    assert then[-2:] == [TokenDiscarded(unit="f1", tapped=False, reason="break"),
                         TokenGiven(unit="f1", token="hobbled", by="h1")]


def test_an_ignored_attack_gives_nothing():
    then, state = attack("shoulder_check", [1, 2])
    assert then[-1] == AttackIgnored(unit="f1") and state.units["f1"].tokens == {}


def test_tokens_of_a_kind_add_up():
    then, state = attack("shoulder_check", [5, 1], tokens={"vulnerable": 1})
    # the Vulnerable held adds 1 (2 + 1 = 3) and is spent; a new one is given
    assert of_type(then, DiceRolled)[0].av == 3
    assert state.units["f1"].tokens == {"vulnerable": 1}


def test_a_defeated_target_is_given_nothing():
    then, state = attack("hamstring", [5, 1], untapped=0, tapped=0)
    assert then[-1] == Defeated(unit="f1") and state.units["f1"].tokens == {}


# -- Wounded: at once -------------------------------------------------------------------------

def test_wounded_costs_one_more_token_at_once():
    then, state = attack("crushing_blow", [5, 6])
    # 2 hits x 3 = 6 > 4: break (an untapped token discarded), then the wound taps another
    assert then[-2:] == [TokenDiscarded(unit="f1", tapped=False, reason="break"),
                         TokenTapped(unit="f1", reason="wounded")]
    f1 = state.units["f1"]
    assert (f1.untapped, f1.tapped, f1.tokens) == (1, 1, {})


def test_a_wound_with_no_token_left_defeats():
    then, state = attack("crushing_blow", [5, 6], untapped=1)
    assert then[-2:] == [TokenDiscarded(unit="f1", tapped=False, reason="break"), Defeated(unit="f1")]


def test_no_wound_on_a_tap():
    then, state = attack("crushing_blow", [5, 1], defense=4)
    # 1 hit x 3 = 3 <= 4
    assert then[-1] == TokenTapped(unit="f1", reason="tap") and state.units["f1"].tapped == 1


# -- At the start of the holder's turn ---------------------------------------------------------

def heroes_turn(params=None, rules=None, **h1):
    """The foes end their turn; the heroes' begins: the events from TurnBegan on, and the state."""
    given = battle(unit("h1", (2, 1), **h1), unit("f1", (2, 4)), active=FOES, params=params, rules=rules)
    then, state = play(given, "gm", EndTurn())
    return then[then.index(of_type(then, TurnBegan)[0]) + 1:], state


def test_hobbled_takes_movement_points_per_token_and_one_is_discarded():
    then, state = heroes_turn(speed=4, tokens={"hobbled": 2})
    # 4 - 2 hobbled = 2
    assert then == [TokenSpent(unit="h1", token="hobbled", reason="used"),
                    Readied(unit="h1", mp=2, focus=0, slots=2, teleport=0)]
    assert (state.units["h1"].mp, state.units["h1"].tokens) == (2, {"hobbled": 1})


def test_hobbled_leaves_no_fewer_than_zero_points():
    _, state = heroes_turn(speed=1, tokens={"hobbled": 3})
    assert state.units["h1"].mp == 0


def test_stunned_allows_one_action_and_one_is_discarded():
    then, state = heroes_turn(tokens={"stunned": 2}, actions=("strike", "recover", "reposition"), energy=1)
    assert then == [TokenSpent(unit="h1", token="stunned", reason="used"),
                    Readied(unit="h1", mp=4, focus=0, slots=1, teleport=0)]
    assert state.units["h1"].tokens == {"stunned": 1}
    _, state = play(state, "h1", Act(unit="h1", action="reposition"))
    refused(state, "h1", Act(unit="h1", action="recover"), "h1 has taken its 1 action this turn")
    then, _ = play(state, "h1", Act(unit="h1", action="reposition"))
    assert then[0].double_down is True            # a stunned combatant may still double down


def test_poisoned_taps_a_token_at_the_start_of_the_turn():
    then, state = heroes_turn(tokens={"poisoned": 2})
    assert then == [Readied(unit="h1", mp=4, focus=0, slots=2, teleport=0),
                    TokenTapped(unit="h1", reason="poisoned"),
                    TokenSpent(unit="h1", token="poisoned", reason="used")]
    h1 = state.units["h1"]
    assert (h1.untapped, h1.tapped, h1.tokens) == (2, 1, {"poisoned": 1})


def test_poisoned_discards_a_tapped_token_when_none_is_untapped():
    then, state = heroes_turn(tokens={"poisoned": 1}, untapped=0, tapped=2)
    assert then[1:] == [TokenDiscarded(unit="h1", tapped=True, reason="poisoned"),
                        TokenSpent(unit="h1", token="poisoned", reason="used")]
    assert (state.units["h1"].tapped, state.units["h1"].tokens) == (1, {})


def test_poison_defeats_a_combatant_with_no_token_left():
    then, state = heroes_turn(tokens={"poisoned": 1}, untapped=0, tapped=0)
    assert then[1:] == [Defeated(unit="h1"),
                        CombatEnded(winner=FOES, reason="every combatant of the heroes was defeated")]
    assert state.phase == "over"


def test_heroic_eliminates_the_worst_token_before_it_acts():
    then, state = heroes_turn(tokens={"heroic": 1, "stunned": 1, "poisoned": 1})
    assert then == [TokenSpent(unit="h1", token="heroic", reason="used"),
                    TokenSpent(unit="h1", token="stunned", reason="eliminated by heroic"),
                    Readied(unit="h1", mp=4, focus=0, slots=2, teleport=0),
                    TokenTapped(unit="h1", reason="poisoned"),
                    TokenSpent(unit="h1", token="poisoned", reason="used")]
    assert state.units["h1"].tokens == {}


@pytest.mark.parametrize(("held", "eliminated"), [
    (("poisoned", "hobbled"), "poisoned"), (("hobbled", "weakened"), "hobbled"),
    (("weakened", "vulnerable"), "weakened"), (("vulnerable", "confused"), "vulnerable"),
    (("confused", "lucky"), "confused"),
])
def test_heroic_picks_stunned_then_poisoned_hobbled_weakened_vulnerable_confused(held, eliminated):
    then, _ = heroes_turn(tokens={"heroic": 1, **{t: 1 for t in held}})
    assert then[1] == TokenSpent(unit="h1", token=eliminated, reason="eliminated by heroic")


def test_heroic_eliminating_hobbled_keeps_the_full_movement():
    then, state = heroes_turn(tokens={"heroic": 1, "hobbled": 1})
    assert then[-1] == Readied(unit="h1", mp=4, focus=0, slots=2, teleport=0) and state.units["h1"].tokens == {}


def test_heroic_is_kept_when_there_is_nothing_to_eliminate():
    then, state = heroes_turn(tokens={"heroic": 1, "lucky": 1})
    assert then == [Readied(unit="h1", mp=4, focus=0, slots=2, teleport=0)]
    assert state.units["h1"].tokens == {"heroic": 1, "lucky": 1}


def test_focus_refills_to_the_stat_each_turn():
    assert Params().focus_bank == 1
    assert heroes_turn(focus_stat=2, focus=0)[1].units["h1"].focus == 2
    assert heroes_turn(focus_stat=2, focus=1)[1].units["h1"].focus == 2       # 1 + 2 capped at 1 x 2


def test_focus_above_the_bank_is_lost_as_the_turn_starts():
    # given h1 of Focus 2 holding 5 focus points (Channel gave it more than its stat), and a
    # bank of 1 x the stat
    # when the foes end their turn and the heroes' begins
    then, state = heroes_turn(focus_stat=2, focus=5)
    # then seed 002, Focus: "Focus is the number of Focus points that a combatant gains at the
    # start of each round of combat"; it gains 2, and keeps at most 1 x 2 (README, Focus):
    # min(5 + 2, 1 x 2) = 2
    assert then == [Readied(unit="h1", mp=4, focus=2, slots=2, teleport=0)]
    assert state.units["h1"].focus == 2


def test_under_1_0_0_focus_above_the_bank_was_kept():
    _, state = heroes_turn(rules=RULES_1_0_0, focus_stat=2, focus=5)
    # max(5, min(5 + 2, 1 x 2)) = 5
    assert state.units["h1"].focus == 5


def test_unspent_focus_is_banked_up_to_focus_bank_times_the_stat():
    bank = Params(focus_bank=2)
    assert heroes_turn(bank, focus_stat=2, focus=1)[1].units["h1"].focus == 3     # 1 + 2
    assert heroes_turn(bank, focus_stat=2, focus=3)[1].units["h1"].focus == 4     # 3 + 2 capped at 2 x 2


def test_energy_does_not_come_back_each_turn():
    assert heroes_turn(energy_stat=3, energy=1)[1].units["h1"].energy == 1


# -- Confused: when acting --------------------------------------------------------------------

def confused_strike(count, dice, energy=1):
    given = battle(unit("h1", (2, 2), energy=energy, tokens={"confused": count}, actions=("scatter_shot",)),
                   unit("f1", (2, 3), defense=12))
    return play(given, "h1", Act(unit="h1", action="scatter_shot", targets=("f1",)), dice)


def test_confused_loses_the_action_on_a_3_or_less_with_its_cost_paid():
    then, state = confused_strike(1, [3])
    assert then == [ActionTaken(seat="h1", unit="h1", action="scatter_shot", targets=("f1",), kind="attack", energy=1),
                    ConfusionRolled(unit="h1", dice=[3], lost=True),
                    TokenSpent(unit="h1", token="confused", reason="used")]
    h1 = state.units["h1"]
    assert (h1.energy, h1.taken, h1.tokens) == (0, ("scatter_shot",), {})


def test_confused_above_3_lets_the_action_go_on():
    then, state = confused_strike(1, [4, 5, 1])
    assert then[1:3] == [ConfusionRolled(unit="h1", dice=[4], lost=False),
                         TokenSpent(unit="h1", token="confused", reason="used")]
    assert of_type(then, DiceRolled)[0].dice == [5, 1]


def test_confused_rolls_a_die_per_token_and_any_low_one_loses():
    then, state = confused_strike(2, [9, 2])
    assert then[1] == ConfusionRolled(unit="h1", dice=[9, 2], lost=True) and not of_type(then, DiceRolled)
    assert state.units["h1"].tokens == {"confused": 1}
    then, _ = confused_strike(2, [9, 4, 1, 1])
    assert then[1] == ConfusionRolled(unit="h1", dice=[9, 4], lost=False)


def test_confused_hits_non_attack_actions_too():
    given = battle(unit("h1", (2, 2), tokens={"confused": 1}, actions=("reposition",)), unit("f1", (2, 5)))
    then, state = play(given, "h1", Act(unit="h1", action="reposition"), [1])
    assert then[1:] == [ConfusionRolled(unit="h1", dice=[1], lost=True),
                        TokenSpent(unit="h1", token="confused", reason="used")]
    assert state.units["h1"].mp == 4


# -- Lucky: when attacking --------------------------------------------------------------------

def test_lucky_rolls_an_extra_die_per_token_and_one_is_discarded():
    given = battle(unit("h1", (2, 2), tokens={"lucky": 2}), unit("f1", (2, 3), defense=12))
    then, state = play(given, "h1", Act(unit="h1", action="strike", targets=("f1",)), [1, 2, 5, 12])
    rolled = of_type(then, DiceRolled)[0]
    # strike 2 dice + 2 lucky = 4 dice; 5 and 12 hit: 2 x 2 + 1 = 5
    assert (rolled.dice, rolled.hits, rolled.av) == ([1, 2, 5, 12], 2, 5)
    assert of_type(then, TokenSpent) == [TokenSpent(unit="h1", token="lucky", reason="used")]
    assert state.units["h1"].tokens == {"lucky": 1}


def test_lucky_is_spent_attack_by_attack():
    given = battle(unit("h1", (2, 2), tokens={"lucky": 1}, actions=("flurry_of_blows",)), unit("f1", (2, 3), defense=12))
    then, _ = play(given, "h1", Act(unit="h1", action="flurry_of_blows", targets=("f1", "f1")), [1, 1, 1])
    # flurry_of_blows 1d*3: the first attack rolls 2 dice with the Lucky token, the second 1
    assert [r.dice for r in of_type(then, DiceRolled)] == [[1, 1], [1]]


# -- Tokens given by actions ------------------------------------------------------------------

@pytest.mark.parametrize(("action", "token", "focus"), [
    ("trust_the_wind", "lucky", 1), ("rally", "heroic", 1), ("invigorate", "invigorated", 2),
])
def test_an_action_gives_an_ally_a_token(action, token, focus):
    assert ACTIONS[action].focus == focus
    given = battle(unit("h1", (2, 2), focus=focus, actions=(action,)), unit("h2", (2, 1)), unit("f1", (2, 5)))
    then, state = play(given, "h1", Act(unit="h1", action=action, targets=("h2",)))
    assert then == [ActionTaken(seat="h1", unit="h1", action=action, targets=("h2",), kind="tactics", focus=focus),
                    TokenGiven(unit="h2", token=token, by="h1")]
    assert (state.units["h2"].tokens, state.units["h1"].focus) == ({token: 1}, 0)


def test_lucky_charm_gives_its_user_a_lucky_token():
    given = battle(unit("h1", (2, 2), focus=1, actions=("lucky_charm",)), unit("f1", (2, 5)))
    then, state = play(given, "h1", Act(unit="h1", action="lucky_charm"))
    assert then[1:] == [TokenGiven(unit="h1", token="lucky", by="h1")]


def test_purify_discards_the_worst_negative_token_and_untaps_one():
    given = battle(unit("h1", (2, 2), actions=("purify",)),
                   unit("h2", (2, 1), untapped=1, tapped=2, tokens={"weakened": 1, "stunned": 1, "lucky": 1}),
                   unit("f1", (2, 5)))
    then, state = play(given, "h1", Act(unit="h1", action="purify", targets=("h2",)))
    assert then[1:] == [TokenSpent(unit="h2", token="stunned", reason="cleansed"), Untapped(unit="h2", count=1)]
    assert state.units["h2"].tokens == {"weakened": 1, "lucky": 1}


def test_purify_with_nothing_to_cleanse_still_untaps():
    given = battle(unit("h1", (2, 2), untapped=2, tapped=1, tokens={"lucky": 1}, actions=("purify",)), unit("f1", (2, 5)))
    then, _ = play(given, "h1", Act(unit="h1", action="purify", targets=("h1",)))
    assert then[1:] == [Untapped(unit="h1", count=1)]


def test_a_stunning_tactics_attack():
    then, state = attack("freezing_grasp", [5])
    # 1 hit x 3 = 3 <= 4: a tap, and the target is Stunned
    assert then[-2:] == [TokenTapped(unit="f1", reason="tap"), TokenGiven(unit="f1", token="stunned", by="h1")]
    assert state.units["h1"].energy == 0


def test_a_poisoning_tactics_attack_costs_its_focus():
    then, state = attack("cinders", [5, 1], focus=1)
    assert ACTIONS["cinders"].focus == 1
    assert then[-1] == TokenGiven(unit="f1", token="poisoned", by="h1") and state.units["h1"].focus == 0
