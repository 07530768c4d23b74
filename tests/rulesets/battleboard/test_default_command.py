"""Seed silent: clocks. The move the rules play for a seat whose clock ran out
(`on_timeout: "auto"`): the initiative's winner goes first; an arranging seat places its next
combatant on the rearmost free cell of its section; a defender spends no focus and loses an
untapped token where it may; in a side's turn the seat ends its part of the turn. Whatever
the battle, it is one of the seat's legal commands and `decide` accepts it.

Combatants come from given.py: Speed, Evasion and Defense 4, Resilience 3, only Strike."""
from __future__ import annotations

from typing import Any

import pytest

from domain.engine.errors import RuleViolation
from domain.rulesets.battleboard import RULESET
from domain.rulesets.battleboard.commands import Act, Choose, Defend, EndTurn, Place
from domain.rulesets.battleboard.content import CONTENT
from domain.rulesets.battleboard.legal import default_command
from domain.rulesets.battleboard.setup import parse_setup
from domain.rulesets.battleboard.start import start
from domain.rulesets.battleboard.state import FOES, HEROES
from tests.rulesets.defaults import bot_matches, checked_defaults

from .given import Dice, after, battle, field, legal, play, unit

TAP = [5, 1]        # strike 2d*2+1: 1 hit x 2 + 1 = 3 <= Defense 4
BREAK = [5, 6]      # 2 hits x 2 + 1 = 5 > Defense 4


def opening(*initiative: int, heroes: tuple[str, ...] = ("aria", "bram"), map: str = "training_ground"):
    """The battle as `start` opens it against two goblin archers, with the initiative dice given."""
    setup = {"heroes": list(heroes), "foes": ["goblin_archer", "goblin_archer"], "map": map}
    return after(None, start(parse_setup(setup), Dice(*initiative)))  # type: ignore[arg-type]


def attacked(dice, **target):
    """h1 strikes f1 (f2 stands by so the foes do not lose with f1): f1's seat is awaited."""
    given = battle(unit("h1", (2, 2)), unit("f1", (2, 3), **target), unit("f2", (0, 5)))
    return play(given, "h1", Act(unit="h1", action="strike", targets=("f1",)), dice)[1]


# -- Initiative -------------------------------------------------------------------------------

def test_the_winner_of_the_initiative_goes_first():
    heroes_won, foes_won = opening(9, 4), opening(2, 7)
    assert default_command(heroes_won, "h2") == Choose(go="first")
    assert default_command(foes_won, "gm") == Choose(go="first")


# -- Arrangement ------------------------------------------------------------------------------

def test_the_foes_place_on_their_back_row_from_the_left():
    # the heroes go first, so the foes arrange first; their section is rows 3 to 5, the back row 5
    arranging = play(opening(9, 4), "h1", Choose(go="first"))[1]
    first = default_command(arranging, "gm")
    assert first == Place(unit="f1", cell=(0, 5))
    _, state = play(arranging, "gm", first)
    assert default_command(state, "gm") == Place(unit="f2", cell=(1, 5))


def test_the_heroes_place_on_row_0():
    # the heroes go second, so they arrange first; their section is rows 0 to 2
    arranging = play(opening(9, 4), "h1", Choose(go="second"))[1]
    assert default_command(arranging, "h2") == Place(unit="h2", cell=(0, 0))


def test_barriers_and_challenging_terrain_on_the_back_row_are_passed_over():
    # row 5: barriers at columns 0 and 1, challenging terrain at 2; row 4 is one step nearer the border
    rows = (".....", ".....", ".....", ".....", ".....", "##c..")
    arranging = play(opening(9, 4, map=field(*rows)), "h1", Choose(go="first"))[1]
    assert default_command(arranging, "gm") == Place(unit="f1", cell=(3, 5))


# -- Defense ----------------------------------------------------------------------------------

def test_a_defender_taps_an_untapped_token():
    state = attacked(TAP, untapped=2, tapped=1)
    assert legal(state, "gm") == [{"type": "defend", "lose": "untapped"}, {"type": "defend", "lose": "tapped"}]
    assert default_command(state, "gm") == Defend(lose="untapped")


def test_a_defender_keeps_its_focus_and_takes_the_break():
    # AV 5 > Defense 4: 1 focus would make it a tap, but the default spends none
    state = attacked(BREAK, focus=2)
    assert {"type": "defend", "lose": "untapped", "focus": 1} in legal(state, "gm")
    assert default_command(state, "gm") == Defend(lose="untapped", focus=0)


def test_a_defender_with_no_untapped_token_gives_up_tapped_ones():
    # AV 5 > Defense 4, 0 untapped: a break discards both tapped tokens; 1 focus makes it a tap, which
    # discards one; the default spends no focus
    state = attacked(BREAK, untapped=0, tapped=2, focus=1)
    assert legal(state, "gm") == [{"type": "defend", "lose": "tapped"}, {"type": "defend", "lose": "tapped", "focus": 1}]
    assert default_command(state, "gm") == Defend(lose="tapped")


# -- Turns ------------------------------------------------------------------------------------

def test_each_hero_seat_ends_its_part_of_the_turn():
    given = battle(unit("h1", (1, 1)), unit("h2", (3, 1)), unit("f1", (2, 4)))
    assert default_command(given, "h1") == EndTurn()
    _, state = play(given, "h1", EndTurn())
    assert state.active == HEROES and default_command(state, "h2") == EndTurn()


def test_the_foes_end_their_turn_and_leave_an_open_row():
    # row 3, the foes' row next to the border, was left empty: they may advance, but the default ends the turn
    given = battle(unit("h1", (1, 1)), unit("f1", (2, 4)), active=FOES, row_open=3)
    assert {"type": "advance"} in legal(given, "gm")
    assert default_command(given, "gm") == EndTurn()


def test_a_seat_not_awaited_is_refused():
    given = battle(unit("h1", (1, 1)), unit("f1", (2, 4)))
    with pytest.raises(RuleViolation, match="gm has nothing to do now"):
        default_command(given, "gm")


# -- every awaited seat of random battles -----------------------------------------------------

def setups(n: int) -> list[dict[str, Any]]:
    """1 to 4 hero seats of the presets against every encounter."""
    presets, encounters = list(CONTENT.presets), list(CONTENT.encounters)
    return [{"heroes": [presets[(i + k) % len(presets)] for k in range(1 + i % 4)],
             "encounter": encounters[i // 4 % len(encounters)]} for i in range(n)]


def test_the_default_is_legal_and_accepted_wherever_a_seat_is_awaited():
    checked = [wire for state in bot_matches(RULESET, setups(30)) for wire in checked_defaults(RULESET, state)]
    assert len(checked) > 300
