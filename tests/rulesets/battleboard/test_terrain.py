"""Seed 002, Movement > Terrain: a plain cell costs 1 movement point; difficult and liquid terrain
1 more; elevated terrain 2 more entered from lower ground (Climbing: 1, Flight: none); challenging
terrain only with Flight or a lift; barriers never; hazardous terrain costs a defense token.
Obscuring and liquid terrain take a hit die off attacks from or at them. A higher cell is next
to a lower one, not the other way round, when finding where an action can come from and how far
it reaches."""
from __future__ import annotations

import pytest

from domain.rulesets.battleboard.board import origins, steps
from domain.rulesets.battleboard.commands import Act, Move
from domain.rulesets.battleboard.events import DiceRolled, Gained, Granted, Moved, TokenDiscarded, TokenTapped
from domain.rulesets.battleboard.state import FOES, RULES_1_0_0

from .given import ACTIONS, battle, of_type, play, refused, unit

FAR = unit("f1", (4, 5))        # an enemy far from everything, so the foes are on the board


def step(rows, to, frm=(2, 0), **h1):
    """h1 steps from `frm` to `to`: (events, state)."""
    return play(battle(unit("h1", frm, **h1), FAR, rows=rows), "h1", Move(unit="h1", to=to))


def cost(rows, to, frm=(2, 0), **h1):
    """What h1's step from `frm` to `to` costs, or None where it may not step."""
    state = battle(unit("h1", frm, **h1), FAR, rows=rows)
    return {cell: price for cell, price, _ in steps(state, state.units["h1"])}.get(to)


def cell_rows(mark: str) -> tuple[str, ...]:
    """The terrain `mark` at (2,1), just above h1's (2,0); plain elsewhere."""
    return (".....", f"..{mark}..", ".....", ".....", ".....", ".....")


def test_a_plain_cell_costs_one():
    then, state = step(cell_rows("."), (2, 1))
    assert then == [Moved(seat="h1", unit="h1", to=(2, 1), cost=1)]
    assert (state.units["h1"].cell, state.units["h1"].mp, state.units["h1"].path) == ((2, 1), 3, ((2, 0), (2, 1)))


def test_difficult_terrain_costs_one_more():
    then, state = step(cell_rows("d"), (2, 1))
    assert then == [Moved(seat="h1", unit="h1", to=(2, 1), cost=2)] and state.units["h1"].mp == 2


def test_liquid_terrain_costs_one_more_unless_swimming_or_flying():
    assert cost(cell_rows("~"), (2, 1)) == 2
    assert cost(cell_rows("~"), (2, 1), movement=("swimming",)) == 1
    assert cost(cell_rows("~"), (2, 1), movement=("flight",)) == 1
    assert cost(cell_rows("~"), (2, 1), granted=("swimming",)) == 1


def test_flight_ignores_difficult_terrain():
    assert cost(cell_rows("d"), (2, 1), movement=("flight",)) == 1


def test_a_barrier_is_never_entered():
    assert cost(cell_rows("#"), (2, 1)) is None
    assert cost(cell_rows("#"), (2, 1), movement=("flight",), lifted=True) is None
    refused(battle(unit("h1", (2, 0)), FAR, rows=cell_rows("#")), "h1", Move(unit="h1", to=(2, 1)),
            r"h1 cannot move to \[2, 1\] now")


def test_challenging_terrain_needs_flight_or_a_lift():
    assert cost(cell_rows("c"), (2, 1)) is None
    assert cost(cell_rows("c"), (2, 1), lifted=True) == 1
    assert cost(cell_rows("c"), (2, 1), movement=("flight",)) == 1


def test_levitate_lifts_its_user_onto_challenging_terrain():
    given = battle(unit("h1", (2, 0), actions=("levitate",)), FAR, rows=cell_rows("c"))
    refused(given, "h1", Move(unit="h1", to=(2, 1)), "cannot move to")
    then, state = play(given, "h1", Act(unit="h1", action="levitate"))
    # levitate: +1 movement point and the lift
    assert then[1:] == [Gained(unit="h1", resource="movement", amount=1), Granted(unit="h1", movement="lift")]
    then, state = play(state, "h1", Move(unit="h1", to=(2, 1)))
    assert then == [Moved(seat="h1", unit="h1", to=(2, 1), cost=1)] and state.units["h1"].mp == 4


def test_hazardous_terrain_taps_a_token_when_entered():
    then, state = step(cell_rows("h"), (2, 1))
    assert then == [Moved(seat="h1", unit="h1", to=(2, 1), cost=1), TokenTapped(unit="h1", reason="hazardous")]
    assert (state.units["h1"].untapped, state.units["h1"].tapped) == (2, 1)


def test_hazardous_terrain_discards_a_tapped_token_when_none_is_untapped():
    then, state = step(cell_rows("h"), (2, 1), untapped=0, tapped=2)
    assert then[1] == TokenDiscarded(unit="h1", tapped=True, reason="hazardous")
    assert state.units["h1"].tapped == 1


