"""Seed 002, Resolving Attacks and Defense: on a tap the target taps an untapped defense token or
discards a tapped one; on a break it discards an untapped token or two tapped ones. Where it has
a real choice its seat chooses (`defend`); else what it can pay is paid (a break with one tapped
token left discards it). A combatant with no token left to give up is defeated, and a side
whose combatants are all defeated loses."""
from __future__ import annotations

from domain.engine.ruleset import Outcome
from domain.rulesets.battleboard.commands import Act, Defend, EndTurn, Move
from domain.rulesets.battleboard.decide import outcome
from domain.rulesets.battleboard.events import (ActionTaken, CombatEnded, Defeated, DefenseAwaited, Defended,
                                                DiceRolled, TokenDiscarded, TokenTapped)
from domain.rulesets.battleboard.legal import awaiting
from domain.rulesets.battleboard.state import AttackPlan, FOES, HEROES

from .given import battle, fresh, legal, of_type, play, refused, unit

TAP = [5, 1]        # strike 2d*2+1: 1 hit x 2 + 1 = 3 <= defense 4
BREAK = [5, 6]      # 2 hits x 2 + 1 = 5 > defense 4


def strike(dice, **target):
    """h1 strikes f1 (Evasion 4, Defense 4; f2 stands by so the foes do not lose with f1)."""
    given = battle(unit("h1", (2, 2)), unit("f1", (2, 3), **target), unit("f2", (0, 5)))
    return play(given, "h1", Act(unit="h1", action="strike", targets=("f1",)), dice)


def tokens(state, key="f1"):
    u = state.units[key]
    return u.untapped, u.tapped


# -- No choice: what can be paid is paid ------------------------------------------------------

def test_a_tap_with_only_untapped_tokens_taps_one():
    then, state = strike(TAP, untapped=3, tapped=0)
    assert then[-1] == TokenTapped(unit="f1", reason="tap")
    assert tokens(state) == (2, 1) and state.plan is None


def test_a_tap_with_only_tapped_tokens_discards_one():
    then, state = strike(TAP, untapped=0, tapped=2)
    assert then[-1] == TokenDiscarded(unit="f1", tapped=True, reason="tap")
    assert tokens(state) == (0, 1)


def test_a_break_with_only_untapped_tokens_discards_one():
    then, state = strike(BREAK, untapped=3, tapped=0)
    assert then[-1] == TokenDiscarded(unit="f1", tapped=False, reason="break")
    assert tokens(state) == (2, 0)


def test_a_break_with_one_untapped_and_one_tapped_discards_the_untapped():
    # two tapped tokens are needed to pay a break with tapped ones: no choice
    then, state = strike(BREAK, untapped=1, tapped=1)
    assert then[-1] == TokenDiscarded(unit="f1", tapped=False, reason="break")
    assert tokens(state) == (0, 1)


def test_a_break_on_a_single_tapped_token_discards_it():
    then, state = strike(BREAK, untapped=0, tapped=1)
    assert of_type(then, TokenDiscarded) == [TokenDiscarded(unit="f1", tapped=True, reason="break")]
    assert tokens(state) == (0, 0) and not state.units["f1"].defeated


def test_a_break_on_tapped_tokens_only_discards_two():
    then, state = strike(BREAK, untapped=0, tapped=3)
    assert of_type(then, TokenDiscarded) == [TokenDiscarded(unit="f1", tapped=True, reason="break")] * 2
    assert tokens(state) == (0, 1)


# -- The defender's choice --------------------------------------------------------------------

def test_a_tap_with_both_kinds_of_token_waits_for_the_defenders_choice():
    then, state = strike(TAP, untapped=2, tapped=1)
    assert then == [ActionTaken(seat="h1", unit="h1", action="strike", targets=("f1",), kind="attack"),
                    DiceRolled(attacker="h1", target="f1", origin=(2, 3), expression="2d*2+1", dice=[5, 1],
                               rerolls=[], evasion=4, hits=1, av=3, defense=4, band="tap"),
                    DefenseAwaited(unit="f1", chooser="gm", av=3, defense=4, attacker="h1", action="strike",
                                   origin=(2, 3), remaining=[], rerolls=0)]
    assert state.plan == AttackPlan(attacker="h1", action="strike", targets=(), rerolls=0, target="f1", av=3,
                                    origin=(2, 3))
    assert awaiting(state) == frozenset({"gm"})
    assert legal(state, "gm") == [{"type": "defend", "lose": "untapped"}, {"type": "defend", "lose": "tapped"}]
    assert legal(state, "h1") == []


def waiting_tap():
    return strike(TAP, untapped=2, tapped=1)[1]


def waiting_break():
    return strike(BREAK, untapped=1, tapped=2)[1]


def test_the_defender_taps_an_untapped_token():
    then, state = play(waiting_tap(), "gm", Defend(lose="untapped"))
    assert then == [Defended(seat="gm", unit="f1", lose="untapped", band="tap"), TokenTapped(unit="f1", reason="tap")]
    assert tokens(state) == (1, 2) and state.plan is None
    assert awaiting(state) == frozenset({"h1"})


