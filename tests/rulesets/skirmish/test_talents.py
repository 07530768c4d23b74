"""Seed 001, Talents: each of the seven, exactly. Prologue triggers as a unit enters the match
(`prepare.begin_match`, or a real preparation), Epilogue as it leaves (faints) the first time,
Interlude as its seat's turn starts. README "Choices where the seed is silent" fixes the numbers:
Early Bird is a point of maximum AP, Intimidating Presence one tier step (power -2, armor -10),
Serene Grace heals 20, Last Will draws 3, Second Chance returns at the start of its seat's next turn.

Numbers (classes.toml): caster 18 power / 50 armor, ranger 16/60, hunter 12/80, fighter 10/90;
the Tempest Wyrm 20/300. A unit faints when its damage *surpasses* its armor. Board: meadow,
7 x 8, no rocks, distance = columns + rows apart.
"""
from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from domain.engine.events import Event
from domain.engine.rng import Rng
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.decide import outcome
from domain.rulesets.skirmish.events import (ApRestored, Attacked, CardsDrawn, DrawFailed, EffectEnded,
                                             FirstPlayerChosen, Healed, MaxApChanged, PlayerDefeated,
                                             ReturnPending, StatsLowered, StormRaised, Struck, TalentCopied,
                                             TalentTriggered, TurnEnded, TurnStarted, UnitEntered, UnitFainted,
                                             UnitReturned)
from domain.rulesets.skirmish.preparation import begin_match
from domain.rulesets.skirmish.resolver import RESOLVING
from domain.rulesets.skirmish.setup import parse_setup
from domain.rulesets.skirmish.state import Params, Skirmish

from .given import after, legal, of_type, play, skirmish, topics, unit

END = {"type": "end_turn"}


def entering(state: Skirmish, seed: bytes = b"x") -> tuple[list[Event], Skirmish]:
    """The match begins on `state` (before turn 1): every fielded unit enters, first player's
    first, in team order, and the first turn starts. The second player's compensation is off
    (`second_player_ap` 0, test_preparation.py covers it), so a talent's AP shows alone."""
    b = RESOLVING(replace(state, turn=0, active=None, params=replace(state.params, second_player_ap=0)), Rng(seed))
    begin_match(b)
    return b.events, b.state


def prepared(p1: list[str], p2: list[str], first: str = "p1") -> tuple[list[Event], Skirmish]:
    """A real duel through selection, placement and the starting hand (all kept): the events of
    the last command (both mulligans locked: the match begins). On the meadow (p2 deploys on rows
    6-7), with no second-player compensation, as `entering`."""
    setup = {"board": "meadow", "first_player": first, "p1": {"team": p1}, "p2": {"team": p2},
             "params": {"second_player_ap": 0}}
    state = after(None, RULESET.start(parse_setup(setup), Rng(b"setup")))
    commands: list[tuple[str, dict[str, Any]]] = [("p1", {"type": "field", "characters": p1}),
                                                  ("p2", {"type": "field", "characters": p2})]
    commands += [("p1", {"type": "place", "character": c, "cell": [i, 0]}) for i, c in enumerate(p1)]
    commands += [("p2", {"type": "place", "character": c, "cell": [i, 7]}) for i, c in enumerate(p2)]
    commands += [("p1", {"type": "mulligan", "cards": []}), ("p2", {"type": "mulligan", "cards": []})]
    events: list[Event] = []
    for seat, command in commands:
        events, state = play(state, seat, command)
    return events, state


# -- Early Bird: Prologue, a point of maximum AP ------------------------------------------------------

