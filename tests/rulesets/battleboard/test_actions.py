"""Seed 002, Actions and Doubling Down: two actions a turn, of different kinds (one in the first
side's half turn); a third by doubling down, for one energy point, repeating a kind already
taken, never an identical action unless it is repeatable. Invigorated pays for a double down
instead of energy and allows an identical action; it is then discarded."""
from __future__ import annotations

from domain.rulesets.battleboard.commands import Act
from domain.rulesets.battleboard.events import ActionTaken, Gained, Restored, TokenSpent, Untapped

from .given import ACTIONS, battle, legal, play, refused, unit

MISS = [1, 1]
KIT = ("strike", "quick_stab", "scatter_shot", "recover", "reposition", "raise_shield")


def test_the_content_numbers_these_tests_quote():
    assert {k: (ACTIONS[k].kind, ACTIONS[k].repeatable, ACTIONS[k].energy) for k in KIT} == {
        "strike": ("attack", False, 0), "quick_stab": ("attack", True, 0), "scatter_shot": ("attack", False, 1),
        "recover": ("guard", False, 0), "reposition": ("move", True, 0), "raise_shield": ("guard", False, 0)}
    assert ACTIONS["quick_stab"].dice == "1d*3+1"


def fighter(energy=0, **h1):
    return battle(unit("h1", (2, 2), energy=energy, actions=KIT, **h1), unit("f1", (2, 3), defense=12))


def strike(state, dice=MISS):
    return play(state, "h1", Act(unit="h1", action="strike", targets=("f1",)), dice)


def test_two_actions_of_different_kinds():
    _, state = strike(fighter())
    then, state = play(state, "h1", Act(unit="h1", action="reposition"))
    assert then[0] == ActionTaken(seat="h1", unit="h1", action="reposition", kind="move")
    h1 = state.units["h1"]
    assert (h1.taken, h1.kinds, h1.doubled, h1.energy) == (("strike", "reposition"), ("attack", "move"), False, 0)


def test_a_third_kind_is_refused():
    _, state = strike(fighter(energy=1))
    _, state = play(state, "h1", Act(unit="h1", action="reposition"))
    refused(state, "h1", Act(unit="h1", action="recover"),
            r"h1 has taken its 2 actions this turn; doubling down repeats a kind already taken \(attack, move\)")


def test_a_second_action_of_the_same_kind_is_a_double_down_for_one_energy():
    _, state = strike(fighter(energy=2))
    then, state = play(state, "h1", Act(unit="h1", action="quick_stab", targets=("f1",)), [1])
    assert then[0] == ActionTaken(seat="h1", unit="h1", action="quick_stab", targets=("f1",), kind="attack",
                                  double_down=True, energy=1)
    h1 = state.units["h1"]
    assert (h1.energy, h1.doubled, h1.kinds) == (1, True, ("attack", "attack"))


def test_a_double_down_without_energy_is_refused():
    _, state = strike(fighter(energy=0))
    refused(state, "h1", Act(unit="h1", action="quick_stab", targets=("f1",)),
            r"doubling down costs 1 energy \(\+0 for Quick Stab\); h1 has 0")


def test_a_double_down_also_pays_the_actions_own_energy():
    _, state = strike(fighter(energy=2))
    then, state = play(state, "h1", Act(unit="h1", action="scatter_shot", targets=("f1",)), MISS)
    # 1 to double down + scatter_shot's 1
    assert then[0].energy == 2 and state.units["h1"].energy == 0
    _, state = strike(fighter(energy=1))
    refused(state, "h1", Act(unit="h1", action="scatter_shot", targets=("f1",)), r"\(\+1 for Scatter Shot\); h1 has 1")


def test_an_identical_action_is_refused_unless_repeatable():
    _, state = strike(fighter(energy=3))
    refused(state, "h1", Act(unit="h1", action="strike", targets=("f1",)),
            "Strike is not repeatable: double down with another attack action")
    _, state = play(fighter(energy=3), "h1", Act(unit="h1", action="quick_stab", targets=("f1",)), [1])
    then, state = play(state, "h1", Act(unit="h1", action="quick_stab", targets=("f1",)), [1])
    assert then[0].double_down is True and state.units["h1"].taken == ("quick_stab", "quick_stab")


def test_reposition_is_repeatable():
    _, state = play(fighter(energy=1), "h1", Act(unit="h1", action="reposition"))
    then, state = play(state, "h1", Act(unit="h1", action="reposition"))
    assert then == [ActionTaken(seat="h1", unit="h1", action="reposition", kind="move", double_down=True, energy=1),
                    Gained(unit="h1", resource="movement", amount=2)]
    assert (state.units["h1"].mp, state.units["h1"].energy) == (8, 0)


def test_only_one_double_down_a_turn():
    _, state = play(fighter(energy=3), "h1", Act(unit="h1", action="reposition"))
    _, state = play(state, "h1", Act(unit="h1", action="reposition"))
    refused(state, "h1", Act(unit="h1", action="reposition"), "h1 has already doubled down this turn")


def test_the_double_down_may_come_before_the_second_kind():
    _, state = play(fighter(energy=1), "h1", Act(unit="h1", action="reposition"))
    _, state = play(state, "h1", Act(unit="h1", action="reposition"))
    then, state = play(state, "h1", Act(unit="h1", action="recover"))
    assert then[0] == ActionTaken(seat="h1", unit="h1", action="recover", kind="guard")
    assert state.units["h1"].kinds == ("move", "move", "guard")
    refused(state, "h1", Act(unit="h1", action="strike", targets=("f1",)), "has taken its 2 actions")


