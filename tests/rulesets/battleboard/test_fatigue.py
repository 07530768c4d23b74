"""Fatigue's toll (not in the seed; fills Sides and Turns with Defense): from `fatigue_round`
(20) on, each combatant taps `fatigue_toll` (1) tokens at the start of its side's turn for
every round of fatigue so far: 1 in round 20, 2 in round 21, 3 in round 22. A tap taps an
untapped token, or discards a tapped one when none is untapped; a combatant with no token left
falls. So a side that keeps out of reach wears down too, the one with fewer tokens first, and a
battle ends before the round limit (30). 0 (every release before 1.4.0) takes no toll."""
from __future__ import annotations

import msgspec

from domain.engine.events import Viewer
from domain.rulesets.battleboard.commands import EndTurn
from domain.rulesets.battleboard.events import (BattleboardStarted, CombatEnded, Defeated, TokenDiscarded,
                                                TokenTapped)
from domain.rulesets.battleboard.matchups import tally
from domain.rulesets.battleboard.state import FOES, HEROES, Params
from domain.rulesets.battleboard.view import view

from .given import battle, of_type, play, unit


def test_the_params_these_tests_quote():
    assert (Params().fatigue_round, Params().fatigue_toll, Params().round_limit) == (20, 1, 30)


def heroes_end(state):
    """The heroes' seat h1 ends its turn (the only hero): the foes' turn begins."""
    return play(state, "h1", EndTurn())


def test_in_the_fatigue_round_each_combatant_taps_a_token_as_its_turn_begins():
    # given round 20 (fatigue_round 20), the heroes' turn; f1 and f2 with 3 tokens untapped
    state = battle(unit("h1", (2, 0)), unit("f1", (1, 5)), unit("f2", (3, 5)), round=20)
    # when the heroes end their turn and the foes' turn of round 20 begins
    then, state = heroes_end(state)
    # then each foe taps 1 token (1 round of fatigue x toll 1): 2 untapped, 1 tapped each
    assert of_type(then, TokenTapped) == [TokenTapped(unit="f1", reason="fatigue"),
                                         TokenTapped(unit="f2", reason="fatigue")]
    assert [(state.units[k].untapped, state.units[k].tapped) for k in ("f1", "f2")] == [(2, 1), (2, 1)]
    assert state.units["h1"].tapped == 0                # the heroes pay as their own turn begins


def test_the_toll_grows_by_one_token_a_round():
    # given round 20, the foes' turn; h1 with 4 tokens untapped
    state = battle(unit("h1", (2, 0), resilience=4), unit("f1", (2, 5)), round=20, active=FOES)
    # when the foes end their turn and the heroes' turn of round 21 begins
    then, state = play(state, "gm", EndTurn())
    # then h1 taps 2 tokens (2 rounds of fatigue x toll 1): 4 - 2 = 2 untapped, 2 tapped
    assert state.round == 21 and state.active == HEROES
    assert of_type(then, TokenTapped) == [TokenTapped(unit="h1", reason="fatigue")] * 2
    assert (state.units["h1"].untapped, state.units["h1"].tapped) == (2, 2)


def test_with_no_token_untapped_the_toll_discards_a_tapped_one():
    # given round 22 (toll 3), the heroes' turn; f1 with 1 untapped and 2 tapped tokens
    state = battle(unit("h1", (2, 0)), unit("f1", (2, 5), untapped=1, tapped=2), unit("f2", (0, 5)), round=22)
    # when the foes' turn begins
    then, state = heroes_end(state)
    # then f1 taps its 1 untapped token, then discards 2 tapped ones: 0 untapped, 3 - 2 = 1 tapped
    assert [e for e in then if getattr(e, "unit", None) == "f1" and isinstance(e, (TokenTapped, TokenDiscarded))] == [
        TokenTapped(unit="f1", reason="fatigue"), TokenDiscarded(unit="f1", tapped=True, reason="fatigue"),
        TokenDiscarded(unit="f1", tapped=True, reason="fatigue")]
    assert (state.units["f1"].untapped, state.units["f1"].tapped, state.units["f1"].defeated) == (0, 1, False)


