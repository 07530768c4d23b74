"""Seed 002, Patterns: an attack originates on or next to the combatant's movement path and
reaches targets within the action's range of that origin. Single: one target; Scatter: up to 3
different targets; Flurry: up to 3 attacks, repeats allowed; Line: every enemy in a row; Wave:
every enemy in 3 columns; Burst: every enemy in a 3x3 square; Path: every enemy a straight
charge passes through, to an empty cell. Targets are listed (and attacked) in roster order."""
from __future__ import annotations

from domain.rulesets.battleboard.commands import Act, Move
from domain.rulesets.battleboard.events import ActionTaken, Charged, DiceRolled, TokenTapped
from domain.rulesets.battleboard.patterns import aims

from domain.rulesets.battleboard.state import RULES_1_0_0

from .given import ACTIONS, battle, of_type, play, refused, unit

# Two dice that hit nothing: at most the +K, a tap, which a target holding only untapped tokens
# takes without a choice to make.
MISS = [1, 1]


def test_the_content_numbers_these_tests_quote():
    numbers = {k: (ACTIONS[k].pattern, ACTIONS[k].range, ACTIONS[k].dice, ACTIONS[k].energy)
               for k in ("strike", "firebolt", "scatter_shot", "flurry_of_blows", "searing_line", "tidal_wave",
                         "earthshaker", "charge")}
    assert numbers == {"strike": ("single", 0, "2d*2+1", 0), "firebolt": ("single", 2, "2d*3", 0),
                       "scatter_shot": ("scatter", 2, "2d*2+1", 1), "flurry_of_blows": ("flurry", 0, "1d*3", 0),
                       "searing_line": ("line", 1, "2d*2+1", 1), "tidal_wave": ("wave", 1, "2d*2+1", 2),
                       "earthshaker": ("burst", 0, "2d*2+1", 2), "charge": ("path", 0, "2d*3", 1)}


def targets_of(then):
    return [r.target for r in of_type(then, DiceRolled)]


# -- Single, scatter and flurry: h1 at (2,2); f1 next to it, f2 diagonal, f3 two rows down,
#    f4 far in a corner --------------------------------------------------------------------

ACTIONS_ALL = ("strike", "firebolt", "scatter_shot", "flurry_of_blows")


def skirmish(**h1):
    return battle(unit("h1", (2, 2), energy=2, actions=ACTIONS_ALL, **h1), unit("f1", (2, 3)), unit("f2", (3, 3)),
                  unit("f3", (2, 5)), unit("f4", (0, 5)))


def test_melee_reaches_an_enemy_next_to_the_path():
    state = skirmish()
    assert aims(state, state.units["h1"], ACTIONS["strike"]) == [{"targets": ("f1",)}]
    then, _ = play(state, "h1", Act(unit="h1", action="strike", targets=("f1",)), MISS)
    # range 0: the origin is f1's own cell, next to h1's path
    assert of_type(then, DiceRolled)[0].origin == (2, 3)


def test_melee_does_not_reach_a_diagonal_enemy():
    # f2 at (3,3) is two steps from (2,2): not next to the path
    refused(skirmish(), "h1", Act(unit="h1", action="strike", targets=("f2",)),
            "f2 is not an enemy within 0 of h1's movement path")


def test_every_cell_of_the_movement_path_is_an_origin():
    state = skirmish()
    _, state = play(state, "h1", Move(unit="h1", to=(3, 2)))
    _, state = play(state, "h1", Move(unit="h1", to=(4, 2)))
    # h1 left (3,2), next to f2, but it is on the path: f2 is in reach
    assert state.units["h1"].path == ((2, 2), (3, 2), (4, 2))
    then, _ = play(state, "h1", Act(unit="h1", action="strike", targets=("f2",)), MISS)
    assert targets_of(then) == ["f2"]


def test_range_counts_from_an_origin_next_to_the_path():
    state = skirmish()
    # firebolt range 2: f3 at (2,5) is 2 from (2,3), next to h1; f4 at (0,5) is 4 from any origin
    assert aims(state, state.units["h1"], ACTIONS["firebolt"]) == [{"targets": ("f1",)}, {"targets": ("f2",)},
                                                                   {"targets": ("f3",)}]
    refused(state, "h1", Act(unit="h1", action="firebolt", targets=("f4",)), "f4 is not an enemy within 2")


def test_a_single_target_action_takes_one_target():
    refused(skirmish(), "h1", Act(unit="h1", action="firebolt", targets=("f1", "f2")), "takes one target")
    refused(skirmish(), "h1", Act(unit="h1", action="firebolt"), "Firebolt needs targets")
    refused(skirmish(), "h1", Act(unit="h1", action="firebolt", row=3), "is aimed with targets, not row")


