"""Seed 002, Initiative: each side rolls a d12, rerolling on a match; the side with the higher
roll chooses to go first or second. The second side arranges its combatants first, then the
first side, which then takes a half turn (one action each). A side's placements are seen by
its own seats only until both sides have arranged."""
from __future__ import annotations

from msgspec.structs import replace

from domain.engine.events import Viewer, redact
from domain.rulesets.battleboard import RULESET
from domain.rulesets.battleboard.commands import Act, Choose, EndTurn, Place
from domain.rulesets.battleboard.events import (ArrangementRevealed, ArrangingBegan, BattleboardStarted,
                                                InitiativeRolled, OrderChosen, Placed, Readied, TurnBegan)
from domain.rulesets.battleboard.legal import awaiting
from domain.rulesets.battleboard.setup import parse_setup
from domain.rulesets.battleboard.start import start
from domain.rulesets.battleboard.state import FOES, HEROES

from .given import Dice, after, field, legal, play, refused

SETUP = {"heroes": ["aria", "bram"], "foes": ["goblin_archer", "goblin_archer"], "map": "training_ground"}


def opening(*initiative: int):
    """The battle as `start` opens it, with the initiative dice given: (events, state)."""
    dice = Dice(*initiative)
    events = start(parse_setup(SETUP), dice)  # type: ignore[arg-type]
    assert dice.values == []
    return events, after(None, events)


def test_each_side_rolls_a_d12_and_the_higher_wins():
    events, state = opening(9, 4)
    assert isinstance(events[0], BattleboardStarted)
    assert events[1] == InitiativeRolled(rolls=[[9, 4]], winner=HEROES)
    assert (state.phase, state.winner) == ("order", HEROES)
    assert awaiting(state) == frozenset({"h1", "h2"})       # either hero seat chooses


def test_a_match_is_rerolled():
    events, state = opening(6, 6, 12, 12, 2, 7)
    assert events[1] == InitiativeRolled(rolls=[[6, 6], [12, 12], [2, 7]], winner=FOES)
    assert awaiting(state) == frozenset({"gm"})
    assert legal(state, "gm") == [{"type": "choose", "go": "first"}, {"type": "choose", "go": "second"}]


def test_the_winner_going_first_makes_the_other_side_arrange_first():
    _, state = opening(9, 4)
    then, state = play(state, "h2", Choose(go="first"))
    assert then == [OrderChosen(seat="h2", go="first", first=HEROES)]
    assert (state.phase, state.first, state.arranging) == ("arrange", HEROES, FOES)
    assert awaiting(state) == frozenset({"gm"})


def test_the_winner_going_second_arranges_first():
    _, state = opening(9, 4)
    _, state = play(state, "h1", Choose(go="second"))
    assert (state.first, state.arranging) == (FOES, HEROES)
    assert awaiting(state) == frozenset({"h1", "h2"})


def test_the_order_is_first_or_second():
    _, state = opening(9, 4)
    refused(state, "h1", Choose(go="last"), "go: first or second, not 'last'")
    refused(state, "h1", EndTurn(), "the order step takes a choose command, not end_turn")


def arranging():
    """The heroes won and go first: the foes arrange."""
    _, state = opening(9, 4)
    return play(state, "h1", Choose(go="first"))[1]


def test_the_second_side_places_each_combatant_then_the_first_side_arranges():
    state = arranging()
    then, state = play(state, "gm", Place(unit="f1", cell=(0, 5)))
    assert then == [Placed(seat="gm", unit="f1", cell=(0, 5), team=["gm"])]
    assert state.placed == {"f1": (0, 5)} and state.units["f1"].cell is None
    then, state = play(state, "gm", Place(unit="f2", cell=(4, 3)))
    assert then == [Placed(seat="gm", unit="f2", cell=(4, 3), team=["gm"]), ArrangingBegan(side=HEROES)]
    assert (state.arranging, awaiting(state)) == (HEROES, frozenset({"h1", "h2"}))


def foes_arranged():
    state = arranging()
    _, state = play(state, "gm", Place(unit="f1", cell=(0, 5)))
    return play(state, "gm", Place(unit="f2", cell=(4, 3)))[1]


def test_the_first_sides_last_placement_reveals_all_and_opens_a_half_turn():
    state = foes_arranged()
    then, state = play(state, "h2", Place(unit="h2", cell=(1, 0)))
    assert then == [Placed(seat="h2", unit="h2", cell=(1, 0), team=["h1", "h2"])]
    assert awaiting(state) == frozenset({"h1"})
    then, state = play(state, "h1", Place(unit="h1", cell=(2, 2)))
    assert then[:3] == [Placed(seat="h1", unit="h1", cell=(2, 2), team=["h1", "h2"]),
                        ArrangementRevealed(cells={"f1": [0, 5], "f2": [4, 3], "h2": [1, 0], "h1": [2, 2]}),
                        TurnBegan(side=HEROES, round=1, turn=1, half=True, row_open=None)]
    assert [(e.unit, e.slots) for e in then[3:] if isinstance(e, Readied)] == [("h1", 1), ("h2", 1)]
    assert {k: u.cell for k, u in state.units.items()} == {"h1": (2, 2), "h2": (1, 0), "f1": (0, 5), "f2": (4, 3)}
    assert (state.phase, state.active, state.half, state.placed) == ("turn", HEROES, True, {})
    assert awaiting(state) == frozenset({"h1", "h2"})