def test_early_bird_gives_the_first_player_two_ap_on_the_first_turn():
    then, state = entering(skirmish(unit("p1.ember", (3, 1)), unit("p2.wisp", (3, 6))))
    assert then == [FirstPlayerChosen(seat="p1", by="setup"),
                    UnitEntered(unit="p1.ember", cell=[3, 1]),
                    TalentTriggered(unit="p1.ember", talent="early_bird"),
                    MaxApChanged(seat="p1", max_ap=1, ap=1, by="p1.ember"),
                    UnitEntered(unit="p2.wisp", cell=[3, 6]),
                    TurnStarted(turn=1, seat="p1"),
                    ApRestored(seat="p1", max_ap=2, ap=2),
                    CardsDrawn(seat="p1", count=1, cards=("caster_skill",))]
    # 0 + 1 (Early Bird) + 1 (the turn's rise) = 2; without it the first turn has 1
    assert (state.p1.max_ap, state.p1.ap) == (2, 2)


def test_without_early_bird_the_first_turn_has_one_ap():
    _, state = entering(skirmish(unit("p1.cinder", (3, 1)), unit("p2.wisp", (3, 6))))
    assert (state.p1.max_ap, state.p1.ap) == (1, 1)        # 0 + 1 (the turn's rise)


def test_early_bird_of_the_second_player_shows_on_its_first_turn():
    then, state = entering(skirmish(unit("p1.cinder", (3, 1)), unit("p2.quill", (3, 6))))
    assert MaxApChanged(seat="p2", max_ap=1, ap=1, by="p2.quill") in then
    then, state = play(state, "p1", END)
    assert ApRestored(seat="p2", max_ap=2, ap=2) in then    # 0 + 1 (Early Bird) + 1 (its first turn)
    assert (state.p1.max_ap, state.p2.max_ap, state.p2.ap) == (1, 2, 2)


def test_prologues_through_a_real_preparation():
    then, state = prepared(["ember", "cinder", "brand"], ["wisp", "sable", "thorn"])
    start = then.index(FirstPlayerChosen(seat="p1", by="setup"))
    assert then[start:start + 4] == [FirstPlayerChosen(seat="p1", by="setup"),
                                     UnitEntered(unit="p1.ember", cell=[0, 0]),
                                     TalentTriggered(unit="p1.ember", talent="early_bird"),
                                     MaxApChanged(seat="p1", max_ap=1, ap=1, by="p1.ember")]
    brand = then.index(TalentTriggered(unit="p1.brand", talent="intimidating_presence"))
    assert then[brand - 2:brand + 4] == [UnitEntered(unit="p1.cinder", cell=[1, 0]),
                                         UnitEntered(unit="p1.brand", cell=[2, 0]),
                                         TalentTriggered(unit="p1.brand", talent="intimidating_presence"),
                                         StatsLowered(unit="p2.wisp", power=16, armor=40, by="p1.brand"),
                                         StatsLowered(unit="p2.sable", power=14, armor=50, by="p1.brand"),
                                         StatsLowered(unit="p2.thorn", power=10, armor=70, by="p1.brand")]
    assert ApRestored(seat="p1", max_ap=2, ap=2) in then    # 0 + 1 (Early Bird) + 1
    assert (state.phase, state.active, state.turn, state.p1.ap) == ("combat", "p1", 1, 2)


# -- Mirror Match: Prologue, copies a random opponent's talent -----------------------------------------

def test_mirror_match_copies_the_talent_of_an_opponent_drawn_from_the_battle_rng():
    given = skirmish(unit("p1.flint", (3, 1)), unit("p2.wisp", (2, 6)), unit("p2.thorn", (4, 6)))
    # the candidates in team order: [p2.wisp (Serene Grace), p2.thorn (Last Will)]; no draw comes before
    assert Rng(b"a").int(0, 1) == 1 and Rng(b"c").int(0, 1) == 0
    then, state = entering(given, seed=b"a")
    assert then[2:4] == [TalentTriggered(unit="p1.flint", talent="mirror_match"),
                         TalentCopied(unit="p1.flint", talent="last_will", source="p2.thorn")]
    assert state.units["p1.flint"].talent == "last_will"
    then, state = entering(given, seed=b"c")
    assert then[2:4] == [TalentTriggered(unit="p1.flint", talent="mirror_match"),
                         TalentCopied(unit="p1.flint", talent="serene_grace", source="p2.wisp")]
    assert state.units["p1.flint"].talent == "serene_grace"
    # neither copied talent is a Prologue, so nothing more triggers for flint
    assert [e.unit for e in of_type(then, TalentTriggered)] == ["p1.flint"]


