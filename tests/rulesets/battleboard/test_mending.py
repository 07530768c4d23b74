"""Seed 002, Defense: tapped tokens stay tapped until an action untaps them, and a combatant has
at most `untaps_per_round` of its tokens untapped between the starts of its side's turns, by
any action alike (Recover, Aid, Purify, Scaled Hide). 0 sets no limit, as every release before
1.3.0 played. The limit ends a stalemate that had no other end: blows that can only tap,
against a side that untaps as much every turn. From `fatigue_round` (20) on nothing untaps at
all, so a duel of one tap against one mend a turn also wears down before the round limit (30)."""
from __future__ import annotations

import msgspec

from domain.engine.events import Viewer
from domain.rulesets.battleboard.commands import Act, EndTurn
from domain.rulesets.battleboard.events import ActionTaken, BattleboardStarted, StanceTaken, Untapped
from domain.rulesets.battleboard.state import FOES, HEROES, Params
from domain.rulesets.battleboard.view import view

from .given import ACTIONS, battle, fresh, play, unit


def test_the_content_numbers_these_tests_quote():
    assert [s.do for s in ACTIONS["drake_hide"].steps] == ["stance", "untap"]
    assert {k: ACTIONS[k].steps[0].amount for k in ("recover", "aid")} == {"recover": 1, "aid": 1}
    assert (Params().untaps_per_round, Params().fatigue_round, Params().round_limit) == (1, 20, 30)


def mended_pair(params: Params | None = None):
    """h1 with 3 tapped tokens next to h2, who can Aid it; a foe far away."""
    return battle(unit("h1", (2, 2), untapped=0, tapped=3, actions=("recover",)),
                  unit("h2", (2, 1), actions=("aid",)), unit("f1", (2, 5)), params=params)


def test_a_second_untap_in_one_round_untaps_nothing():
    # given h1 has Recovered one of its 3 tapped tokens this turn (1 of untaps_per_round 1)
    _, state = play(mended_pair(), "h1", Act(unit="h1", action="recover"))
    assert (state.units["h1"].untapped, state.units["h1"].mended, state.untaps_left("h1")) == (1, 1, 0)
    # when h2 Aids it
    then, state = play(state, "h2", Act(unit="h2", action="aid", targets=("h1",)))
    # then the action is taken and nothing untaps: still 1 untapped, 2 tapped
    assert then == [ActionTaken(seat="h2", unit="h2", action="aid", targets=("h1",), kind="tactics")]
    assert (state.units["h1"].untapped, state.units["h1"].tapped) == (1, 2)


def test_with_no_limit_every_untap_counts():
    # given the setup sets untaps_per_round 0 (no limit, 1.2.0's play)
    _, state = play(mended_pair(Params(untaps_per_round=0)), "h1", Act(unit="h1", action="recover"))
    assert state.untaps_left("h1") is None
    # when h2 Aids h1 after its Recover
    then, state = play(state, "h2", Act(unit="h2", action="aid", targets=("h1",)))
    # then both untap: 0 + 1 + 1 untapped, 3 - 2 tapped
    assert then[1:] == [Untapped(unit="h1", count=1)]
    assert (state.units["h1"].untapped, state.units["h1"].tapped) == (2, 1)


def test_a_limit_of_two_lets_two_through_and_not_a_third():
    # given untaps_per_round 2; h1 Recovers, h2 Aids it, then h1 Recovers again (a fresh turn's
    # actions, the count kept)
    _, state = play(mended_pair(Params(untaps_per_round=2)), "h1", Act(unit="h1", action="recover"))
    then, state = play(state, "h2", Act(unit="h2", action="aid", targets=("h1",)))
    assert then[1:] == [Untapped(unit="h1", count=1)]
    then, state = play(fresh(state, "h1"), "h1", Act(unit="h1", action="recover"))
    # then the third untaps nothing: 2 untapped, 1 tapped
    assert then[1:] == [] and (state.units["h1"].untapped, state.units["h1"].tapped) == (2, 1)


