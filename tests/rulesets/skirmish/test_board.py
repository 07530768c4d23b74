"""Seed 001, Combat and Classes on the board: reach (exactly 1 for melee, exactly 2 for ranged),
distance (columns plus rows apart), walking (3 tiles ranged, 5 melee, once per turn) around the
other characters and the rocks.

Boards from content/boards.toml: `meadow` is 7x8 and open; `ruins` is 7x8 with rocks at
(1,2) (5,2) (3,3) (3,4) (1,5) (5,5). Numbers from classes.toml: Fighter 10 power / 90 armor,
Hunter 12/80, Caster 18/50, Ranger 16/60.
"""
from __future__ import annotations

import pytest

from domain.rulesets.skirmish.board import distance
from domain.rulesets.skirmish.combat import walk_targets
from domain.rulesets.skirmish.commands import Attack, EndTurn, Move
from domain.rulesets.skirmish.events import Attacked, Struck, UnitMoved

from .given import decide_after, legal, of_type, play, refused, skirmish, unit


def attacks(state, seat="p1"):
    return [(c["character"], c["target"]) for c in legal(state, seat) if c["type"] == "attack"]


def moves(state, character, seat="p1"):
    return sorted(tuple(c["to"]) for c in legal(state, seat) if c["type"] == "move" and c["character"] == character)


# -- Distance ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("a", "b", "apart"), [
    ((3, 3), (3, 4), 1),        # 0 columns + 1 row
    ((3, 3), (4, 3), 1),        # 1 column + 0 rows
    ((3, 3), (4, 4), 2),        # diagonal: 1 column + 1 row = 2, not 1
    ((3, 3), (5, 5), 4),        # 2 + 2
    ((0, 0), (6, 7), 13),       # 6 + 7: corner to corner
    ((2, 6), (5, 1), 8),        # 3 + 5
])
def test_distance_is_columns_plus_rows_apart(a, b, apart):
    state = skirmish(unit("p1.ember", a), unit("p2.wisp", b))
    assert distance(state, state.units["p1.ember"], state.units["p2.wisp"]) == apart
    assert distance(state, state.units["p2.wisp"], state.units["p1.ember"]) == apart


# -- Reach: melee exactly 1 -------------------------------------------------------------------

def test_a_melee_unit_attacks_an_adjacent_opponent():
    given = skirmish(unit("p1.brand", (3, 3)), unit("p2.wisp", (3, 4)))
    then, state = play(given, "p1", Attack(character="brand", target="p2.wisp"))
    # distance 0 + 1 = 1 = melee reach; a ranged Wisp cannot counter at 1
    assert then == [Attacked(seat="p1", character="brand", target="p2.wisp"),
                    Struck(unit="p1.brand", target="p2.wisp", power=10, damage=10)]
    assert state.units["p2.wisp"].damage == 10


@pytest.mark.parametrize(("cell", "apart"), [((3, 5), 2), ((4, 4), 2), ((3, 6), 3)])
def test_a_melee_unit_cannot_attack_beyond_one_tile(cell, apart):
    given = skirmish(unit("p1.brand", (3, 3)), unit("p2.wisp", cell))
    refused(given, "p1", Attack(character="brand", target="p2.wisp"),
            f"brand reaches exactly 1 tiles; wisp is {apart} away")
    assert attacks(given) == []


# -- Reach: ranged exactly 2 ------------------------------------------------------------------

@pytest.mark.parametrize("cell", [(3, 5), (4, 4), (1, 3), (3, 1)])
def test_a_ranged_unit_attacks_an_opponent_exactly_two_tiles_away(cell):
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.brick", cell))
    then, state = play(given, "p1", Attack(character="ember", target="p2.brick"))
    # 2 tiles = ranged reach; Brick (melee, reach 1) cannot counter at 2
    assert of_type(then, Struck) == [Struck(unit="p1.ember", target="p2.brick", power=18, damage=18)]


def test_a_ranged_unit_cannot_attack_an_adjacent_opponent():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.brick", (3, 4)))
    refused(given, "p1", Attack(character="ember", target="p2.brick"), "ember reaches exactly 2 tiles; brick is 1 away")


def test_a_ranged_unit_cannot_attack_three_tiles_away():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.brick", (3, 6)))
    refused(given, "p1", Attack(character="ember", target="p2.brick"), "ember reaches exactly 2 tiles; brick is 3 away")


def test_the_legal_attacks_are_the_opponents_exactly_at_reach():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p1.brand", (0, 7)),
                     unit("p2.brick", (3, 4)),     # 1 away: too close for Ember
                     unit("p2.wisp", (4, 4)),      # 1 + 1 = 2: in reach
                     unit("p2.thorn", (3, 6)),     # 3 away
                     unit("p2.sable", (1, 3)))     # 2 + 0 = 2: in reach
    assert attacks(given) == [("ember", "p2.wisp"), ("ember", "p2.sable")]