def test_a_copied_prologue_triggers_at_once():
    then, state = entering(skirmish(unit("p1.flint", (3, 1)), unit("p2.ember", (3, 6))))
    assert then == [FirstPlayerChosen(seat="p1", by="setup"),
                    UnitEntered(unit="p1.flint", cell=[3, 1]),
                    TalentTriggered(unit="p1.flint", talent="mirror_match"),
                    TalentCopied(unit="p1.flint", talent="early_bird", source="p2.ember"),
                    TalentTriggered(unit="p1.flint", talent="early_bird"),
                    MaxApChanged(seat="p1", max_ap=1, ap=1, by="p1.flint"),
                    UnitEntered(unit="p2.ember", cell=[3, 6]),
                    TalentTriggered(unit="p2.ember", talent="early_bird"),
                    MaxApChanged(seat="p2", max_ap=1, ap=1, by="p2.ember"),
                    TurnStarted(turn=1, seat="p1"),
                    ApRestored(seat="p1", max_ap=2, ap=2),
                    CardsDrawn(seat="p1", count=1, cards=("caster_skill",))]
    assert (state.p1.max_ap, state.p2.max_ap) == (2, 1)


def test_a_copied_intimidating_presence_lowers_the_opponents_at_once():
    then, state = entering(skirmish(unit("p1.flint", (3, 1)), unit("p2.brick", (3, 6))))
    assert then[3:6] == [TalentCopied(unit="p1.flint", talent="intimidating_presence", source="p2.brick"),
                         TalentTriggered(unit="p1.flint", talent="intimidating_presence"),
                         StatsLowered(unit="p2.brick", power=8, armor=80, by="p1.flint")]   # 10 - 2, 90 - 10
    # brick's own Prologue then lowers flint: 12 - 2 = 10 power, 80 - 10 = 70 armor
    assert (state.units["p1.flint"].power, state.units["p1.flint"].armor) == (10, 70)


def test_mirror_match_never_copies_mirror_match():
    given = skirmish(unit("p1.flint", (3, 1)), unit("p2.sigil", (2, 6)), unit("p2.wisp", (4, 6)))
    for n in range(20):
        then, state = entering(given, seed=bytes([n]))
        assert of_type(then, TalentCopied)[0] == TalentCopied(unit="p1.flint", talent="serene_grace",
                                                              source="p2.wisp")
        assert state.units["p1.flint"].talent == "serene_grace"


def test_mirror_match_with_only_mirror_match_opponents_does_nothing():
    then, state = entering(skirmish(unit("p1.flint", (3, 1)), unit("p2.sigil", (3, 6))))
    assert of_type(then, TalentTriggered) == [TalentTriggered(unit="p1.flint", talent="mirror_match"),
                                              TalentTriggered(unit="p2.sigil", talent="mirror_match")]
    assert of_type(then, TalentCopied) == []
    assert (state.units["p1.flint"].talent, state.units["p2.sigil"].talent) == ("mirror_match", "mirror_match")