def test_scatter_attacks_up_to_three_different_targets():
    then, state = play(skirmish(), "h1", Act(unit="h1", action="scatter_shot", targets=("f1", "f2", "f3")), MISS * 3)
    assert targets_of(then) == ["f1", "f2", "f3"]
    assert state.units["h1"].energy == 1


def test_scatter_lists_every_set_of_different_targets():
    state = skirmish()
    assert aims(state, state.units["h1"], ACTIONS["scatter_shot"]) == [
        {"targets": t} for t in [("f1",), ("f2",), ("f3",), ("f1", "f2"), ("f1", "f3"), ("f2", "f3"), ("f1", "f2", "f3")]]


def test_scatter_refuses_a_repeated_target():
    refused(skirmish(), "h1", Act(unit="h1", action="scatter_shot", targets=("f1", "f1")), "attacks separate targets")


def test_scatter_refuses_more_than_three_and_targets_out_of_reach():
    state = battle(unit("h1", (2, 2), energy=1, actions=("scatter_shot",)), unit("f1", (2, 3)), unit("f2", (3, 3)),
                   unit("f3", (2, 4)), unit("f4", (1, 3)))
    refused(state, "h1", Act(unit="h1", action="scatter_shot", targets=("f1", "f2", "f3", "f4")), "1 to 3 targets")
    refused(skirmish(), "h1", Act(unit="h1", action="scatter_shot", targets=("f1", "f4")), "f4 is not an enemy within 2")


def test_targets_are_named_in_roster_order():
    refused(skirmish(), "h1", Act(unit="h1", action="scatter_shot", targets=("f2", "f1")), "roster order")


def test_flurry_may_attack_the_same_target_three_times():
    then, _ = play(skirmish(), "h1", Act(unit="h1", action="flurry_of_blows", targets=("f1", "f1", "f1")), [1, 1, 1])
    # flurry_of_blows 1d*3: one die per attack
    assert [(r.target, r.dice) for r in of_type(then, DiceRolled)] == [("f1", [1]), ("f1", [1]), ("f1", [1])]


def test_flurry_lists_repeats_and_refuses_targets_out_of_reach():
    state = skirmish()
    # in melee only f1 is in reach
    assert aims(state, state.units["h1"], ACTIONS["flurry_of_blows"]) == [
        {"targets": ("f1",)}, {"targets": ("f1", "f1")}, {"targets": ("f1", "f1", "f1")}]
    refused(state, "h1", Act(unit="h1", action="flurry_of_blows", targets=("f1", "f2")), "f2 is not an enemy within 0")
    refused(state, "h1", Act(unit="h1", action="flurry_of_blows", targets=("f1",) * 4), "1 to 3 targets")


def test_a_flurry_spreads_over_several_targets():
    state = battle(unit("h1", (2, 2), actions=("flurry_of_blows",)), unit("f1", (2, 3)), unit("f2", (1, 2)))
    then, _ = play(state, "h1", Act(unit="h1", action="flurry_of_blows", targets=("f1", "f1", "f2")), [1, 1, 1])
    assert targets_of(then) == ["f1", "f1", "f2"]


# -- Ally targets -----------------------------------------------------------------------------

def test_an_ally_action_reaches_yourself_or_an_ally_within_range():
    state = battle(unit("h1", (2, 2), focus=1, actions=("trust_the_wind",)), unit("h2", (3, 2)), unit("h3", (0, 0)),
                   unit("f1", (2, 5)))
    # trust_the_wind: ally, range 1: h2 (1 from (3,2), its own cell) and h1 itself; h3 is 3 away
    assert ACTIONS["trust_the_wind"].range == 1
    assert aims(state, state.units["h1"], ACTIONS["trust_the_wind"]) == [{"targets": ("h1",)}, {"targets": ("h2",)}]
    refused(state, "h1", Act(unit="h1", action="trust_the_wind", targets=("h3",)), "h3 is not an ally within 1")
    refused(state, "h1", Act(unit="h1", action="trust_the_wind", targets=("f1",)), "f1 is not an ally")


def test_a_self_action_is_aimed_with_nothing():
    state = battle(unit("h1", (2, 2), actions=("recover",)), unit("f1", (2, 5)))
    assert aims(state, state.units["h1"], ACTIONS["recover"]) == [{}]
    refused(state, "h1", Act(unit="h1", action="recover", targets=("h1",)), "is aimed with nothing, not targets")


# -- Line, wave and burst: h1 at (2,1); f1 (0,3), f2 (4,3), f3 (2,4); h2 (1,3) is an ally -------

def spread(*actions, h1_cell=(2, 1)):
    return battle(unit("h1", h1_cell, energy=2, actions=actions), unit("h2", (1, 3)), unit("f1", (0, 3)),
                  unit("f2", (4, 3)), unit("f3", (2, 4)))