def test_rocks_do_not_block_an_attack():
    # ruins: a rock at (3,3) between (2,3) and (4,3); there is no line of sight
    given = skirmish(unit("p1.ember", (2, 3)), unit("p2.brick", (4, 3)), board="ruins")
    then, _ = play(given, "p1", Attack(character="ember", target="p2.brick"))
    assert of_type(then, Struck) == [Struck(unit="p1.ember", target="p2.brick", power=18, damage=18)]


def test_an_ally_is_not_a_target():
    given = skirmish(unit("p1.brand", (3, 3)), unit("p1.thorn", (3, 4)), unit("p2.wisp", (0, 7)))
    refused(given, "p1", Attack(character="brand", target="p1.thorn"), "'p1.thorn' is not an opponent on the board")


# -- Walking: 3 tiles ranged, 5 melee ---------------------------------------------------------

def test_a_ranged_unit_walks_three_tiles():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.wisp", (0, 7)))
    then, state = play(given, "p1", Move(character="ember", to=(3, 6)))
    assert then == [UnitMoved(seat="p1", character="ember", to=[3, 6], path=[[3, 4], [3, 5], [3, 6]])]
    assert state.units["p1.ember"].cell == (3, 6)
    assert state.units["p1.ember"].moved is True


@pytest.mark.parametrize("to", [(3, 7), (5, 5), (0, 2)])
def test_a_ranged_unit_cannot_walk_four_tiles(to):
    # (3,7): 0 + 4; (5,5): 2 + 2 = 4 (a diagonal counts both ways); (0,2): 3 + 1 = 4
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.wisp", (0, 7)))
    refused(given, "p1", Move(character="ember", to=to), rf"ember cannot walk to \[{to[0]}, {to[1]}\] within 3 tiles")


def test_a_ranged_unit_may_walk_to_the_24_tiles_within_three():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.wisp", (0, 7)))     # Wisp is 3 + 4 = 7 away
    # tiles at 1, 2, 3 steps: 4 + 8 + 12 = 24, all on the 7x8 board around (3,3)
    expected = sorted((c, r) for c in range(7) for r in range(8) if 1 <= abs(c - 3) + abs(r - 3) <= 3)
    assert len(expected) == 24
    assert moves(given, "ember") == expected
    in_reading_order = sorted(expected, key=lambda cell: (cell[1], cell[0]))
    assert walk_targets(given, given.units["p1.ember"]) == [[c, r] for c, r in in_reading_order]


def test_a_melee_unit_walks_five_tiles():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (0, 7)))
    then, state = play(given, "p1", Move(character="brand", to=(3, 6)))
    assert then == [UnitMoved(seat="p1", character="brand", to=[3, 6],
                              path=[[3, 2], [3, 3], [3, 4], [3, 5], [3, 6]])]
    assert state.units["p1.brand"].cell == (3, 6)


@pytest.mark.parametrize("to", [(3, 7), (6, 4)])
def test_a_melee_unit_cannot_walk_six_tiles(to):
    # (3,7): 0 + 6; (6,4): 3 + 3 = 6
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (0, 7)))
    refused(given, "p1", Move(character="brand", to=to), rf"brand cannot walk to \[{to[0]}, {to[1]}\] within 5 tiles")


def test_a_melee_unit_may_walk_to_every_open_tile_within_five():
    given = skirmish(unit("p1.brand", (3, 3)), unit("p2.wisp", (6, 7)))    # Wisp: 3 + 4 = 7 away
    expected = sorted((c, r) for c in range(7) for r in range(8) if 1 <= abs(c - 3) + abs(r - 3) <= 5)
    assert moves(given, "brand") == expected


# -- Walking around the other characters ------------------------------------------------------

def test_a_walk_passes_through_an_ally():
    given = skirmish(unit("p1.ember", (0, 0)), unit("p1.brand", (0, 1)), unit("p2.wisp", (6, 7)))
    then, state = play(given, "p1", Move(character="ember", to=(0, 2)))
    # straight through Brand's tile: 2 steps
    assert then == [UnitMoved(seat="p1", character="ember", to=[0, 2], path=[[0, 1], [0, 2]])]
    assert (state.units["p1.ember"].cell, state.units["p1.brand"].cell) == ((0, 2), (0, 1))


def test_a_walk_does_not_pass_through_an_opponent():
    given = skirmish(unit("p1.ember", (0, 0)), unit("p2.brand", (0, 1)))
    # around Brand at (0,1): right, down, down, left = 4 steps > 3
    refused(given, "p1", Move(character="ember", to=(0, 2)), r"ember cannot walk to \[0, 2\] within 3 tiles")
    assert (0, 2) not in moves(given, "ember")