def test_a_copied_epilogue_triggers_when_the_copy_faints():
    _, state = entering(skirmish(unit("p1.flint", (3, 3)), unit("p1.ember", (0, 0)), unit("p2.cinder", (3, 5)),
                                 unit("p2.thorn", (3, 4)), p1={"deck": ("caster_skill",) * 9}))
    assert state.units["p1.flint"].talent == "last_will"    # cinder and thorn both hold Last Will
    state = state.with_unit(replace(state.units["p1.flint"], damage=75))
    then, state = play(state, "p1", {"type": "attack", "character": "flint", "target": "p2.thorn"})
    # flint strikes 12, thorn counters 12: 75 + 12 = 87 > 80 armor -> flint faints
    assert then[-5:] == [UnitFainted(unit="p1.flint"),
                         TalentTriggered(unit="p1.flint", talent="last_will"),
                         CardsDrawn(seat="p1", count=1, cards=("caster_skill",)),
                         CardsDrawn(seat="p1", count=1, cards=("caster_skill",)),
                         CardsDrawn(seat="p1", count=1, cards=("caster_skill",))]


# -- Intimidating Presence: Prologue, every fielded opponent -2 power and -10 armor -------------------

def test_intimidating_presence_lowers_every_fielded_opponent():
    then, state = entering(skirmish(unit("p1.brand", (3, 1)), unit("p1.ember", (2, 1)),
                                    unit("p2.wisp", (2, 6)), unit("p2.thorn", (3, 6)), unit("p2.brick", (4, 6)),
                                    unit("p2.sable", None, fielded=False)))
    assert then[2:6] == [TalentTriggered(unit="p1.brand", talent="intimidating_presence"),
                         StatsLowered(unit="p2.wisp", power=16, armor=40, by="p1.brand"),     # 18 - 2, 50 - 10
                         StatsLowered(unit="p2.thorn", power=10, armor=70, by="p1.brand"),    # 12 - 2, 80 - 10
                         StatsLowered(unit="p2.brick", power=8, armor=80, by="p1.brand")]     # 10 - 2, 90 - 10
    lowered = {e.unit for e in of_type(then, StatsLowered) if e.by == "p1.brand"}
    assert lowered == {"p2.wisp", "p2.thorn", "p2.brick"}       # not its ally ember, not the unfielded sable
    assert (state.units["p1.ember"].power, state.units["p1.ember"].armor) == (16, 40)   # brick's Prologue: 18-2, 50-10
    assert (state.units["p2.sable"].power, state.units["p2.sable"].armor) == (16, 60)


def test_intimidated_armor_decides_fainting():
    _, state = entering(skirmish(unit("p1.brand", (3, 1)), unit("p1.ember", (3, 2)),
                                 unit("p2.wisp", (3, 4), damage=30), unit("p2.thorn", (0, 7))))
    then, state = play(state, "p1", {"type": "attack", "character": "ember", "target": "p2.wisp"})
    # 30 + 18 = 48 > 40 (50 - 10 armor) -> wisp faints; at 50 armor it would not
    assert UnitFainted(unit="p2.wisp") in then


def test_intimidating_presence_never_drops_power_below_one():
    params = Params(intimidate_power=15)
    then, _ = entering(skirmish(unit("p1.brand", (3, 1)), unit("p2.brick", (3, 6)), params=params))
    assert StatsLowered(unit="p2.brick", power=1, armor=80, by="p1.brand") in then    # max(1, 10 - 15)


# -- Last Will: Epilogue, draw three cards --------------------------------------------------------------

def faint_cinder(**p2: Any) -> tuple[list[Event], Skirmish]:
    """p1's flint strikes p2's cinder (damage 50): 50 + 12 = 62 > 60 armor -> cinder faints."""
    given = skirmish(unit("p1.flint", (3, 3)), unit("p2.cinder", (3, 4), damage=50), unit("p2.wisp", (0, 7)),
                     p2=p2)
    return play(given, "p1", {"type": "attack", "character": "flint", "target": "p2.cinder"})


