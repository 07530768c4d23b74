"""Seed 001, Combat and Defeat: an attack deals the attacker's power; the defender counter-attacks
(automatically, once per turn, only with the attacker exactly at its reach, never after fainting,
and a counter is never countered); a unit faints when its damage taken surpasses its armor; a
unit attacks once per turn; a player whose characters have all fainted loses; a player may
forfeit at any time, even on the opponent's turn or during the preparation.

Numbers from classes.toml: Fighter (brand, brick) 10 power / 90 armor, Hunter (thorn, fang)
12/80, Caster (ember, wisp) 18/50, Ranger (cinder, sable) 16/60.
"""
from __future__ import annotations

import msgspec
import pytest

from domain.engine.battle import BattleEnded, decide_batch, open_battle
from domain.engine.errors import NotYourTurn, RuleViolation
from domain.engine.rng import Rng
from domain.engine.ruleset import Outcome
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.commands import Attack, EndTurn, Forfeit, Move, Play
from domain.rulesets.skirmish.decide import decide, outcome
from domain.rulesets.skirmish.events import (Attacked, Forfeited, PlayerDefeated, Struck, TurnStarted,
                                             UnitFainted)

from .given import decide_after, legal, of_type, play, refused, skirmish, unit


# -- Damage -----------------------------------------------------------------------------------

def test_the_defender_takes_the_attackers_power_as_damage():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.brick", (3, 5), damage=20))
    then, state = play(given, "p1", Attack(character="ember", target="p2.brick"))
    # 20 taken + 18 power = 38; Brick (melee) cannot counter at 2
    assert then == [Attacked(seat="p1", character="ember", target="p2.brick"),
                    Struck(unit="p1.ember", target="p2.brick", power=18, damage=38)]
    assert state.units["p2.brick"].damage == 38
    assert state.units["p1.ember"].attacked is True


def test_a_lowered_power_is_the_damage():
    # Intimidating Presence lowered Brand's power from 10 to 8
    given = skirmish(unit("p1.brand", (3, 3), power=8), unit("p2.wisp", (3, 4)))
    then, _ = play(given, "p1", Attack(character="brand", target="p2.wisp"))
    assert of_type(then, Struck) == [Struck(unit="p1.brand", target="p2.wisp", power=8, damage=8)]


# -- Counter-attacks --------------------------------------------------------------------------

def test_a_melee_defender_counters_an_adjacent_melee_attacker():
    given = skirmish(unit("p1.thorn", (3, 3)), unit("p2.brand", (3, 4)))
    then, state = play(given, "p1", Attack(character="thorn", target="p2.brand"))
    # Thorn deals 12; Brand, 1 tile from Thorn = its reach, counters with 10
    assert then == [Attacked(seat="p1", character="thorn", target="p2.brand"),
                    Struck(unit="p1.thorn", target="p2.brand", power=12, damage=12),
                    Struck(unit="p2.brand", target="p1.thorn", power=10, damage=10, counter=True)]
    assert (state.units["p2.brand"].damage, state.units["p1.thorn"].damage) == (12, 10)
    assert state.units["p2.brand"].countered is True


def test_a_ranged_defender_counters_a_ranged_attacker_two_tiles_away():
    given = skirmish(unit("p1.cinder", (3, 3)), unit("p2.wisp", (4, 4)))
    then, state = play(given, "p1", Attack(character="cinder", target="p2.wisp"))
    # 1 + 1 = 2 apart, both reach 2: Cinder deals 16, Wisp counters with 18
    assert of_type(then, Struck) == [Struck(unit="p1.cinder", target="p2.wisp", power=16, damage=16),
                                     Struck(unit="p2.wisp", target="p1.cinder", power=18, damage=18, counter=True)]


def test_a_ranged_defender_does_not_counter_an_adjacent_attacker():
    given = skirmish(unit("p1.brand", (3, 3)), unit("p2.wisp", (3, 4)))
    then, state = play(given, "p1", Attack(character="brand", target="p2.wisp"))
    # Brand is 1 away; Wisp reaches exactly 2
    assert of_type(then, Struck) == [Struck(unit="p1.brand", target="p2.wisp", power=10, damage=10)]
    assert (state.units["p1.brand"].damage, state.units["p2.wisp"].countered) == (0, False)


def test_a_melee_defender_does_not_counter_a_ranged_attacker_two_tiles_away():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.thorn", (3, 5)))
    then, state = play(given, "p1", Attack(character="ember", target="p2.thorn"))
    # Ember is 2 away; Thorn reaches exactly 1
    assert of_type(then, Struck) == [Struck(unit="p1.ember", target="p2.thorn", power=18, damage=18)]
    assert state.units["p1.ember"].damage == 0