def test_a_side_worn_to_nothing_falls_and_the_battle_ends():
    # given round 21 (toll 2), the heroes' turn; the one foe has 1 tapped token left
    state = battle(unit("h1", (2, 0)), unit("f1", (2, 5), untapped=0, tapped=1), round=21)
    # when the foes' turn begins
    then, state = heroes_end(state)
    # then the first tap discards the token, the second finds none: f1 falls and the heroes win
    assert of_type(then, Defeated) == [Defeated(unit="f1")]
    assert of_type(then, CombatEnded) == [CombatEnded(winner=HEROES, reason="every combatant of the foes was defeated")]
    assert state.ended == (HEROES, "every combatant of the foes was defeated")


def test_the_round_before_fatigue_takes_no_toll():
    # given round 19, one before fatigue_round 20; when the foes' turn begins, then no token is tapped
    then, state = heroes_end(battle(unit("h1", (2, 0)), unit("f1", (2, 5)), round=19))
    assert of_type(then, TokenTapped) == [] and state.units["f1"].untapped == 3


def test_a_toll_of_two_doubles_every_rounds_taps():
    # given fatigue_toll 2 in round 20; when the foes' turn begins, then f1 taps 2 x 1 = 2 tokens
    then, _ = heroes_end(battle(unit("h1", (2, 0)), unit("f1", (2, 5)), round=20, params=Params(fatigue_toll=2)))
    assert len(of_type(then, TokenTapped)) == 2


def test_no_toll_with_fatigue_toll_0_or_fatigue_round_0():
    for params in (Params(fatigue_toll=0), Params(fatigue_round=0)):
        # given round 25 under either; when the foes' turn begins, then nothing is tapped
        then, _ = heroes_end(battle(unit("h1", (2, 0)), unit("f1", (2, 5)), round=25, params=params))
        assert of_type(then, TokenTapped) == [], params


def test_the_view_shows_this_rounds_toll():
    # round 19: none; round 20: 1; round 23: 4 (toll 1 x rounds 20..23)
    tolls = [view(battle(unit("h1", (2, 0)), unit("f1", (2, 5)), round=n), Viewer())["fatigue"] for n in (19, 20, 23)]
    assert tolls == [0, 1, 4]


def test_a_1_3_0_log_plays_on_with_no_toll():
    # given the params a 1.3.0 battle recorded (class version 3: no fatigue_toll)
    recorded = {"params": {k: v for k, v in msgspec.to_builtins(Params()).items() if k != "fatigue_toll"}}
    # when it is upcast to today's event, then the toll is 0 and its fatigue round stays 20
    params = BattleboardStarted.upcast_v3_v4(recorded)["params"]
    assert (params["fatigue_toll"], params["fatigue_round"]) == (0, 20)


def test_the_balance_tally_counts_each_sides_fatigue_taps():
    # given a battle's events: h1 and f1, f1 paying 2 taps of fatigue and h1 one tap to Poisoned
    started = BattleboardStarted(params={}, rules={}, map="volcanic_ridge", heroes=["h1"],
                                 units=[{"id": "h1", "seat": "h1", "actions": []},
                                        {"id": "f1", "seat": "gm", "actions": []}])
    events = [started, TokenTapped(unit="f1", reason="fatigue"), TokenDiscarded(unit="f1", tapped=True, reason="fatigue"),
              TokenTapped(unit="h1", reason="poisoned")]
    # when each side is tallied, then the foes count 2 fatigue taps in a battle with one, the heroes none
    foes, heroes = tally(events, ["gm"]), tally(events, ["h1"])
    assert (foes["fatigue taps"], foes["battles with a fatigue tap"]) == (2, 1)
    assert (heroes.get("fatigue taps", 0), heroes["battles with a fatigue tap"]) == (0, 0)