def test_last_will_draws_three_cards():
    then, state = faint_cinder(deck=("ranger_skill", "ashen_arrow", "smoke_veil", "caster_skill"),
                               hand=("root_bind",))
    assert then == [Attacked(seat="p1", character="flint", target="p2.cinder"),
                    Struck(unit="p1.flint", target="p2.cinder", power=12, damage=62),
                    UnitFainted(unit="p2.cinder"),
                    TalentTriggered(unit="p2.cinder", talent="last_will"),
                    CardsDrawn(seat="p2", count=1, cards=("ranger_skill",)),
                    CardsDrawn(seat="p2", count=1, cards=("ashen_arrow",)),
                    CardsDrawn(seat="p2", count=1, cards=("smoke_veil",))]
    assert state.p2.hand == ("root_bind", "ranger_skill", "ashen_arrow", "smoke_veil")
    assert state.p2.deck == ("caster_skill",)


def test_last_will_from_a_deck_too_short_loses_the_match():
    then, state = faint_cinder(deck=("smoke_veil",))
    assert then[3:] == [TalentTriggered(unit="p2.cinder", talent="last_will"),
                        CardsDrawn(seat="p2", count=1, cards=("smoke_veil",)),
                        DrawFailed(seat="p2"),
                        PlayerDefeated(seat="p2", reason="drew from an empty deck")]
    assert state.defeated == (("p2", "drew from an empty deck"),)
    assert outcome(state).winner == "p1"


def test_last_will_from_an_empty_deck_loses_the_match():
    then, state = faint_cinder(deck=())
    assert then[3:] == [TalentTriggered(unit="p2.cinder", talent="last_will"),
                        DrawFailed(seat="p2"),
                        PlayerDefeated(seat="p2", reason="drew from an empty deck")]
    assert outcome(state).winner == "p1"


def test_an_epilogue_triggers_only_on_the_first_exit():
    given = skirmish(unit("p1.flint", (3, 3)), unit("p2.cinder", (3, 4), damage=50, exits=1),
                     unit("p2.wisp", (0, 7)))
    then, state = play(given, "p1", {"type": "attack", "character": "flint", "target": "p2.cinder"})
    assert topics(then) == ["Attacked", "Struck", "UnitFainted"]       # 50 + 12 = 62 > 60; no Last Will
    assert state.p2.hand == ()


# -- Serene Grace: Epilogue, heal each ally on the board by 20 ----------------------------------------

def test_serene_grace_heals_each_ally_on_the_board_by_the_damage_actually_removed():
    given = skirmish(unit("p1.ember", (3, 2), damage=10),
                     unit("p2.wisp", (3, 4), damage=40), unit("p2.thorn", (0, 7), damage=30),
                     unit("p2.brick", (1, 7), damage=5), unit("p2.sable", (2, 7)),
                     unit("p2.fang", None, damage=85, fainted=True, exits=1, last_cell=(6, 7)))
    then, state = play(given, "p1", {"type": "attack", "character": "ember", "target": "p2.wisp"})
    assert then == [Attacked(seat="p1", character="ember", target="p2.wisp"),
                    Struck(unit="p1.ember", target="p2.wisp", power=18, damage=58),     # 40 + 18 = 58 > 50
                    UnitFainted(unit="p2.wisp"),
                    TalentTriggered(unit="p2.wisp", talent="serene_grace"),
                    Healed(unit="p2.thorn", amount=20, damage=10, by="p2.wisp"),        # 30 - 20
                    Healed(unit="p2.brick", amount=5, damage=0, by="p2.wisp")]          # only 5 to remove
    # sable had no damage (no Healed), fang is off the board, ember is an opponent
    assert [state.units[k].damage for k in ("p2.thorn", "p2.brick", "p2.sable", "p2.fang", "p1.ember")] == [
        10, 0, 0, 85, 10]


# -- Second Chance: Epilogue, back at the start of its seat's next turn -----------------------------