def test_a_defender_counters_once_per_turn():
    given = skirmish(unit("p1.thorn", (3, 3)), unit("p1.fang", (2, 4)), unit("p2.brand", (3, 4)))
    _, state = play(given, "p1", Attack(character="thorn", target="p2.brand"))
    then, state = play(state, "p1", Attack(character="fang", target="p2.brand"))
    # Brand has countered Thorn this turn: Fang's attack goes unanswered; 12 + 12 = 24 taken
    assert then == [Attacked(seat="p1", character="fang", target="p2.brand"),
                    Struck(unit="p1.fang", target="p2.brand", power=12, damage=24)]
    assert (state.units["p1.thorn"].damage, state.units["p1.fang"].damage) == (10, 0)


def test_a_defender_counters_again_on_a_later_turn():
    given = skirmish(unit("p1.thorn", (3, 3)), unit("p2.brand", (3, 4)))
    _, state = play(given, "p1", Attack(character="thorn", target="p2.brand"))
    _, state = play(state, "p1", EndTurn())
    assert state.units["p2.brand"].countered is False
    _, state = play(state, "p2", EndTurn())
    then, state = play(state, "p1", Attack(character="thorn", target="p2.brand"))
    # turn 3: 12 + 12 = 24 on Brand, 10 + 10 = 20 on Thorn
    assert of_type(then, Struck) == [Struck(unit="p1.thorn", target="p2.brand", power=12, damage=24),
                                     Struck(unit="p2.brand", target="p1.thorn", power=10, damage=20, counter=True)]


def test_a_counter_is_never_countered():
    given = skirmish(unit("p1.thorn", (3, 3)), unit("p2.brand", (3, 4)))
    then, state = play(given, "p1", Attack(character="thorn", target="p2.brand"))
    # Thorn could still counter Brand (adjacent, not countered this turn) but a counter draws none
    assert len(of_type(then, Struck)) == 2
    assert state.units["p1.thorn"].countered is False
    assert (state.units["p2.brand"].damage, state.units["p1.thorn"].damage) == (12, 10)


def test_a_fainted_defender_does_not_counter():
    given = skirmish(unit("p1.thorn", (3, 3)), unit("p2.brand", (3, 4), damage=80), unit("p2.brick", (6, 7)))
    then, state = play(given, "p1", Attack(character="thorn", target="p2.brand"))
    # 80 + 12 = 92 > 90 armor: fainted, no counter
    assert then == [Attacked(seat="p1", character="thorn", target="p2.brand"),
                    Struck(unit="p1.thorn", target="p2.brand", power=12, damage=92),
                    UnitFainted(unit="p2.brand")]
    assert state.units["p1.thorn"].damage == 0
    assert (state.units["p2.brand"].fainted, state.units["p2.brand"].cell) == (True, None)


def test_a_counter_can_make_the_attacker_faint():
    # Flint (a Hunter, 12/80) has no Epilogue talent to muddy the events
    given = skirmish(unit("p1.flint", (3, 3), damage=75), unit("p1.ember", (0, 0)), unit("p2.brand", (3, 4)))
    then, state = play(given, "p1", Attack(character="flint", target="p2.brand"))
    # 75 + 10 = 85 > 80 armor: Flint faints from the counter
    assert then == [Attacked(seat="p1", character="flint", target="p2.brand"),
                    Struck(unit="p1.flint", target="p2.brand", power=12, damage=12),
                    Struck(unit="p2.brand", target="p1.flint", power=10, damage=85, counter=True),
                    UnitFainted(unit="p1.flint")]
    assert state.units["p1.flint"].fainted is True
    assert state.defeated == ()


# -- Fainting ---------------------------------------------------------------------------------

def test_damage_equal_to_armor_does_not_faint():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.brick", (3, 5), damage=72))
    then, state = play(given, "p1", Attack(character="ember", target="p2.brick"))
    # 72 + 18 = 90, not > 90 armor: still standing
    assert of_type(then, UnitFainted) == []
    assert state.units["p2.brick"].damage == 90
    assert state.units["p2.brick"].on_board is True


def test_damage_above_armor_faints():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.brick", (3, 5), damage=73), unit("p2.brand", (6, 7)))
    then, state = play(given, "p1", Attack(character="ember", target="p2.brick"))
    # 73 + 18 = 91 > 90 armor: fainted
    assert then[-1] == UnitFainted(unit="p2.brick")
    brick = state.units["p2.brick"]
    assert (brick.damage, brick.fainted, brick.cell, brick.on_board) == (91, True, None, False)