def test_the_half_turn_is_one_action_each():
    state = foes_arranged()
    _, state = play(state, "h2", Place(unit="h2", cell=(1, 0)))
    _, state = play(state, "h1", Place(unit="h1", cell=(2, 2)))
    _, state = play(state, "h1", Act(unit="h1", action="reposition"))
    refused(state, "h1", Act(unit="h1", action="recover"), "has taken its 1 action this turn")


def test_the_second_side_then_takes_a_full_turn():
    state = foes_arranged()
    _, state = play(state, "h2", Place(unit="h2", cell=(1, 0)))
    _, state = play(state, "h1", Place(unit="h1", cell=(2, 2)))
    _, state = play(state, "h1", EndTurn())
    then, state = play(state, "h2", EndTurn())
    assert of_turn(then) == TurnBegan(side=FOES, round=1, turn=2, half=False, row_open=None)
    assert [e.slots for e in then if isinstance(e, Readied)] == [2, 2]
    then, state = play(state, "gm", EndTurn())
    assert of_turn(then) == TurnBegan(side=HEROES, round=2, turn=3, half=False, row_open=None)


def of_turn(events):
    return next(e for e in events if isinstance(e, TurnBegan))


def test_a_placement_must_be_a_free_cell_of_the_sides_section():
    state = arranging()
    refused(state, "gm", Place(unit="f1", cell=(0, 2)), r"\[0, 2\] is not a free cell of your section")
    _, state = play(state, "gm", Place(unit="f1", cell=(0, 5)))
    refused(state, "gm", Place(unit="f2", cell=(0, 5)), "is not a free cell")
    refused(state, "gm", Place(unit="f1", cell=(1, 5)), "'f1' is not one of your combatants waiting to be arranged")


def test_barriers_and_challenging_terrain_take_no_placement():
    state = replace(arranging(), map=field(".....", ".....", ".....", "#c...", ".....", "....."))
    refused(state, "gm", Place(unit="f1", cell=(0, 3)), "not a barrier or challenging")
    refused(state, "gm", Place(unit="f1", cell=(1, 3)), "not a barrier or challenging")
    assert {"type": "place", "unit": "f1", "cell": [2, 3]} in legal(state, "gm")
    assert {"type": "place", "unit": "f1", "cell": [0, 3]} not in legal(state, "gm")


def test_the_first_side_waits_for_the_second():
    state = arranging()
    refused(state, "h1", Place(unit="h1", cell=(0, 0)), "'h1' is not one of your combatants waiting")
    assert legal(state, "h1") == []


def test_a_seat_places_only_its_own_combatants():
    state = foes_arranged()
    refused(state, "h1", Place(unit="h2", cell=(0, 0)), "'h2' is not one of your combatants waiting")


def seen_cell(event, viewer):
    """The cell of a Placed event as `viewer` sees it during the battle (None: hidden)."""
    cell = redact(event, viewer, public=False)[0]["cell"]
    return None if cell is None else list(cell)


def test_a_placement_is_seen_by_its_sides_seats_only():
    state = arranging()
    then, state = play(state, "gm", Place(unit="f1", cell=(0, 5)))
    assert seen_cell(then[0], Viewer(seat="gm")) == [0, 5]
    assert seen_cell(then[0], Viewer(seat="h1")) is None
    assert seen_cell(then[0], Viewer()) is None
    assert seen_cell(then[0], Viewer(omniscient=True)) == [0, 5]
    state = foes_arranged()
    then, state = play(state, "h2", Place(unit="h2", cell=(1, 0)))
    assert seen_cell(then[0], Viewer(seat="h1")) == [1, 0]           # a teammate sees it
    assert seen_cell(then[0], Viewer(seat="gm")) is None


def test_the_view_shows_a_side_its_own_placements_before_the_reveal():
    state = foes_arranged()
    f1 = {u["id"]: u for u in RULESET.view(state, Viewer(seat="gm"))["combatants"]}["f1"]
    assert (f1["cell"], f1["placed"]) == ([0, 5], True)
    f1 = {u["id"]: u for u in RULESET.view(state, Viewer(seat="h1"))["combatants"]}["f1"]
    assert (f1["cell"], f1["placed"]) == (None, False)


def test_the_reveal_is_public():
    state = foes_arranged()
    _, state = play(state, "h2", Place(unit="h2", cell=(1, 0)))
    then, state = play(state, "h1", Place(unit="h1", cell=(2, 2)))
    revealed = then[1]
    assert redact(revealed, Viewer(), public=False)[1] is True          # whole, for anyone
    f1 = {u["id"]: u for u in RULESET.view(state, Viewer(seat="h1"))["combatants"]}["f1"]
    assert f1["cell"] == [0, 5]