def test_a_line_hits_every_enemy_in_the_row():
    then, _ = play(spread("searing_line"), "h1", Act(unit="h1", action="searing_line", row=3), MISS * 2)
    # row 3 is 1 from (2,2), next to h1: f1 and f2 (h2 is an ally; f3 is in row 4)
    assert targets_of(then) == ["f1", "f2"]
    assert of_type(then, DiceRolled)[0].origin == (2, 2)


def test_a_line_out_of_reach_or_without_enemies_is_refused():
    state = spread("searing_line")
    assert aims(state, state.units["h1"], ACTIONS["searing_line"]) == [{"row": 3}]
    refused(state, "h1", Act(unit="h1", action="searing_line", row=4), "no enemy in that line within reach")
    refused(state, "h1", Act(unit="h1", action="searing_line", row=2), "no enemy in that line within reach")
    refused(state, "h1", Act(unit="h1", action="searing_line", row=6), "row: 0..5")
    refused(state, "h1", Act(unit="h1", action="searing_line", targets=("f1",)), "is aimed with row, not targets")


def test_an_area_attack_comes_from_the_origin_that_loses_the_fewest_dice():
    # given h1 stands on obscuring terrain at (2,1); f1 in row 2
    rows = (".....", "..o..", ".....", ".....", ".....", ".....")
    state = battle(unit("h1", (2, 1), energy=2, actions=("searing_line",)), unit("f1", (0, 2)), rows=rows)
    # when h1 sears row 2 (range 1): its own cell reaches the row, and so does (3,1) next to it
    then, _ = play(state, "h1", Act(unit="h1", action="searing_line", row=2), MISS)
    # then seed 002, Obscuring Terrain: "Attacks targeting or originating from obscuring terrain
    # roll one fewer hit die", and Patterns: "The origin of the attack must be adjacent to or on
    # the combatant's Movement Path": from plain (3,1) it rolls all 2 dice, not 2 - 1
    rolled = of_type(then, DiceRolled)[0]
    assert (rolled.origin, rolled.dice) == ((3, 1), [1, 1])


def test_under_1_0_0_an_area_attack_came_from_the_first_origin():
    rows = (".....", "..o..", ".....", ".....", ".....", ".....")
    state = battle(unit("h1", (2, 1), energy=2, actions=("searing_line",)), unit("f1", (0, 2)), rows=rows,
                   rules=RULES_1_0_0)
    then, _ = play(state, "h1", Act(unit="h1", action="searing_line", row=2), [1])
    # h1's own obscuring cell: 2 dice - 1 = 1
    assert (of_type(then, DiceRolled)[0].origin, of_type(then, DiceRolled)[0].dice) == ((2, 1), [1])


def test_a_wave_hits_every_enemy_in_three_columns():
    state = spread("tidal_wave")
    assert targets_of(play(state, "h1", Act(unit="h1", action="tidal_wave", col=0), MISS)[0]) == ["f1"]
    assert targets_of(play(state, "h1", Act(unit="h1", action="tidal_wave", col=1), MISS * 2)[0]) == ["f1", "f3"]
    assert targets_of(play(state, "h1", Act(unit="h1", action="tidal_wave", col=2), MISS)[0]) == ["f3"]
    assert targets_of(play(state, "h1", Act(unit="h1", action="tidal_wave", col=3), MISS * 2)[0]) == ["f2", "f3"]
    assert targets_of(play(state, "h1", Act(unit="h1", action="tidal_wave", col=4), MISS)[0]) == ["f2"]


def test_a_wave_out_of_reach_is_refused():
    state = spread("tidal_wave", h1_cell=(0, 0))
    # origins (0,0), (1,0), (0,1): columns 3 and 4 are at least 2 away from them
    refused(state, "h1", Act(unit="h1", action="tidal_wave", col=4), "no enemy in that wave within reach")
    refused(state, "h1", Act(unit="h1", action="tidal_wave", col=5), "col: 0..4")


def test_a_burst_hits_every_enemy_in_the_square():
    state = battle(unit("h1", (2, 1), energy=2, actions=("earthshaker",)), unit("h2", (2, 3)), unit("f1", (1, 3)),
                   unit("f2", (3, 3)), unit("f3", (2, 4)), unit("f4", (0, 1)))
    # earthshaker range 0, centred on (2,2) next to h1: columns 1-3, rows 1-3 (h2 is an ally, f3 and f4 outside)
    assert targets_of(play(state, "h1", Act(unit="h1", action="earthshaker", at=(2, 2)), MISS * 2)[0]) == ["f1", "f2"]
    # centred on h1's own cell: columns 1-3, rows 0-2, no enemy; centred on (1,1): f4 at (0,1)
    refused(state, "h1", Act(unit="h1", action="earthshaker", at=(2, 1)), "no enemy in that burst")
    assert targets_of(play(state, "h1", Act(unit="h1", action="earthshaker", at=(1, 1)), MISS)[0]) == ["f4"]