def test_a_melee_unit_walks_around_an_opponent():
    given = skirmish(unit("p1.thorn", (0, 0)), unit("p2.brand", (0, 1)))
    then, _ = play(given, "p1", Move(character="thorn", to=(0, 2)))
    # 4 steps around Brand, within 5
    assert then == [UnitMoved(seat="p1", character="thorn", to=[0, 2], path=[[1, 0], [1, 1], [1, 2], [0, 2]])]


@pytest.mark.parametrize("to", [(0, 1), (1, 0)])
def test_a_walk_never_ends_on_an_occupied_tile(to):
    given = skirmish(unit("p1.ember", (0, 0)), unit("p1.brand", (0, 1)), unit("p2.wisp", (1, 0)))
    refused(given, "p1", Move(character="ember", to=to), "cannot walk to")
    assert to not in moves(given, "ember")


def test_a_walk_to_its_own_tile_is_refused():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.wisp", (0, 7)))
    refused(given, "p1", Move(character="ember", to=(3, 3)), "cannot walk to")


def test_a_walk_off_the_board_is_refused():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.wisp", (0, 7)))
    refused(given, "p1", Move(character="ember", to=(3, 8)), r"to\[1\]: row must be on the board")


# -- Rocks ------------------------------------------------------------------------------------

def test_a_rock_cannot_be_entered():
    given = skirmish(unit("p1.brand", (3, 2)), unit("p2.wisp", (0, 7)), board="ruins")
    refused(given, "p1", Move(character="brand", to=(3, 3)), r"cannot walk to \[3, 3\]")
    assert (3, 3) not in moves(given, "brand")


def test_a_walk_goes_around_the_rocks():
    # ruins: rocks at (3,3) and (3,4); from (3,2) to (3,5) is 3 apart but 5 steps around
    given = skirmish(unit("p1.brand", (3, 2)), unit("p2.wisp", (0, 7)), board="ruins")
    then, _ = play(given, "p1", Move(character="brand", to=(3, 5)))
    assert then == [UnitMoved(seat="p1", character="brand", to=[3, 5],
                              path=[[2, 2], [2, 3], [2, 4], [2, 5], [3, 5]])]


def test_a_ranged_unit_cannot_walk_the_long_way_around_the_rocks():
    given = skirmish(unit("p1.ember", (3, 2)), unit("p2.wisp", (0, 7)), board="ruins")
    # 3 tiles apart, but the rocks make it 5 steps > 3
    refused(given, "p1", Move(character="ember", to=(3, 5)), r"ember cannot walk to \[3, 5\] within 3 tiles")


# -- Walking once per turn --------------------------------------------------------------------

def test_a_unit_walks_once_per_turn():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (0, 7)))
    _, state = play(given, "p1", Move(character="brand", to=(3, 2)))
    refused(state, "p1", Move(character="brand", to=(3, 3)), "brand cannot move again this turn")
    assert moves(state, "brand") == []


def test_walking_and_attacking_are_separate_actions():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 4)), unit("p2.wisp", (0, 7)))
    _, state = play(given, "p1", Move(character="brand", to=(3, 3)))
    then, state = play(state, "p1", Attack(character="brand", target="p2.brick"))
    # Brick counters, adjacent: 10 each way
    assert of_type(then, Struck) == [Struck(unit="p1.brand", target="p2.brick", power=10, damage=10),
                                     Struck(unit="p2.brick", target="p1.brand", power=10, damage=10, counter=True)]


def test_each_unit_has_its_own_walk():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p1.ember", (4, 1)), unit("p2.wisp", (0, 7)))
    _, state = play(given, "p1", Move(character="brand", to=(3, 2)))
    then, state = play(state, "p1", Move(character="ember", to=(4, 2)))
    assert then == [UnitMoved(seat="p1", character="ember", to=[4, 2], path=[[4, 2]])]


def test_the_walk_comes_back_on_the_next_turn():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (0, 7)))
    _, state = play(given, "p1", Move(character="brand", to=(3, 2)))
    _, state = play(state, "p1", EndTurn())
    _, state = play(state, "p2", EndTurn())
    assert (state.active, state.units["p1.brand"].moved) == ("p1", False)
    then, _ = play(state, "p1", Move(character="brand", to=(3, 3)))
    assert then == [UnitMoved(seat="p1", character="brand", to=[3, 3], path=[[3, 3]])]


def test_an_opponents_unit_cannot_be_moved():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (0, 7)))
    refused(given, "p1", Move(character="wisp", to=(0, 6)), "'wisp' is not one of your fielded characters")