def test_second_chance_returns_at_the_start_of_its_seats_next_turn_with_half_its_armor_as_damage():
    given = skirmish(unit("p1.flint", (3, 3)), unit("p2.sable", (3, 4), damage=55, effects=["prowess"]))
    then, state = play(given, "p1", {"type": "attack", "character": "flint", "target": "p2.sable"})
    assert then == [Attacked(seat="p1", character="flint", target="p2.sable"),
                    Struck(unit="p1.flint", target="p2.sable", power=12, damage=67),    # 55 + 12 = 67 > 60
                    EffectEnded(unit="p2.sable", effect="prowess", reason="fainted"),
                    UnitFainted(unit="p2.sable"),
                    TalentTriggered(unit="p2.sable", talent="second_chance"),
                    ReturnPending(unit="p2.sable")]
    # its player's only unit is away, but not for good: no defeat
    assert (state.defeated, outcome(state)) == ((), None)
    assert legal(state, "p1")[-1] == {"type": "end_turn"}
    then, state = play(state, "p1", END)
    assert then == [TurnEnded(seat="p1"),
                    TurnStarted(turn=2, seat="p2"),
                    ApRestored(seat="p2", max_ap=1, ap=1),
                    UnitReturned(unit="p2.sable", cell=[3, 4], damage=30),     # 60 armor x 50% (second_chance_damage)
                    CardsDrawn(seat="p2", count=1, cards=("caster_skill",))]
    sable = state.units["p2.sable"]
    assert (sable.cell, sable.damage, sable.chips, sable.on_board, sable.returning) == ((3, 4), 30, (), True, False)
    assert {"type": "move", "character": "sable", "to": (3, 5)} in legal(state, "p2")


def test_second_chance_waits_for_its_own_seats_next_turn():
    given = skirmish(unit("p1.ember", (3, 2)), unit("p2.sable", (3, 4), damage=55), unit("p2.wisp", (0, 7)),
                     active="p2", turn=2)
    then, state = play(given, "p2", {"type": "attack", "character": "sable", "target": "p1.ember"})
    # sable strikes 16; ember counters 18: 55 + 18 = 73 > 60 -> sable faints on its own turn
    assert then[-3:] == [UnitFainted(unit="p2.sable"),
                         TalentTriggered(unit="p2.sable", talent="second_chance"),
                         ReturnPending(unit="p2.sable")]
    then, state = play(state, "p2", END)                    # p1's turn: not yet
    assert of_type(then, UnitReturned) == []
    then, state = play(state, "p1", END)                    # p2's next turn: back
    assert then[:4] == [TurnEnded(seat="p1"), TurnStarted(turn=4, seat="p2"), ApRestored(seat="p2", max_ap=1, ap=1),
                        UnitReturned(unit="p2.sable", cell=[3, 4], damage=30)]      # 60 x 50 // 100


def test_second_chance_returns_to_the_nearest_free_tile_when_its_own_is_taken():
    given = skirmish(unit("p1.flint", (3, 3)), unit("p1.thorn", (2, 2)),
                     unit("p2.sable", (3, 4), damage=55), unit("p2.wisp", (0, 7)))
    _, state = play(given, "p1", {"type": "attack", "character": "flint", "target": "p2.sable"})
    _, state = play(state, "p1", {"type": "move", "character": "flint", "to": [3, 4]})    # onto sable's tile
    _, state = play(state, "p1", {"type": "move", "character": "thorn", "to": [3, 3]})    # and the tile above it
    then, state = play(state, "p1", END)
    # free at distance 1 from (3, 4): (2, 4), (4, 4), (3, 5); reading order (row, then column) -> (2, 4)
    assert UnitReturned(unit="p2.sable", cell=[2, 4], damage=30) in then
    assert state.units["p2.sable"].cell == (2, 4)


def test_the_second_faint_is_final():
    given = skirmish(unit("p1.flint", (3, 3)), unit("p2.sable", (3, 4), damage=55, exits=1))
    then, state = play(given, "p1", {"type": "attack", "character": "flint", "target": "p2.sable"})
    assert then == [Attacked(seat="p1", character="flint", target="p2.sable"),
                    Struck(unit="p1.flint", target="p2.sable", power=12, damage=67),
                    UnitFainted(unit="p2.sable"),
                    PlayerDefeated(seat="p2", reason="lost every character")]
    assert outcome(state).winner == "p1"