def test_the_half_turn_is_one_action_and_a_double_down():
    state = fighter(energy=1, slots=1)
    _, state = play(state, "h1", Act(unit="h1", action="reposition"))
    refused(state, "h1", Act(unit="h1", action="recover"), "h1 has taken its 1 action this turn")
    then, _ = play(state, "h1", Act(unit="h1", action="reposition"))
    assert then[0].double_down is True


def test_invigorated_pays_for_an_identical_double_down():
    _, state = strike(fighter(energy=0, tokens={"invigorated": 1}))
    then, state = strike(state)
    assert then[:2] == [ActionTaken(seat="h1", unit="h1", action="strike", targets=("f1",), kind="attack",
                                    double_down=True, invigorated=True),
                        TokenSpent(unit="h1", token="invigorated", reason="doubled down")]
    assert (state.units["h1"].tokens, state.units["h1"].energy) == ({}, 0)


def test_invigorated_is_used_for_any_double_down_and_not_for_regular_actions():
    _, state = strike(fighter(energy=2, tokens={"invigorated": 2}))
    assert state.units["h1"].tokens == {"invigorated": 2}
    then, state = play(state, "h1", Act(unit="h1", action="quick_stab", targets=("f1",)), [1])
    assert then[0].energy == 0 and then[1] == TokenSpent(unit="h1", token="invigorated", reason="doubled down")
    assert (state.units["h1"].tokens, state.units["h1"].energy) == ({"invigorated": 1}, 2)


def test_invigorated_does_not_pay_the_actions_own_energy():
    _, state = strike(fighter(energy=1, tokens={"invigorated": 1}))
    then, state = play(state, "h1", Act(unit="h1", action="scatter_shot", targets=("f1",)), MISS)
    assert (then[0].energy, then[0].invigorated, state.units["h1"].energy) == (1, True, 0)
    _, state = strike(fighter(energy=0, tokens={"invigorated": 1}))
    refused(state, "h1", Act(unit="h1", action="scatter_shot", targets=("f1",)), "Scatter Shot costs 1 energy; h1 has 0")


def test_an_action_the_combatant_lacks_is_refused():
    refused(fighter(), "h1", Act(unit="h1", action="fireball", at=(2, 3)), "h1 has no action 'fireball'")


def test_an_actions_focus_must_be_paid():
    state = battle(unit("h1", (2, 2), focus=1, actions=("second_wind",)), unit("f1", (2, 5)))
    # second_wind: focus 2
    assert ACTIONS["second_wind"].focus == 2
    refused(state, "h1", Act(unit="h1", action="second_wind"), "Second Wind costs 2 focus and 0 more to reroll; h1 has 1")


def test_legal_commands_offer_exactly_the_allowed_actions():
    _, state = strike(fighter(energy=0))
    acts = sorted({c["action"] for c in legal(state, "h1") if c["type"] == "act"})
    # no energy to double down: only the two kinds not yet taken
    assert acts == ["raise_shield", "recover", "reposition"]


def test_recover_untaps_one_token():
    # given 0 untapped and 3 tapped tokens; when it Recovers (untap 1, content 1.2.0)
    state = battle(unit("h1", (2, 2), untapped=0, tapped=3, actions=("recover",)), unit("f1", (2, 5)))
    then, state = play(state, "h1", Act(unit="h1", action="recover"))
    # then one token untaps: 0 + 1 untapped, 3 - 1 tapped
    assert then[1:] == [Untapped(unit="h1", count=1)]
    assert (state.units["h1"].untapped, state.units["h1"].tapped) == (1, 2)


def test_aid_untaps_one_of_an_allys_tokens():
    state = battle(unit("h1", (2, 2), actions=("aid",)), unit("h2", (2, 1), untapped=1, tapped=2), unit("f1", (2, 5)))
    then, state = play(state, "h1", Act(unit="h1", action="aid", targets=("h2",)))
    assert then[1:] == [Untapped(unit="h2", count=1)]
    assert (state.units["h2"].untapped, state.units["h2"].tapped) == (2, 1)



def test_second_wind_restores_a_discarded_token():
    state = battle(unit("h1", (2, 2), resilience=3, untapped=1, tapped=1, focus=2, actions=("second_wind",)),
                   unit("f1", (2, 5)))
    then, state = play(state, "h1", Act(unit="h1", action="second_wind"))
    # 1 + 1 of 3 tokens left: one comes back, untapped; second_wind costs 2 focus
    assert then == [ActionTaken(seat="h1", unit="h1", action="second_wind", kind="guard", focus=2),
                    Restored(unit="h1", count=1)]
    h1 = state.units["h1"]
    assert (h1.untapped, h1.tapped, h1.focus) == (2, 1, 0)


def test_restoring_never_goes_above_resilience():
    state = battle(unit("h1", (2, 2), resilience=3, untapped=2, tapped=1, focus=2, actions=("second_wind",)),
                   unit("f1", (2, 5)))
    then, state = play(state, "h1", Act(unit="h1", action="second_wind"))
    assert then[1:] == [] and state.units["h1"].untapped == 2
