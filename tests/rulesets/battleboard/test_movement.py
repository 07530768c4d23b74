"""Seed 002, Movement: each step of the movement path enters a next cell (orthogonally) for its
cost. Zones of Control: every combatant's '+' (its own cell included) costs its enemies one more
point to enter, and zones stack. Special Movement: Flight ignores the zones of enemies without
flight; Bull Rush ignores the cost of zones; Teleportation skips cells in a straight line (not
barriers or obscuring terrain) for 1 point."""
from __future__ import annotations

from domain.rulesets.battleboard.board import steps, zoc_cost
from domain.rulesets.battleboard.commands import Act, EndTurn, Move
from domain.rulesets.battleboard.events import ActionTaken, Gained, Granted, Moved, MovementLapsed, StanceTaken
from domain.rulesets.battleboard.state import RULES_1_0_0

from .given import ACTIONS, battle, legal, of_type, play, refused, unit


def test_the_content_numbers_these_tests_quote():
    steps_of = {k: [(s.do, s.amount, s.movement) for s in ACTIONS[k].steps]
                for k in ("reposition", "trample", "wind_step", "ebb_and_flow", "blink")}
    assert steps_of == {"reposition": [("movement", 2, None)],
                        "trample": [("movement", 1, None), ("special", 0, "bull_rush")],
                        "wind_step": [("movement", 2, None), ("special", 0, "flight")],
                        "ebb_and_flow": [("movement", 1, None), ("special", 0, "swimming")],
                        "blink": [("teleport", 2, None)]}


def costs(state, key="h1"):
    """Every step the combatant can take now: cell -> (cost, cells skipped)."""
    return {cell: (cost, skipped) for cell, cost, skipped in steps(state, state.units[key])}


# -- Zones of control -------------------------------------------------------------------------

def test_a_cell_in_an_enemys_zone_costs_one_more():
    state = battle(unit("h1", (2, 1)), unit("f1", (3, 3)))
    # (3,2) is next to f1; (1,1) and (2,2) are not ((2,2) is diagonal to f1)
    assert costs(state) == {(2, 0): (1, 0), (3, 1): (1, 0), (2, 2): (1, 0), (1, 1): (1, 0)}
    state = battle(unit("h1", (3, 1)), unit("f1", (3, 3)))
    assert costs(state)[(3, 2)] == (2, 0)


def test_zones_stack():
    state = battle(unit("h1", (2, 1)), unit("f1", (1, 2)), unit("f2", (3, 2)))
    # (2,2) is in both f1's and f2's zones: 1 + 2
    assert costs(state)[(2, 2)] == (3, 0)
    then, after_step = play(state, "h1", Move(unit="h1", to=(2, 2)))
    assert then == [Moved(seat="h1", unit="h1", to=(2, 2), cost=3)] and after_step.units["h1"].mp == 1


def test_an_enemys_cell_is_never_entered_and_an_allys_is():
    state = battle(unit("h1", (2, 1)), unit("h2", (1, 1)), unit("f1", (2, 2)))
    assert (2, 2) not in costs(state)
    refused(state, "h1", Move(unit="h1", to=(2, 2)), "cannot move to")
    assert costs(state)[(1, 1)] == (1, 0)            # allies cast no zone on each other


def test_a_defeated_enemy_has_no_zone():
    from msgspec.structs import replace
    state = battle(unit("h1", (3, 1)), unit("f1", (3, 3)), unit("f2", (0, 5)))
    state = state.with_unit(replace(state.units["f1"], defeated=True, cell=None))
    assert costs(state)[(3, 2)] == (1, 0)


def test_bull_rush_ignores_zones():
    state = battle(unit("h1", (2, 1), movement=("bull_rush",)), unit("f1", (1, 2)), unit("f2", (3, 2)))
    assert costs(state)[(2, 2)] == (1, 0)


def test_trample_gives_bull_rush_for_the_turn():
    state = battle(unit("h1", (2, 1), actions=("trample",)), unit("f1", (1, 2)), unit("f2", (3, 2)))
    then, state = play(state, "h1", Act(unit="h1", action="trample"))
    assert then == [ActionTaken(seat="h1", unit="h1", action="trample", kind="move"),
                    Gained(unit="h1", resource="movement", amount=1), Granted(unit="h1", movement="bull_rush")]
    assert state.units["h1"].granted == ("bull_rush",) and state.units["h1"].mp == 5
    assert costs(state)[(2, 2)] == (1, 0)


def test_flight_ignores_the_zones_of_enemies_without_flight():
    state = battle(unit("h1", (2, 1), movement=("flight",)), unit("f1", (1, 2)), unit("f2", (3, 2)))
    assert costs(state)[(2, 2)] == (1, 0)