def test_a_burst_out_of_reach_or_off_the_board_is_refused():
    state = spread("earthshaker")
    # centred on (2,4) the square spans rows 3 to 5, none of it on or next to h1's path
    refused(state, "h1", Act(unit="h1", action="earthshaker", at=(2, 4)), "no enemy in that burst within reach")
    refused(state, "h1", Act(unit="h1", action="earthshaker", at=(5, 0)), r"at: a cell \[col, row\] on the board")
    refused(state, "h1", Act(unit="h1", action="earthshaker", col=2), "is aimed with at, not col")


def test_an_area_attack_costs_its_energy():
    state = battle(unit("h1", (2, 1), energy=2, actions=("earthshaker",)), unit("f1", (2, 3)))
    then, state = play(state, "h1", Act(unit="h1", action="earthshaker", at=(2, 2)), MISS)
    assert then[0] == ActionTaken(seat="h1", unit="h1", action="earthshaker", at=(2, 2), kind="attack", energy=2)
    assert state.units["h1"].energy == 0
    refused(battle(unit("h1", (2, 1), energy=1, actions=("earthshaker",)), unit("f1", (2, 3))), "h1",
            Act(unit="h1", action="earthshaker", at=(2, 2)), "Earthshaker costs 2 energy; h1 has 1")


# -- Path: a straight charge through enemies to an empty cell ----------------------------------

def test_a_charge_attacks_the_enemy_it_passes_and_ends_beyond_it():
    state = battle(unit("h1", (2, 1), energy=1, actions=("charge",)), unit("f1", (2, 2)), unit("f2", (4, 5)))
    assert aims(state, state.units["h1"], ACTIONS["charge"]) == [{"at": (2, 3)}]
    then, state = play(state, "h1", Act(unit="h1", action="charge", at=(2, 3)), MISS)
    # into f1's cell: 1 + its zone 1 = 2; on to (2,3), still in its zone: 2; 4 of h1's 4 points
    assert then[1] == Charged(unit="h1", cells=[[2, 2], [2, 3]], cost=4)
    assert of_type(then, DiceRolled)[0].origin == (2, 3)
    h1 = state.units["h1"]
    assert (h1.cell, h1.mp, h1.path) == ((2, 3), 0, ((2, 1), (2, 2), (2, 3)))


def test_a_charge_it_cannot_afford_or_that_passes_no_enemy_is_refused():
    state = battle(unit("h1", (2, 1), energy=1, actions=("charge",)), unit("f1", (2, 2)), unit("f2", (4, 5)))
    refused(state, "h1", Act(unit="h1", action="charge", at=(2, 4)), "is not one")      # 4 + 1 = 5 > 4 points
    refused(state, "h1", Act(unit="h1", action="charge", at=(0, 1)), "is not one")      # no enemy to the left
    refused(state, "h1", Act(unit="h1", action="charge", at=(3, 2)), "is not one")      # not straight


def test_a_charge_passes_several_enemies_and_allies():
    state = battle(unit("h1", (2, 0), energy=1, movement=("bull_rush",), actions=("charge",)), unit("h2", (2, 3)),
                   unit("f1", (2, 1)), unit("f2", (2, 2)))
    # with Bull Rush each step costs 1; (2,3) holds h2, so the charge may end at (2,4) only
    assert aims(state, state.units["h1"], ACTIONS["charge"]) == [{"at": (2, 4)}]
    refused(state, "h1", Act(unit="h1", action="charge", at=(2, 3)), "is not one")
    then, state = play(state, "h1", Act(unit="h1", action="charge", at=(2, 4)), MISS * 2)
    assert then[1] == Charged(unit="h1", cells=[[2, 1], [2, 2], [2, 3], [2, 4]], cost=4)
    assert targets_of(then) == ["f1", "f2"]


def test_a_charge_through_hazardous_terrain_pays_a_token_for_it():
    rows = (".....", ".....", ".....", "..h..", ".....", ".....")
    state = battle(unit("h1", (2, 0), energy=1, movement=("bull_rush",), actions=("charge",)), unit("f1", (2, 1)),
                   rows=rows)
    then, state = play(state, "h1", Act(unit="h1", action="charge", at=(2, 3)), MISS)
    assert then[1:3] == [Charged(unit="h1", cells=[[2, 1], [2, 2], [2, 3]], cost=3),
                         TokenTapped(unit="h1", reason="hazardous")]