def test_the_defender_discards_a_tapped_token_on_a_tap():
    then, state = play(waiting_tap(), "gm", Defend(lose="tapped"))
    assert then == [Defended(seat="gm", unit="f1", lose="tapped", band="tap"),
                    TokenDiscarded(unit="f1", tapped=True, reason="tap")]
    assert tokens(state) == (2, 0)


def test_the_defender_discards_an_untapped_token_on_a_break():
    then, state = play(waiting_break(), "gm", Defend(lose="untapped"))
    assert then == [Defended(seat="gm", unit="f1", lose="untapped", band="break"),
                    TokenDiscarded(unit="f1", tapped=False, reason="break")]
    assert tokens(state) == (0, 2)


def test_the_defender_discards_two_tapped_tokens_on_a_break():
    then, state = play(waiting_break(), "gm", Defend(lose="tapped"))
    assert then == [Defended(seat="gm", unit="f1", lose="tapped", band="break"),
                    TokenDiscarded(unit="f1", tapped=True, reason="break"),
                    TokenDiscarded(unit="f1", tapped=True, reason="break")]
    assert tokens(state) == (1, 0)


def test_a_choice_not_offered_is_refused():
    refused(waiting_tap(), "gm", Defend(lose="untapped", focus=1), "may lose untapped with focus 0, lose tapped with focus 0")
    refused(waiting_tap(), "gm", Defend(lose="both"), "may lose untapped")


def test_nothing_else_happens_while_a_defence_is_awaited():
    state = waiting_tap()
    refused(state, "h1", EndTurn(), "f1 must first choose how to take the attack")
    refused(state, "h1", Move(unit="h1", to=(2, 1)), "must first choose")


def test_defend_without_a_waiting_attack_is_refused():
    refused(battle(unit("h1", (2, 2)), unit("f1", (2, 3))), "h1", Defend(lose="untapped"), "no attack is waiting")


def test_the_actions_other_attacks_go_on_after_the_choice():
    given = battle(unit("h1", (2, 2), energy=1, actions=("scatter_shot",)), unit("f1", (2, 3), untapped=2, tapped=1),
                   unit("f2", (3, 3)))
    then, state = play(given, "h1", Act(unit="h1", action="scatter_shot", targets=("f1", "f2")), TAP)
    # scatter_shot 2d*2+1 (range 2, from h1's own cell) on f1 first: a tap, and f1 may choose;
    # f2's attack waits
    assert then[-1] == DefenseAwaited(unit="f1", chooser="gm", av=3, defense=4, attacker="h1", action="scatter_shot",
                                      origin=(2, 2), remaining=["f2"], rerolls=0)
    then, state = play(state, "gm", Defend(lose="tapped"), BREAK)
    assert then == [Defended(seat="gm", unit="f1", lose="tapped", band="tap"),
                    TokenDiscarded(unit="f1", tapped=True, reason="tap"),
                    DiceRolled(attacker="h1", target="f2", origin=(2, 2), expression="2d*2+1", dice=[5, 6], rerolls=[],
                               evasion=4, hits=2, av=5, defense=4, band="break"),
                    TokenDiscarded(unit="f2", tapped=False, reason="break")]
    assert (tokens(state, "f1"), tokens(state, "f2")) == ((2, 0), (2, 0))


# -- Defeat and the end of the battle ---------------------------------------------------------

def test_a_combatant_with_no_token_to_give_up_is_defeated():
    then, state = strike(TAP, untapped=0, tapped=0)
    assert then[-1] == Defeated(unit="f1")
    f1 = state.units["f1"]
    assert (f1.defeated, f1.cell) == (True, None)
    assert state.ended is None and outcome(state) is None        # f2 fights on


def test_a_defeated_combatant_cannot_be_targeted_any_more():
    _, state = strike(TAP, untapped=0, tapped=0)
    refused(fresh(state, "h1"), "h1", Act(unit="h1", action="strike", targets=("f1",)), "f1 is not an enemy within 0")


def test_the_side_that_loses_its_last_combatant_loses_the_battle():
    given = battle(unit("h1", (2, 2)), unit("f1", (2, 3), untapped=0, tapped=0))
    then, state = play(given, "h1", Act(unit="h1", action="strike", targets=("f1",)), BREAK)
    assert then[-2:] == [Defeated(unit="f1"),
                         CombatEnded(winner=HEROES, reason="every combatant of the foes was defeated")]
    assert (state.phase, state.active, awaiting(state)) == ("over", None, frozenset())
    assert outcome(state) == Outcome(winner=HEROES, reason="every combatant of the foes was defeated")


def test_the_heroes_lose_when_their_last_hero_falls():
    given = battle(unit("h1", (2, 2), untapped=0, tapped=1), unit("f1", (2, 3)), active=FOES)
    then, state = play(given, "gm", Act(unit="f1", action="strike", targets=("h1",)), TAP)
    # h1 discards its last (tapped) token on the tap: still standing with none left
    assert then[-1] == TokenDiscarded(unit="h1", tapped=True, reason="tap") and state.ended is None
    then, state = play(fresh(state, "f1"), "gm", Act(unit="f1", action="strike", targets=("h1",)), TAP)
    assert then[-2:] == [Defeated(unit="h1"), CombatEnded(winner=FOES, reason="every combatant of the heroes was defeated")]
    assert outcome(state) == Outcome(winner=FOES, reason="every combatant of the heroes was defeated")