def test_hazardous_terrain_is_closed_to_a_combatant_without_tokens():
    assert cost(cell_rows("h"), (2, 1), untapped=0, tapped=0) is None


def test_flight_does_not_spare_the_hazard():
    then, _ = step(cell_rows("h"), (2, 1), movement=("flight",))
    assert then[1] == TokenTapped(unit="h1", reason="hazardous")


def test_obscuring_terrain_costs_nothing_extra_to_enter():
    assert cost(cell_rows("o"), (2, 1)) == 1


def test_a_step_must_be_affordable_and_next_to_the_combatant():
    given = battle(unit("h1", (2, 0), mp=1), FAR, rows=cell_rows("d"))
    refused(given, "h1", Move(unit="h1", to=(2, 1)), r"\(1 movement points left\)")
    refused(given, "h1", Move(unit="h1", to=(2, 2)), "cannot move to")
    refused(given, "h1", Move(unit="h1", to=(3, 1)), "cannot move to")


# -- Elevated terrain -------------------------------------------------------------------------

HILL = (".....", "..1..", "..2..", "..2..", ".....", ".....")


def test_climbing_onto_higher_ground_costs_two_more():
    assert cost(HILL, (2, 1)) == 3                      # 0 -> 1
    assert cost(HILL, (2, 2), frm=(2, 1)) == 3          # 1 -> 2: still higher
    assert cost(HILL, (2, 3), frm=(2, 2)) == 1          # 2 -> 2: the same level
    assert cost(HILL, (2, 1), frm=(2, 2)) == 1          # 2 -> 1: down
    assert cost(HILL, (1, 1), frm=(2, 1)) == 1          # 1 -> 0


def test_climbing_treats_higher_ground_as_difficult():
    assert cost(HILL, (2, 1), movement=("climbing",)) == 2
    assert cost(HILL, (2, 1), granted=("climbing",)) == 2


def test_flight_ignores_elevation():
    assert cost(HILL, (2, 1), movement=("flight",)) == 1


def test_wall_run_gives_climbing_for_the_turn():
    given = battle(unit("h1", (2, 0), actions=("wall_run",)), FAR, rows=HILL)
    then, state = play(given, "h1", Act(unit="h1", action="wall_run"))
    assert then[1:] == [Gained(unit="h1", resource="movement", amount=1), Granted(unit="h1", movement="climbing")]
    then, state = play(state, "h1", Move(unit="h1", to=(2, 1)))
    # 1 + 1 for the climb; 4 + 1 - 2 = 3 left
    assert then == [Moved(seat="h1", unit="h1", to=(2, 1), cost=2)] and state.units["h1"].mp == 3


def test_a_higher_cell_is_not_next_to_a_lower_one():
    state = battle(unit("h1", (2, 0)), unit("f1", (2, 1)), rows=HILL)
    # f1 stands on level 1 above h1: h1 cannot strike up at it
    assert origins(state, state.units["h1"]) == [(2, 0), (3, 0), (1, 0)]
    refused(state, "h1", Act(unit="h1", action="strike", targets=("f1",)), "f1 is not an enemy within 0")


def test_a_lower_cell_is_next_to_a_higher_one():
    state = battle(unit("h1", (2, 0)), unit("f1", (2, 1)), rows=HILL, active=FOES)
    # f1 on level 1 reaches h1 below it; (2,2) on level 2 is above f1 and no origin of its
    assert origins(state, state.units["f1"]) == [(2, 1), (2, 0), (3, 1), (1, 1)]
    then, _ = play(state, "gm", Act(unit="f1", action="strike", targets=("h1",)), [1, 1])
    assert of_type(then, DiceRolled)[0].origin == (2, 0)


MOUND = (".....", ".....", "..1..", ".....", ".....", ".....")      # (2,2) is one level up


def test_range_does_not_climb_to_a_higher_cell():
    # given h1 on the ground at (2,0) with Firebolt (range 2), f1 on the mound at (2,2): (2,1),
    # next to h1, is 1 from f1 as the crow flies
    state = battle(unit("h1", (2, 0), actions=("firebolt",)), unit("f1", (2, 2)), rows=MOUND)
    # when h1 fires at f1, then seed 002, Elevated Terrain: "lower terrain does not count as being
    # adjacent to elevated terrain for the purpose of determining whether and effect can be used
    # from a space": no step of the reach climbs, so no cell of the ground reaches f1
    refused(state, "h1", Act(unit="h1", action="firebolt", targets=("f1",)), "f1 is not an enemy within 2")


def test_range_reaches_down_from_a_higher_cell():
    state = battle(unit("h1", (2, 5)), unit("f1", (2, 2), actions=("firebolt",)), rows=MOUND, active=FOES)
    # "Elevated Terrain counts as being adjacent to lower terrain": (2,3) below f1 is an origin,
    # 2 steps from h1 at (2,5)
    then, _ = play(state, "gm", Act(unit="f1", action="firebolt", targets=("h1",)), [1, 1])
    assert of_type(then, DiceRolled)[0].origin == (2, 3)


