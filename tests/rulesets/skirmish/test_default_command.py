"""Seed silent: clocks. The move the rules play for a seat whose clock ran out (`auto`): field as
many characters as the mode allows (first in team order, the boss always), place each on the back
tile of its zone, keep the whole starting hand, end the turn in combat."""
from __future__ import annotations

from domain.engine.battle import BattleState, decide_batch
from domain.engine.choices import ChoiceLocked
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.commands import EndTurn, Field, Mulligan, Place
from domain.rulesets.skirmish.events import TurnEnded, UnitPlaced
from domain.rulesets.skirmish.legal import default_command, legal_commands
from domain.rulesets.skirmish.state import SEATS
from tests.rulesets.defaults import checked_defaults, opened, random_walks

from .given import decide_after, play, skirmish, unit

BATTLES = 30
DUEL = {"mode": "duel", "board": "meadow", "first_player": "p1",
        "p1": {"team": ["wisp", "sable", "thorn", "cinder"]},
        "p2": {"team": ["bramble", "thorn", "sable", "fang"]}}
RAID = {"mode": "raid", "p1": {"team": ["sigil", "quill", "fang", "brick", "wisp"]}, "p2": {"boss": "tempest_wyrm"}}


def defaults_played(state: BattleState, phase: str) -> BattleState:
    """Every awaited seat plays its default until the battle leaves `phase`."""
    while state.game.phase == phase:
        seat = sorted(RULESET.awaiting(state.game))[0]
        state, _ = decide_batch(RULESET, state, seat, default_command(state.game, seat))
    return state


def test_in_a_duel_the_default_fields_the_first_three_of_the_team():
    given = opened(RULESET, DUEL).game
    when = default_command(given, "p1")
    assert when == Field(characters=("wisp", "sable", "thorn"))     # cinder, fourth, stays home
    assert when in legal_commands(given, "p1")
    assert decide_after(given, "p1", when) == [ChoiceLocked(seat="p1", kind="field",
                                                            choice={"characters": ["wisp", "sable", "thorn"]})]


def test_in_a_raid_the_default_fields_the_whole_team_and_the_boss_side_its_boss():
    given = opened(RULESET, RAID).game
    # 1 to 5 may be fielded: the widest pick is all five, not the first listed (sigil alone)
    assert legal_commands(given, "p1")[0] == Field(characters=("sigil",))
    assert default_command(given, "p1") == Field(characters=("sigil", "quill", "fang", "brick", "wisp"))
    assert default_command(given, "p2") == Field(characters=("tempest_wyrm", "stormling", "squall"))
    narrow = opened(RULESET, {**RAID, "params": {"raid_field_max": 2}}).game
    assert default_command(narrow, "p1") == Field(characters=("sigil", "quill"))
    assert default_command(narrow, "p2") == Field(characters=("tempest_wyrm", "stormling"))


def test_the_default_places_the_first_unplaced_character_on_the_back_row_from_the_left():
    given = defaults_played(opened(RULESET, DUEL), "select").game
    # meadow: p1 deploys on rows 0-1 and p2 on rows 6-7; the back rows are 0 and 7
    assert [default_command(given, seat) for seat in SEATS] == [Place(character="wisp", cell=(0, 0)),
                                                                 Place(character="bramble", cell=(0, 7))]
    assert all(default_command(given, seat) in legal_commands(given, seat) for seat in SEATS)
    then, placed = play(given, "p1", default_command(given, "p1"))
    assert then == [UnitPlaced(seat="p1", character="wisp", cell=[0, 0])]
    assert default_command(placed, "p1") == Place(character="sable", cell=(1, 0))     # (0, 0) is taken
    assert default_command(placed, "p1") in legal_commands(placed, "p1")


def test_at_the_starting_hand_the_default_keeps_all_three_cards():
    given = defaults_played(defaults_played(opened(RULESET, DUEL), "select"), "place").game
    assert given.phase == "mulligan" and len(given.p1.hand) == 3
    when = default_command(given, "p1")
    assert when == Mulligan(cards=()) == legal_commands(given, "p1")[0]     # the smallest pick: nothing back
    assert decide_after(given, "p1", when) == [ChoiceLocked(seat="p1", kind="mulligan", choice={"cards": []})]


def test_in_combat_the_default_ends_the_turn_with_ap_and_cards_left():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 2)), p1={"hand": ["war_drum"], "ap": 3})
    when = default_command(given, "p1")
    assert when == EndTurn()
    assert {c.wire_type() for c in legal_commands(given, "p1")} == {"move", "attack", "play", "end_turn"}
    assert decide_after(given, "p1", when)[0] == TurnEnded(seat="p1")


def test_in_seeded_battles_the_default_is_legal_and_accepted_wherever_a_seat_is_awaited():
    """30 battles of random moves, duels and raids; in every other one p2's clock runs out on
    every move, so the default alone must also carry a seat to the end."""
    setups = [RAID if i % 3 == 2 else RULESET.fresh_setup() for i in range(BATTLES)]
    defaults = {wire["type"] for state in random_walks(RULESET, setups) for wire in checked_defaults(RULESET, state)}
    assert defaults == {"field", "place", "mulligan", "end_turn"}