def test_flight_does_not_ignore_a_flyers_zone():
    state = battle(unit("h1", (2, 1), movement=("flight",)), unit("f1", (1, 2), movement=("flight",)),
                   unit("f2", (3, 2)))
    assert costs(state)[(2, 2)] == (2, 0)            # f1 flies too: its zone counts, f2's does not
    state = battle(unit("h1", (2, 1), movement=("flight",)), unit("f1", (1, 2), granted=("flight",)),
                   unit("f2", (3, 2)))
    assert zoc_cost(state, state.units["h1"], (2, 2)) == 1


def test_wind_step_gives_flight_and_movement():
    state = battle(unit("h1", (2, 1), actions=("wind_step",)), unit("f1", (1, 2)), unit("f2", (3, 2)))
    then, state = play(state, "h1", Act(unit="h1", action="wind_step"))
    assert then[1:] == [Gained(unit="h1", resource="movement", amount=2), Granted(unit="h1", movement="flight")]
    assert costs(state)[(2, 2)] == (1, 0) and state.units["h1"].mp == 6


def test_a_movement_type_already_held_is_not_granted_again():
    state = battle(unit("h1", (2, 1), movement=("flight",), actions=("wind_step",)), unit("f1", (4, 5)))
    then, state = play(state, "h1", Act(unit="h1", action="wind_step"))
    assert then[1:] == [Gained(unit="h1", resource="movement", amount=2)]
    assert state.units["h1"].granted == ()


def test_a_movement_type_a_move_action_gave_ends_with_the_turn():
    # given h1 took Wind Step ("Gain 2 movement points and Flight this turn"), and f1 flies
    given = battle(unit("h1", (2, 2), actions=("wind_step",)), unit("f1", (2, 4), movement=("flight",)))
    _, given = play(given, "h1", Act(unit="h1", action="wind_step"))
    # when h1's seat ends the heroes' turn
    then, state = play(given, "h1", EndTurn())
    # then seed 002, Move: "Move actions instead increase the amount of movement a combatant can
    # take or gives the combatant special movement types" for the turn, as "Movement points are
    # lost at the end of their turn" (Speed): h1 no longer flies in the foes' turn
    assert of_type(then, MovementLapsed) == [MovementLapsed(unit="h1", movement=["flight"])]
    assert (state.units["h1"].granted, state.units["h1"].moves_as("flight")) == ((), False)
    # so flying f1 ignores h1's zone: (2,3) costs 1, not 1 + 1 for the zone of a flyer
    assert costs(state, "f1")[(2, 3)] == (1, 0)


def test_a_lift_ends_with_the_turn_too():
    given = battle(unit("h1", (2, 2), granted=("swimming",), lifted=True), unit("f1", (2, 5)))
    then, state = play(given, "h1", EndTurn())
    assert of_type(then, MovementLapsed) == [MovementLapsed(unit="h1", movement=["swimming", "lift"])]
    assert (state.units["h1"].granted, state.units["h1"].lifted) == ((), False)


def test_under_1_0_0_a_movement_type_lasted_into_the_enemys_turn():
    given = battle(unit("h1", (2, 2), granted=("flight",)), unit("f1", (2, 4), movement=("flight",)),
                   rules=RULES_1_0_0)
    then, state = play(given, "h1", EndTurn())
    # no lapse: h1 still flies, and its zone costs flying f1 one more: 1 + 1 = 2
    assert (of_type(then, MovementLapsed), state.units["h1"].granted) == ([], ("flight",))
    assert costs(state, "f1")[(2, 3)] == (2, 0)


def test_ebb_and_flow_gives_swimming():
    rows = (".....", "..~..", ".....", ".....", ".....", ".....")
    state = battle(unit("h1", (2, 0), actions=("ebb_and_flow",)), unit("f1", (4, 5)), rows=rows)
    assert costs(state)[(2, 1)] == (2, 0)
    _, state = play(state, "h1", Act(unit="h1", action="ebb_and_flow"))
    assert costs(state)[(2, 1)] == (1, 0) and state.units["h1"].mp == 5


def test_reposition_gives_movement_points():
    state = battle(unit("h1", (2, 1), mp=0, actions=("reposition",)), unit("f1", (4, 5)))
    assert costs(state) == {}
    then, state = play(state, "h1", Act(unit="h1", action="reposition"))
    assert then[1:] == [Gained(unit="h1", resource="movement", amount=2)] and state.units["h1"].mp == 2


def test_a_combatant_without_movement_points_cannot_step():
    state = battle(unit("h1", (2, 1), mp=0), unit("f1", (4, 5)))
    refused(state, "h1", Move(unit="h1", to=(2, 2)), r"\(0 movement points left\)")
    assert [c for c in legal(state, "h1") if c["type"] == "move"] == []


def test_movement_points_are_spent_step_by_step():
    state = battle(unit("h1", (0, 0), mp=2), unit("f1", (4, 5)))
    _, state = play(state, "h1", Move(unit="h1", to=(1, 0)))
    _, state = play(state, "h1", Move(unit="h1", to=(1, 1)))
    h1 = state.units["h1"]
    assert (h1.cell, h1.mp, h1.path) == ((1, 1), 0, ((0, 0), (1, 0), (1, 1)))
    refused(state, "h1", Move(unit="h1", to=(1, 2)), "cannot move to")


