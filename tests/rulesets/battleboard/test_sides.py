"""Seed 002, Sides and Turns: the heroes are one side of several seats, one hero each, acting in
any order during their side's turn; the side's turn ends when every hero seat with a living hero
has ended it. The foes are one seat. A refused command changes nothing."""
from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.engine.battle import decide_batch, open_battle
from domain.engine.errors import NotYourTurn, RuleViolation
from domain.engine.ruleset import Outcome
from domain.rulesets.battleboard import RULESET
from domain.rulesets.battleboard.commands import Act, EndTurn, Move
from domain.rulesets.battleboard.decide import outcome
from domain.rulesets.battleboard.events import CombatEnded, SeatDone, TurnBegan, TurnEnded
from domain.rulesets.battleboard.legal import awaiting
from domain.rulesets.battleboard.state import FOES, HEROES, Params

from .given import battle, legal, of_type, play, refused, unit


def party():
    kit = ("strike", "recover")
    return battle(unit("h1", (0, 1), actions=kit), unit("h2", (2, 1), actions=kit), unit("h3", (4, 1), actions=kit),
                  unit("f1", (2, 4)))


def test_every_hero_seat_is_awaited_at_once():
    assert awaiting(party()) == frozenset({"h1", "h2", "h3"})
    assert legal(party(), "gm") == []


def test_hero_seats_act_in_any_order_and_each_command_applies_at_once():
    _, state = play(party(), "h3", Move(unit="h3", to=(4, 2)))
    _, state = play(state, "h1", Move(unit="h1", to=(0, 2)))
    _, state = play(state, "h3", Act(unit="h3", action="recover"))
    _, state = play(state, "h2", Act(unit="h2", action="recover"))
    assert (state.units["h1"].cell, state.units["h3"].cell) == ((0, 2), (4, 2))
    assert [state.units[k].taken for k in ("h1", "h2", "h3")] == [(), ("recover",), ("recover",)]


def test_a_seat_that_ended_waits_for_the_others():
    then, state = play(party(), "h2", EndTurn())
    assert then == [SeatDone(seat="h2")]
    assert (state.done, awaiting(state), state.active) == (("h2",), frozenset({"h1", "h3"}), HEROES)
    refused(state, "h2", Move(unit="h2", to=(2, 2)), "h2 is not taking its turn now")
    assert legal(state, "h2") == []


def test_the_side_turn_ends_when_the_last_hero_seat_ends():
    _, state = play(party(), "h2", EndTurn())
    _, state = play(state, "h3", EndTurn())
    then, state = play(state, "h1", EndTurn())
    # (the heroes all stand in row 1, leaving their front row 2 to the foes)
    assert then[:3] == [SeatDone(seat="h1"), TurnEnded(side=HEROES),
                        TurnBegan(side=FOES, round=1, turn=2, half=False, row_open=2)]
    assert (state.active, state.done, awaiting(state)) == (FOES, (), frozenset({"gm"}))


def test_a_seat_whose_hero_has_fallen_is_not_waited_for():
    state = party()
    state = state.with_unit(replace(state.units["h2"], defeated=True, cell=None))
    assert awaiting(state) == frozenset({"h1", "h3"})
    _, state = play(state, "h1", EndTurn())
    then, state = play(state, "h3", EndTurn())
    assert of_type(then, TurnEnded) == [TurnEnded(side=HEROES)]


def test_the_game_master_seat_plays_every_foe():
    state = battle(unit("h1", (0, 0)), unit("f1", (0, 4)), unit("f2", (4, 4)), active=FOES)
    _, state = play(state, "gm", Move(unit="f1", to=(0, 3)))
    _, state = play(state, "gm", Move(unit="f2", to=(4, 3)))
    then, state = play(state, "gm", EndTurn())
    assert of_type(then, TurnEnded) == [TurnEnded(side=FOES)]


def test_a_seat_commands_only_its_own_combatant():
    refused(party(), "h1", Move(unit="h2", to=(2, 2)), "'h2' is not a combatant of h1")
    refused(party(), "h1", Act(unit="f1", action="strike", targets=("h1",)), "'f1' is not a combatant of h1")


def test_the_battle_is_a_draw_after_the_round_limit():
    state = battle(unit("h1", (0, 0)), unit("f1", (0, 4)), active=FOES, round=3, params=Params(round_limit=3))
    then, state = play(state, "gm", EndTurn())
    assert then[-1] == CombatEnded(winner=None, reason="still undecided after 3 rounds")
    assert outcome(state) == Outcome(winner=None, reason="still undecided after 3 rounds")


# -- A refused command appends nothing ---------------------------------------------------------

def opened():
    state, _ = open_battle(RULESET, battle_id="b-1", setup={"heroes": ["aria", "bram"], "encounter": "goblin_ambush"},
                           players={"h1": "ann", "h2": "bob", "gm": "gwen"}, revealed=b"\x02" * 32,
                           created_at="2024-01-01T00:00:00Z")
    return state


def test_a_refused_command_appends_nothing():
    state = opened()
    seat = sorted(RULESET.awaiting(state.game))[0]
    with pytest.raises(RuleViolation, match="go: first or second"):
        decide_batch(RULESET, state, seat, {"type": "choose", "go": "last"})
    with pytest.raises(RuleViolation, match="the order step takes a choose command"):
        decide_batch(RULESET, state, seat, {"type": "end_turn"})
    after, records = decide_batch(RULESET, state, seat, {"type": "choose", "go": "first"})
    assert after.seq == state.seq + len(records)            # the refusals left no trace before this


def test_a_seat_not_awaited_is_refused_by_the_engine():
    state = opened()
    other = ({"h1", "h2", "gm"} - set(RULESET.awaiting(state.game))).pop()
    with pytest.raises(NotYourTurn):
        decide_batch(RULESET, state, other, {"type": "choose", "go": "first"})
