"""Seed 002, Movement and Battle Board: at the end of its turn a combatant snaps back to where
it started unless it ends in its own section (and not on an ally's cell); if its starting cell
has been taken, it goes to the nearest free cell of its section. A side that leaves the row of
its section next to the enemy empty at the end of its turn lets the enemy take that row."""
from __future__ import annotations

from domain.rulesets.battleboard.commands import Advance, EndTurn, Move
from domain.rulesets.battleboard.events import Readied, RowTaken, SeatDone, SnappedBack, TurnBegan, TurnEnded
from domain.rulesets.battleboard.state import FOES, HEROES, RULES_1_0_0, Params

from .given import battle, legal, of_type, play, refused, unit


# -- Snap-back --------------------------------------------------------------------------------

def test_a_combatant_that_ends_in_the_enemy_section_snaps_back_to_its_origin():
    given = battle(unit("h1", (2, 3), origin=(2, 2)), unit("f1", (4, 5)))
    then, state = play(given, "h1", EndTurn())
    assert then == [SeatDone(seat="h1"), SnappedBack(unit="h1", to=[2, 2]), TurnEnded(side=HEROES),
                    TurnBegan(side=FOES, round=1, turn=2, half=False, row_open=None),
                    Readied(unit="f1", mp=4, focus=0, slots=2, teleport=0)]
    assert state.units["h1"].cell == (2, 2) and state.active == FOES


def test_a_combatant_that_ends_in_its_own_section_stays():
    given = battle(unit("h1", (4, 2), origin=(2, 2)), unit("f1", (4, 5)))
    then, state = play(given, "h1", EndTurn())
    assert of_type(then, SnappedBack) == [] and state.units["h1"].cell == (4, 2)


def test_a_combatant_that_ends_on_an_ally_snaps_back():
    given = battle(unit("h1", (1, 2), origin=(1, 1)), unit("h2", (1, 2)), unit("f1", (4, 5)))
    then, state = play(given, "h1", EndTurn())
    assert then == [SeatDone(seat="h1"), SnappedBack(unit="h1", to=[1, 1])]
    assert (state.units["h1"].cell, state.units["h2"].cell) == ((1, 1), (1, 2))


def test_a_taken_origin_sends_it_to_the_nearest_free_cell_of_its_section():
    given = battle(unit("h1", (2, 3), origin=(2, 1)), unit("h2", (2, 1)), unit("f1", (4, 5)))
    then, _ = play(given, "h1", EndTurn())
    # (2,0), (1,1), (3,1) and (2,2) are all 1 from (2,1): the lowest row, then the lowest column
    assert of_type(then, SnappedBack) == [SnappedBack(unit="h1", to=[2, 0])]


def test_the_nearest_free_cell_skips_barriers_and_challenging_terrain():
    rows = ("..#..", ".c.#.", "..#..", ".....", ".....", ".....")
    given = battle(unit("h1", (2, 3), origin=(2, 1)), unit("h2", (2, 1)), unit("f1", (4, 5)), rows=rows)
    then, _ = play(given, "h1", EndTurn())
    # (2,0) barrier, (1,1) challenging, (3,1) barrier, (2,2) barrier: the nearest free cells are 2 away
    assert of_type(then, SnappedBack) == [SnappedBack(unit="h1", to=[1, 0])]


def test_an_origin_on_challenging_terrain_is_snapped_back_to():
    # given h1 began its turn on challenging terrain at (1,1) in its section (it was lifted
    # there last turn) and now stands in the enemy's section at (1,3)
    rows = (".....", ".c...", ".....", ".....", ".....", ".....")
    given = battle(unit("h1", (1, 3), origin=(1, 1)), unit("f1", (4, 5)), rows=rows)
    # when its seat ends the turn
    then, state = play(given, "h1", EndTurn())
    # then seed 002, Movement: "the combatant snaps back to their point of origin unless their
    # movement path ends in their section": back to (1,1), not the nearest placeable cell (1,0)
    assert of_type(then, SnappedBack) == [SnappedBack(unit="h1", to=[1, 1])]
    assert state.units["h1"].cell == (1, 1)


def test_under_1_0_0_an_origin_on_challenging_terrain_was_passed_over():
    rows = (".....", ".c...", ".....", ".....", ".....", ".....")
    given = battle(unit("h1", (1, 3), origin=(1, 1)), unit("f1", (4, 5)), rows=rows, rules=RULES_1_0_0)
    then, _ = play(given, "h1", EndTurn())
    # (1,0), (0,1), (2,1) and (1,2) are 1 from (1,1): the lowest row first
    assert of_type(then, SnappedBack) == [SnappedBack(unit="h1", to=[1, 0])]