def test_second_chance_through_a_return_and_a_second_faint():
    given = skirmish(unit("p1.flint", (3, 3)), unit("p2.sable", (3, 4), damage=55))
    _, state = play(given, "p1", {"type": "attack", "character": "flint", "target": "p2.sable"})
    _, state = play(state, "p1", END)                       # sable is back, 30 damage
    state = state.with_unit(replace(state.units["p2.sable"], damage=55))
    _, state = play(state, "p2", END)
    then, state = play(state, "p1", {"type": "attack", "character": "flint", "target": "p2.sable"})
    assert of_type(then, TalentTriggered) == [] and of_type(then, ReturnPending) == []
    assert then[-1] == PlayerDefeated(seat="p2", reason="lost every character")


@pytest.mark.parametrize(("percent", "damage"), [(0, 0), (50, 30), (100, 60)])
def test_second_chance_damage_is_a_share_of_the_armor_rounded_down(percent, damage):
    # given sable (ranger, armor 60) away with Second Chance, and second_chance_damage `percent`
    given = skirmish(unit("p1.flint", (3, 3)), unit("p2.sable", (3, 4), damage=55),
                     params=Params(second_chance_damage=percent))
    _, state = play(given, "p1", {"type": "attack", "character": "flint", "target": "p2.sable"})
    # when p2's turn starts
    then, state = play(state, "p1", END)
    # then sable is back with 60 x percent // 100 damage: 0 (every release before 1.1.0), 30, 60
    assert UnitReturned(unit="p2.sable", cell=[3, 4], damage=damage) in then
    assert (state.units["p2.sable"].damage, state.units["p2.sable"].on_board) == (damage, True)


def test_a_unit_returned_before_1_1_0_reads_as_returned_whole():
    # given a UnitReturned stored at version 1, which had no damage
    data = UnitReturned.upcast_v1_v2({"unit": "p2.sable", "cell": [3, 4]})
    # then it reads with no damage, as 1.0.0 played it
    assert UnitReturned(**data) == UnitReturned(unit="p2.sable", cell=[3, 4], damage=0)


# -- Gathering Storm: Interlude, the Storm counter +1 at the start of each of its turns ---------------

def test_gathering_storm_raises_the_storm_counter_at_the_start_of_each_of_its_turns():
    given = skirmish(unit("p1.ember", (3, 1)), unit("p2.tempest_wyrm", (3, 6)))
    then, state = play(given, "p1", END)
    assert then == [TurnEnded(seat="p1"),
                    TurnStarted(turn=2, seat="p2"),
                    TalentTriggered(unit="p2.tempest_wyrm", talent="gathering_storm"),
                    StormRaised(seat="p2", storm=1, by="p2.tempest_wyrm"),
                    ApRestored(seat="p2", max_ap=1, ap=1),
                    CardsDrawn(seat="p2", count=1, cards=("caster_skill",))]
    then, state = play(state, "p2", END)                    # p1's turn: no raise
    assert of_type(then, StormRaised) == [] and of_type(then, TalentTriggered) == []
    then, state = play(state, "p1", END)
    assert StormRaised(seat="p2", storm=2, by="p2.tempest_wyrm") in then     # 1 + 1
    assert (state.p1.storm, state.p2.storm) == (0, 2)


def test_gathering_storm_of_a_fainted_unit_does_not_trigger():
    given = skirmish(unit("p1.ember", (3, 1)), unit("p2.stormling", (0, 7)),
                     unit("p2.tempest_wyrm", None, fainted=True, exits=1, last_cell=(3, 6)))
    then, state = play(given, "p1", END)
    assert of_type(then, StormRaised) == [] and state.p2.storm == 0