def test_under_1_0_0_range_counted_every_step_alike():
    state = battle(unit("h1", (2, 0), actions=("firebolt",)), unit("f1", (2, 2)), rows=MOUND, rules=RULES_1_0_0)
    then, _ = play(state, "h1", Act(unit="h1", action="firebolt", targets=("f1",)), [1, 1])
    # from h1's own cell, 2 from f1 on the mound as if the ground were flat: 2 <= 2
    assert of_type(then, DiceRolled)[0].origin == (2, 0)


# -- Obscuring and liquid terrain: one hit die fewer -------------------------------------------

def firebolt_dice(rows, dice, h1_cell=(2, 2), f1_cell=(2, 4), **h1):
    """h1 fires a firebolt (2d*3, range 2) at f1; the DiceRolled event."""
    given = battle(unit("h1", h1_cell, actions=("firebolt",), **h1), unit("f1", f1_cell, defense=12), rows=rows)
    return of_type(play(given, "h1", Act(unit="h1", action="firebolt", targets=("f1",)), dice)[0], DiceRolled)[0]


def test_firebolt_rolls_two_dice():
    assert (ACTIONS["firebolt"].dice, ACTIONS["firebolt"].range) == ("2d*3", 2)


def test_an_attack_at_a_target_in_obscuring_terrain_rolls_one_die_fewer():
    rolled = firebolt_dice((".....", ".....", ".....", ".....", "..o..", "....."), [8])
    assert (rolled.dice, rolled.hits, rolled.av) == ([8], 1, 3)


def test_an_attack_at_a_target_in_liquid_rolls_one_die_fewer():
    assert firebolt_dice((".....", ".....", ".....", ".....", "..~..", "....."), [8]).dice == [8]


def test_a_target_flying_or_swimming_in_liquid_loses_no_die():
    rows = (".....", ".....", ".....", ".....", "..~..", ".....")
    given = battle(unit("h1", (2, 2), actions=("firebolt",)), unit("f1", (2, 4), defense=12, movement=("flight",)),
                   rows=rows)
    assert of_type(play(given, "h1", Act(unit="h1", action="firebolt", targets=("f1",)), [8, 9])[0],
                   DiceRolled)[0].dice == [8, 9]
    given = battle(unit("h1", (2, 2), actions=("firebolt",)), unit("f1", (2, 4), defense=12, movement=("swimming",)),
                   rows=rows)
    assert of_type(play(given, "h1", Act(unit="h1", action="firebolt", targets=("f1",)), [8, 9])[0],
                   DiceRolled)[0].dice == [8, 9]


WATER = (".....", ".....", ".~~~.", ".~~~.", ".~~~.", ".....")      # every origin of h1 at (2,3) is liquid


def test_an_attack_from_liquid_rolls_one_die_fewer():
    rolled = firebolt_dice(WATER, [8], h1_cell=(2, 3), f1_cell=(2, 5))
    assert (rolled.origin, rolled.dice) == ((2, 3), [8])


def test_a_flyer_attacking_from_liquid_loses_no_die():
    rolled = firebolt_dice(WATER, [8, 9], h1_cell=(2, 3), f1_cell=(2, 5), movement=("flight",))
    assert rolled.dice == [8, 9]


def test_an_attack_from_obscuring_terrain_rolls_one_die_fewer():
    rows = (".....", ".....", ".ooo.", ".ooo.", ".ooo.", ".....")
    assert firebolt_dice(rows, [8], h1_cell=(2, 3), f1_cell=(2, 5)).dice == [8]


def test_penalties_at_both_ends_add_up():
    rows = (".....", ".....", ".ooo.", ".ooo.", ".ooo.", "..~..")
    rolled = firebolt_dice(rows, [], h1_cell=(2, 3), f1_cell=(2, 5))
    # 2 dice - 1 (from obscuring) - 1 (at liquid) = 0 dice: no hit, AV 0
    assert (rolled.dice, rolled.hits, rolled.av, rolled.band) == ([], 0, 0, "ignored")


def test_the_attack_comes_from_the_origin_that_loses_no_die():
    rows = (".....", ".....", "..o..", ".....", ".....", ".....")
    rolled = firebolt_dice(rows, [8, 9])
    # h1 stands in obscuring (2,2); (2,3) next to it is plain and 1 from f1
    assert (rolled.origin, rolled.dice) == ((2, 3), [8, 9])


def test_lucky_makes_up_for_the_lost_die():
    rolled = firebolt_dice((".....", ".....", ".....", ".....", "..o..", "....."), [8, 9], tokens={"lucky": 1})
    assert rolled.dice == [8, 9]


@pytest.mark.parametrize("rows", [
    *[(".....", ".....", ".....", ".....", f"..{mark}..", ".....") for mark in "dhc"],
    (".....", ".....", "..1..", "..1..", "..1..", "....."),        # h1 on the same level, so in reach
], ids=["d", "h", "c", "1"])
def test_other_terrain_takes_no_die(rows):
    assert firebolt_dice(rows, [8, 9], f1_cell=(2, 4)).dice == [8, 9]