def test_the_count_starts_again_when_its_sides_turn_begins():
    # given h1 has used its untap this round
    _, state = play(mended_pair(), "h1", Act(unit="h1", action="recover"))
    # when both sides end their turns
    _, state = play(state, "h1", EndTurn())
    _, state = play(state, "h2", EndTurn())
    assert state.active == FOES and state.units["h1"].mended == 1     # not during the foes' turn
    _, state = play(state, "gm", EndTurn())
    # then, the heroes' turn begun, h1 may be untapped once more
    assert state.active == HEROES and (state.units["h1"].mended, state.untaps_left("h1")) == (0, 1)
    then, state = play(state, "h1", Act(unit="h1", action="recover"))
    assert then[1:] == [Untapped(unit="h1", count=1)]


def test_a_guard_that_untaps_still_takes_its_stance_past_the_limit():
    # given a foe with Scaled Hide (stance, then untap 1) already untapped once this round
    state = battle(unit("h1", (2, 0)), unit("f1", (2, 4), tapped=2, untapped=1, focus=1, mended=1,
                                             actions=("drake_hide",)), active=FOES)
    # when it takes Scaled Hide (focus 1)
    then, state = play(state, "gm", Act(unit="f1", action="drake_hide"))
    # then the stance is taken and no token untaps: 1 untapped, 2 tapped
    assert [type(e) for e in then] == [ActionTaken, StanceTaken]
    assert (state.units["f1"].untapped, state.units["f1"].tapped) == (1, 2)


def test_the_view_shows_how_many_untaps_are_left():
    _, state = play(mended_pair(), "h1", Act(unit="h1", action="recover"))
    seen = {u["id"]: u["untaps_left"] for u in view(state, Viewer(seat="h2"))["combatants"]}
    # h1 used its 1; h2 and f1 used none; under no limit the view says null
    assert seen == {"h1": 0, "h2": 1, "f1": 1}
    unlimited = view(mended_pair(Params(untaps_per_round=0)), Viewer())["combatants"]
    assert {u["untaps_left"] for u in unlimited} == {None}


# -- Fatigue ----------------------------------------------------------------------------------

def test_from_the_fatigue_round_on_nothing_untaps():
    # given round 20 (fatigue_round 20): h1 has 3 tapped tokens and has had no untap this round
    state = battle(unit("h1", (2, 2), untapped=0, tapped=3, actions=("recover",)), unit("f1", (2, 5)), round=20)
    assert state.untaps_left("h1") == 0
    # when it Recovers, then the action is taken and no token untaps: 0 untapped, 3 tapped
    then, state = play(state, "h1", Act(unit="h1", action="recover"))
    assert then[1:] == [] and (state.units["h1"].untapped, state.units["h1"].tapped) == (0, 3)


def test_the_round_before_fatigue_still_mends():
    # given round 19, one before fatigue_round 20; when h1 Recovers, then one token untaps
    state = battle(unit("h1", (2, 2), untapped=0, tapped=3, actions=("recover",)), unit("f1", (2, 5)), round=19)
    then, _ = play(state, "h1", Act(unit="h1", action="recover"))
    assert then[1:] == [Untapped(unit="h1", count=1)]


def test_fatigue_round_0_never_tires():
    # given fatigue_round 0 (every release before 1.3.0) at round 30; when h1 Recovers, then it untaps
    state = battle(unit("h1", (2, 2), untapped=0, tapped=3, actions=("recover",)), unit("f1", (2, 5)),
                   round=30, params=Params(fatigue_round=0))
    then, _ = play(state, "h1", Act(unit="h1", action="recover"))
    assert then[1:] == [Untapped(unit="h1", count=1)]


def test_a_1_2_0_log_plays_on_with_no_limit_and_no_fatigue():
    # given the params a 1.2.0 battle recorded (class version 2: neither param)
    recorded = {"params": {k: v for k, v in msgspec.to_builtins(Params()).items()
                           if k not in ("untaps_per_round", "fatigue_round")}}
    # when it is upcast to today's event, then both are 0: no limit, never tired
    params = BattleboardStarted.upcast_v2_v3(recorded)["params"]
    assert (params["untaps_per_round"], params["fatigue_round"]) == (0, 0)