@pytest.mark.parametrize(("taken", "fainted"), [(42, False), (43, True)])
def test_skill_damage_faints_only_above_armor_too(taken, fainted):
    given = skirmish(unit("p1.sigil", (3, 1)), unit("p2.wisp", (3, 5), damage=taken), unit("p2.brick", (6, 7)),
                     p1={"hand": ["overcharge"], "ap": 3})
    then, state = play(given, "p1", Play(card="overcharge", character="sigil", target="p2.wisp"))
    # 42 + 8 = 50, not > 50 armor: standing; 43 + 8 = 51 > 50: fainted
    assert (of_type(then, UnitFainted) != []) is fainted
    assert state.units["p2.wisp"].fainted is fainted


def test_a_fainted_unit_can_no_longer_be_attacked_or_act():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.brick", (3, 5), damage=73), unit("p2.brand", (6, 7)),
                     unit("p2.wisp", (3, 7)))
    _, state = play(given, "p1", Attack(character="ember", target="p2.brick"))
    _, state = play(state, "p1", EndTurn())
    refused(state, "p2", Move(character="brick", to=(3, 6)), "brick has fainted")
    assert [c for c in legal(state, "p2") if c.get("character") == "brick"] == []


# -- Attacking once per turn ------------------------------------------------------------------

def test_a_unit_attacks_once_per_turn():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.brick", (3, 5)), unit("p2.brand", (5, 3)))
    _, state = play(given, "p1", Attack(character="ember", target="p2.brick"))
    refused(state, "p1", Attack(character="ember", target="p2.brand"), "ember cannot attack again this turn")
    refused(state, "p1", Attack(character="ember", target="p2.brick"), "ember cannot attack again this turn")
    assert [c for c in legal(state, "p1") if c["type"] == "attack"] == []


def test_each_unit_has_its_own_attack():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p1.cinder", (1, 5)), unit("p2.brick", (3, 5)))
    _, state = play(given, "p1", Attack(character="ember", target="p2.brick"))
    then, state = play(state, "p1", Attack(character="cinder", target="p2.brick"))
    # 18 + 16 = 34
    assert of_type(then, Struck) == [Struck(unit="p1.cinder", target="p2.brick", power=16, damage=34)]


def test_the_attack_comes_back_on_the_next_turn():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.brick", (3, 5)))
    _, state = play(given, "p1", Attack(character="ember", target="p2.brick"))
    _, state = play(state, "p1", EndTurn())
    _, state = play(state, "p2", EndTurn())
    then, state = play(state, "p1", Attack(character="ember", target="p2.brick"))
    # 18 + 18 = 36
    assert of_type(then, Struck) == [Struck(unit="p1.ember", target="p2.brick", power=18, damage=36)]


# -- Defeat: every character fainted ----------------------------------------------------------

def test_a_player_whose_characters_have_all_fainted_loses():
    given = skirmish(unit("p1.thorn", (3, 3)), unit("p2.brand", (3, 4), damage=85),
                     unit("p2.wisp", None, damage=51, fainted=True))
    then, state = play(given, "p1", Attack(character="thorn", target="p2.brand"))
    # 85 + 12 = 97 > 90: Brand faints, and Wisp has fainted already
    assert then[-2:] == [UnitFainted(unit="p2.brand"), PlayerDefeated(seat="p2", reason="lost every character")]
    assert state.defeated == (("p2", "lost every character"),)
    assert outcome(state) == Outcome(winner="p1", reason="p2 lost every character")
    assert RULESET.awaiting(state) == frozenset()


def test_a_player_with_a_character_standing_has_not_lost():
    given = skirmish(unit("p1.thorn", (3, 3)), unit("p2.brand", (3, 4), damage=85), unit("p2.wisp", (0, 7)))
    then, state = play(given, "p1", Attack(character="thorn", target="p2.brand"))
    assert of_type(then, PlayerDefeated) == []
    assert outcome(state) is None


def test_the_attacker_loses_when_a_counter_faints_its_last_character():
    given = skirmish(unit("p1.flint", (3, 3), damage=75), unit("p2.brand", (3, 4)))
    then, state = play(given, "p1", Attack(character="flint", target="p2.brand"))
    # 75 + 10 = 85 > 80: Flint, p1's only character, faints on the counter
    assert then[-2:] == [UnitFainted(unit="p1.flint"), PlayerDefeated(seat="p1", reason="lost every character")]
    assert outcome(state) == Outcome(winner="p2", reason="p1 lost every character")


def test_both_players_defeated_in_one_batch_is_a_draw():
    given = skirmish(unit("p1.thorn", (3, 3)), unit("p2.brand", (3, 4)))
    both = msgspec.structs.replace(given, defeated=(("p2", "lost every character"), ("p1", "drew from an empty deck")))
    assert outcome(both) == Outcome(winner=None, reason="both players were defeated at once")


# -- Forfeit ----------------------------------------------------------------------------------

def test_the_active_player_may_forfeit():
    given = skirmish(unit("p1.thorn", (3, 3)), unit("p2.brand", (3, 6)))
    then, state = play(given, "p1", Forfeit())
    assert then == [Forfeited(seat="p1"), PlayerDefeated(seat="p1", reason="forfeited")]
    assert outcome(state) == Outcome(winner="p2", reason="p1 forfeited")