def test_foes_snap_back_to_their_own_section_too():
    given = battle(unit("h1", (0, 0)), unit("f1", (2, 2), origin=(2, 3)), unit("f2", (3, 2), origin=(3, 4)),
                   active=FOES)
    then, state = play(given, "gm", EndTurn())
    assert then[:3] == [SeatDone(seat="gm"), SnappedBack(unit="f1", to=[2, 3]), SnappedBack(unit="f2", to=[3, 4])]
    # f1 is back in row 3, the foes' front row: nothing to take
    assert then[3:5] == [TurnEnded(side=FOES), TurnBegan(side=HEROES, round=2, turn=3, half=False, row_open=None)]


def test_snapping_back_happens_at_the_end_of_the_turn_not_before():
    given = battle(unit("h1", (2, 2)), unit("f1", (4, 5)))
    _, state = play(given, "h1", Move(unit="h1", to=(2, 3)))
    assert state.units["h1"].cell == (2, 3)


def test_the_next_side_readies_and_movement_points_are_lost():
    given = battle(unit("h1", (2, 2), mp=3, teleport_left=1), unit("f1", (4, 5), speed=3, focus_stat=1, teleport=2))
    _, state = play(given, "h1", EndTurn())
    assert (state.units["h1"].mp, state.units["h1"].teleport_left) == (0, 0)
    f1 = state.units["f1"]
    assert (f1.mp, f1.focus, f1.teleport_left, f1.slots, f1.origin, f1.path) == (3, 1, 2, 2, (4, 5), ((4, 5),))


# -- Taking a row -----------------------------------------------------------------------------

def heroes_leave_row_2():
    return battle(unit("h1", (2, 1)), unit("f1", (2, 4)))


def test_a_row_left_empty_is_offered_to_the_enemy():
    then, state = play(heroes_leave_row_2(), "h1", EndTurn())
    # the heroes hold rows 0-2; nobody of theirs in row 2
    assert of_type(then, TurnBegan) == [TurnBegan(side=FOES, round=1, turn=2, half=False, row_open=2)]
    assert state.row_open == 2
    assert {"type": "advance"} in legal(state, "gm")


def test_taking_the_row_moves_the_border():
    _, state = play(heroes_leave_row_2(), "h1", EndTurn())
    then, state = play(state, "gm", Advance())
    assert then == [RowTaken(seat="gm", side=FOES, row=2, border=2)]
    assert (state.border, state.row_open) == (2, None)
    refused(state, "gm", Advance(), "no row to take")


def test_a_row_held_at_the_end_of_the_turn_is_not_offered():
    given = battle(unit("h1", (2, 1)), unit("h2", (0, 2)), unit("f1", (2, 4)))
    _, state = play(given, "h1", EndTurn())
    _, state = play(state, "h2", EndTurn())
    assert state.row_open is None
    assert {"type": "advance"} not in legal(state, "gm")
    refused(state, "gm", Advance(), "no row to take")


def test_a_combatant_snapping_back_into_the_row_holds_it():
    given = battle(unit("h1", (2, 3), origin=(2, 2)), unit("f1", (4, 5)))
    _, state = play(given, "h1", EndTurn())
    assert state.row_open is None


def test_the_heroes_take_a_row_the_foes_left_empty():
    given = battle(unit("h1", (2, 1)), unit("f1", (2, 4)), active=FOES)
    _, state = play(given, "gm", EndTurn())
    assert state.row_open == 3
    then, state = play(state, "h1", Advance())
    assert then == [RowTaken(seat="h1", side=HEROES, row=3, border=4)]
    assert state.border == 4


def test_a_combatant_in_a_taken_row_stands_in_its_own_section():
    given = battle(unit("h1", (2, 1)), unit("f1", (2, 5)), active=FOES)
    _, state = play(given, "gm", EndTurn())
    _, state = play(state, "h1", Move(unit="h1", to=(2, 2)))
    _, state = play(state, "h1", Move(unit="h1", to=(2, 3)))
    _, state = play(state, "h1", Advance())
    then, state = play(state, "h1", EndTurn())
    # row 3 is the heroes' now: no snap-back, and h1 holds the heroes' new front row
    assert of_type(then, SnappedBack) == [] and state.units["h1"].cell == (2, 3)
    assert of_type(then, TurnBegan)[0].row_open is None


def test_a_row_is_offered_only_for_the_turn_after():
    _, state = play(heroes_leave_row_2(), "h1", EndTurn())
    _, state = play(state, "gm", EndTurn())
    # the foes did not take it; now the foes' own row 3 is empty and offered to the heroes
    assert state.row_open == 3


def test_a_side_keeps_at_least_its_minimum_rows():
    given = battle(unit("h1", (2, 0)), unit("f1", (2, 4)), border=2, params=Params(min_section_rows=2))
    _, state = play(given, "h1", EndTurn())
    assert state.row_open is None
    given = battle(unit("h1", (2, 0)), unit("f1", (2, 4)), border=2)
    _, state = play(given, "h1", EndTurn())
    assert state.row_open == 1