def test_a_combatant_moves_only_on_its_own_turn():
    state = battle(unit("h1", (2, 1)), unit("f1", (2, 4)))
    refused(state, "gm", Move(unit="f1", to=(2, 3)), "f1 is not taking its turn now")
    refused(state, "gm", Move(unit="h1", to=(2, 2)), "'h1' is not a combatant of gm")
    refused(state, "h1", Move(unit="h2", to=(2, 2)), "'h2' is not a combatant of h1")


# -- Teleportation ----------------------------------------------------------------------------

def test_a_teleport_jump_skips_cells_in_a_straight_line_for_one_point():
    state = battle(unit("h1", (2, 0), teleport_left=2), unit("f1", (4, 5)))
    assert costs(state) == {(2, 1): (1, 0), (3, 0): (1, 0), (1, 0): (1, 0),
                            (2, 2): (1, 1), (2, 3): (1, 2), (4, 0): (1, 1), (0, 0): (1, 1)}
    then, state = play(state, "h1", Move(unit="h1", to=(2, 3)))
    assert then == [Moved(seat="h1", unit="h1", to=(2, 3), cost=1, skipped=2)]
    h1 = state.units["h1"]
    assert (h1.cell, h1.mp, h1.teleport_left, h1.path) == ((2, 3), 3, 0, ((2, 0), (2, 3)))


def test_teleport_points_may_be_split_over_several_jumps():
    state = battle(unit("h1", (0, 0), teleport_left=2), unit("f1", (4, 5)))
    _, state = play(state, "h1", Move(unit="h1", to=(0, 2)))
    then, state = play(state, "h1", Move(unit="h1", to=(2, 2)))
    assert then == [Moved(seat="h1", unit="h1", to=(2, 2), cost=1, skipped=1)]
    assert (state.units["h1"].teleport_left, state.units["h1"].mp) == (0, 2)


def test_a_jump_ignores_the_terrain_it_skips_and_lands_on():
    rows = (".....", "..d..", "..~..", "..c..", ".....", ".....")
    state = battle(unit("h1", (2, 0), teleport_left=3), unit("f1", (4, 5)), rows=rows)
    # over difficult and liquid ground onto challenging terrain, 1 point whatever is there
    assert costs(state)[(2, 3)] == (1, 2)
    assert costs(state)[(2, 4)] == (1, 3)


def test_a_jump_cannot_skip_a_barrier_or_obscuring_terrain():
    rows = (".....", "..#..", ".....", ".....", ".....", ".....")
    state = battle(unit("h1", (2, 0), teleport_left=2), unit("f1", (4, 5)), rows=rows)
    assert [c for c in costs(state) if c[0] == 2] == []          # nothing up the column
    rows = (".....", "..o..", ".....", ".....", ".....", ".....")
    state = battle(unit("h1", (2, 0), teleport_left=2), unit("f1", (4, 5)), rows=rows)
    assert [c for c in costs(state) if c[0] == 2] == [(2, 1)]    # the step into the obscuring cell only


def test_a_jump_may_skip_an_enemy_but_not_land_on_one_or_on_a_barrier():
    rows = (".....", ".....", ".....", "..#..", ".....", ".....")
    state = battle(unit("h1", (2, 0), teleport_left=3), unit("f1", (2, 1)), unit("f2", (4, 5)), rows=rows)
    # over f1 to (2,2); (2,3) is a barrier it can neither land on nor skip
    assert [(c, v) for c, v in costs(state).items() if c[0] == 2] == [((2, 2), (1, 1))]
    state = battle(unit("h1", (2, 0), teleport_left=2), unit("f1", (2, 2)))
    assert (2, 2) not in costs(state) and costs(state)[(2, 3)] == (1, 2)


def test_a_jump_needs_a_movement_point():
    state = battle(unit("h1", (2, 0), teleport_left=2, mp=0), unit("f1", (4, 5)))
    assert costs(state) == {}


def test_blink_gives_teleport_points():
    state = battle(unit("h1", (2, 0), actions=("blink",)), unit("f1", (4, 5)))
    then, state = play(state, "h1", Act(unit="h1", action="blink"))
    assert then[1:] == [Gained(unit="h1", resource="teleport", amount=2)] and state.units["h1"].teleport_left == 2
    assert costs(state)[(2, 3)] == (1, 2)


def test_a_stance_is_no_movement():
    state = battle(unit("h1", (2, 0), actions=("raise_shield",)), unit("f1", (4, 5)))
    then, state = play(state, "h1", Act(unit="h1", action="raise_shield"))
    assert then[1:] == [StanceTaken(unit="h1", stance="shield_wall", amount=1)] and state.units["h1"].mp == 4