def test_the_other_player_may_forfeit_on_the_opponents_turn():
    given = skirmish(unit("p1.thorn", (3, 3)), unit("p2.brand", (3, 6)), active="p1")
    then = list(decide(given, "p2", Forfeit(), Rng(b"x")).events)
    assert then == [Forfeited(seat="p2"), PlayerDefeated(seat="p2", reason="forfeited")]
    _, state = play(given, "p2", Forfeit())
    assert outcome(state) == Outcome(winner="p1", reason="p2 forfeited")


def test_forfeit_is_never_a_listed_command():
    given = skirmish(unit("p1.thorn", (3, 3)), unit("p2.brand", (3, 6)))
    assert "forfeit" not in {c["type"] for c in legal(given, "p1")}


SETUP = {"mode": "duel", "board": "meadow", "first_player": "p1",
         "p1": {"team": ["wisp", "sable", "thorn", "cinder"]},
         "p2": {"team": ["bramble", "thorn", "sable", "fang"]}}
FIELDED = {"p1": ["wisp", "sable", "thorn"], "p2": ["bramble", "thorn", "fang"]}


def opened():
    state, _ = open_battle(RULESET, battle_id="b-1", setup=SETUP, players={"p1": "ann", "p2": "bob"},
                           revealed=b"\x01" * 32, created_at="2024-01-01T00:00:00Z")
    return state


def in_combat():
    """A battle run by the engine through its preparation, on p1's first turn."""
    state = opened()
    for seat in ("p1", "p2"):
        state, _ = decide_batch(RULESET, state, seat, {"type": "field", "characters": FIELDED[seat]})
    for seat, row in (("p1", 0), ("p2", 7)):
        for col, character in enumerate(FIELDED[seat]):
            state, _ = decide_batch(RULESET, state, seat, {"type": "place", "character": character, "cell": [col, row]})
    for seat in ("p1", "p2"):
        state, _ = decide_batch(RULESET, state, seat, {"type": "mulligan", "cards": []})
    assert (state.game.phase, state.game.active) == ("combat", "p1")
    return state


def test_the_engine_takes_a_forfeit_from_the_seat_not_on_turn():
    state = in_combat()
    with pytest.raises(NotYourTurn):
        decide_batch(RULESET, state, "p2", EndTurn())
    state, records = decide_batch(RULESET, state, "p2", {"type": "forfeit"})
    assert [r.event for r in records[:2]] == [Forfeited(seat="p2"), PlayerDefeated(seat="p2", reason="forfeited")]
    ended = records[-1].event
    assert isinstance(ended, BattleEnded)
    assert (ended.winner, ended.reason) == ("p1", "p2 forfeited")
    assert state.outcome == Outcome(winner="p1", reason="p2 forfeited")


def test_the_engine_takes_a_forfeit_during_the_selection():
    state = opened()
    state, _ = decide_batch(RULESET, state, "p1", {"type": "field", "characters": FIELDED["p1"]})
    # p1 has locked and is not awaited; a forfeit is still taken from it
    assert RULESET.awaiting(state.game) == frozenset({"p2"})
    state, records = decide_batch(RULESET, state, "p1", {"type": "forfeit"})
    assert [r.event for r in records[:2]] == [Forfeited(seat="p1"), PlayerDefeated(seat="p1", reason="forfeited")]
    assert state.outcome == Outcome(winner="p2", reason="p1 forfeited")


def test_the_engine_takes_a_forfeit_during_the_placement():
    state = opened()
    for seat in ("p1", "p2"):
        state, _ = decide_batch(RULESET, state, seat, {"type": "field", "characters": FIELDED[seat]})
    state, _ = decide_batch(RULESET, state, "p2", {"type": "forfeit"})
    assert state.game.phase == "place"
    assert state.outcome == Outcome(winner="p1", reason="p2 forfeited")


def test_nothing_is_taken_once_a_forfeit_has_ended_the_battle():
    state = in_combat()
    state, _ = decide_batch(RULESET, state, "p2", {"type": "forfeit"})
    seq = state.seq
    with pytest.raises(RuleViolation, match="the battle is over"):
        decide_batch(RULESET, state, "p1", {"type": "forfeit"})
    assert state.seq == seq


def test_turn_one_then_two_alternate_seats():
    given = skirmish(unit("p1.thorn", (3, 3)), unit("p2.brand", (3, 6)))
    then, state = play(given, "p1", EndTurn())
    assert of_type(then, TurnStarted) == [TurnStarted(turn=2, seat="p2")]
    assert (state.turn, state.active, RULESET.awaiting(state)) == (2, "p2", frozenset({"p2"}))
