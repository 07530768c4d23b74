"""Seed 001, Effects: each of the seven, exactly, and the log that explains it (EffectGiven,
EffectEnded with its reason). README: a timed effect (Aggression, Concealed, Restrained) ends at
the start of the *giver's* next turn; Amplify adds 2 x the round (both players' turns make a
round); Prowess doubles power, before Amplify; Fortified makes the attack's power 1, after both;
Adrenaline pays for a second walk or attack (never a second counter); skill damage is not an attack.

Numbers (classes.toml): caster 18 power / 50 armor (ranged: reach exactly 2), ranger 16/60
(ranged), hunter 12/80 (melee: reach exactly 1), fighter 10/90 (melee). Board: meadow, 7 x 8, no
rocks, distance = columns + rows apart. `unit(..., effects=[...])` gives the effects by the
unit's own seat unless `by=` says otherwise.
"""
from __future__ import annotations

import pytest

from domain.engine.errors import RuleViolation
from domain.rulesets.skirmish.events import (ApRestored, Attacked, AttackForced, CardPlayed, CardsDrawn,
                                             EffectEnded, EffectGiven, SkillDamaged, Struck,
                                             TurnEnded, TurnStarted, UnitFainted, UnitMoved)
from domain.rulesets.skirmish.state import Chip

from .given import legal, of_type, play, skirmish, unit

END = {"type": "end_turn"}


def attack(character: str, target: str) -> dict[str, str]:
    return {"type": "attack", "character": character, "target": target}


def move(character: str, to: list[int]) -> dict[str, object]:
    return {"type": "move", "character": character, "to": to}


def attacks_of(state, seat: str, character: str) -> list[dict]:
    return [c for c in legal(state, seat) if c["type"] == "attack" and c["character"] == character]


def moves_of(state, seat: str, character: str) -> list[dict]:
    return [c for c in legal(state, seat) if c["type"] == "move" and c["character"] == character]


# -- Aggression: opponents able to attack it do, at the start of their turns ---------------------------

def test_aggression_forces_the_opponents_able_to_attack_at_the_start_of_their_turn():
    given = skirmish(unit("p1.flint", (3, 3)), unit("p1.ember", (3, 2)),
                     unit("p2.brand", (3, 4), effects=["aggression"]), active="p2", turn=2)
    then, state = play(given, "p2", END)
    assert then == [TurnEnded(seat="p2"),
                    TurnStarted(turn=3, seat="p1"),
                    ApRestored(seat="p1", max_ap=1, ap=1),
                    CardsDrawn(seat="p1", count=1, cards=("caster_skill",)),
                    AttackForced(seat="p1", character="flint", target="p2.brand"),      # distance 1 = melee reach
                    Struck(unit="p1.flint", target="p2.brand", power=12, damage=12),
                    Struck(unit="p2.brand", target="p1.flint", power=10, damage=10, counter=True),
                    AttackForced(seat="p1", character="ember", target="p2.brand"),      # distance 2 = ranged reach
                    Struck(unit="p1.ember", target="p2.brand", power=18, damage=30)]    # 12 + 18; brand has countered
    # the forced attacks are the turn's attacks
    assert attacks_of(state, "p1", "flint") == [] and attacks_of(state, "p1", "ember") == []
    assert state.units["p2.brand"].chips == (Chip("aggression", "p2"),)     # still there until p2's turn


def test_aggression_forces_only_units_able_to_attack_it():
    given = skirmish(unit("p1.cinder", (4, 4)),                                  # ranged, at distance 1
                     unit("p1.thorn", (2, 4), effects=["restrained"], by="p2"),  # Restrained
                     unit("p1.fang", (0, 0)),                                    # too far
                     unit("p2.brand", (3, 4), effects=["aggression"]), active="p2", turn=2)
    then, state = play(given, "p2", END)
    assert of_type(then, AttackForced) == [] and of_type(then, Struck) == []


def test_aggression_attacks_the_first_aggressive_opponent_in_team_order():
    given = skirmish(unit("p1.flint", (3, 3)),
                     unit("p2.bramble", (2, 3), effects=["aggression"]),
                     unit("p2.brand", (3, 4), effects=["aggression"]),
                     active="p2", turn=2)
    then, _ = play(given, "p2", END)
    assert of_type(then, AttackForced) == [AttackForced(seat="p1", character="flint", target="p2.bramble")]


def test_challenge_gives_aggression_and_the_opponent_attacks_at_the_start_of_its_turn():
    given = skirmish(unit("p1.brand", (3, 3)), unit("p2.thorn", (3, 4)), p1={"hand": ["fighter_skill"], "ap": 1})
    then, state = play(given, "p1", {"type": "play", "card": "fighter_skill", "character": "brand"})
    assert then == [CardPlayed(seat="p1", card="fighter_skill", character="brand", cost=1),
                    EffectGiven(unit="p1.brand", effect="aggression", by="p1")]
    then, state = play(state, "p1", END)
    assert then[-3:] == [AttackForced(seat="p2", character="thorn", target="p1.brand"),
                         Struck(unit="p2.thorn", target="p1.brand", power=12, damage=12),
                         Struck(unit="p1.brand", target="p2.thorn", power=10, damage=10, counter=True)]


def test_aggression_expires_at_the_start_of_the_givers_next_turn():
    given = skirmish(unit("p1.brand", (3, 3), effects=["aggression"]), unit("p2.thorn", (3, 4), effects=["restrained"],
                                                                           by="p1"))
    _, state = play(given, "p1", END)        # thorn is Restrained (by p1) through p2's turn: no forced attack
    then, state = play(state, "p2", END)
    assert then[:4] == [TurnEnded(seat="p2"), TurnStarted(turn=3, seat="p1"),
                        EffectEnded(unit="p1.brand", effect="aggression", reason="expired"),
                        EffectEnded(unit="p2.thorn", effect="restrained", reason="expired")]
    then, state = play(state, "p1", END)     # p2's turn: thorn is free, brand no longer aggressive
    assert of_type(then, AttackForced) == []


# -- Concealed: can't be targeted by opponents; ends when it attacks or at the giver's next turn ------

def test_concealed_cannot_be_attacked_or_targeted_by_an_enemy_card():
    given = skirmish(unit("p1.ember", (3, 2)), unit("p2.sable", (3, 4), effects=["concealed"]), unit("p2.wisp", (5, 2)),
                     p1={"hand": ["spark_volley"], "ap": 2})
    with pytest.raises(RuleViolation, match="Concealed"):
        play(given, "p1", attack("ember", "p2.sable"))
    with pytest.raises(RuleViolation, match="Concealed"):
        play(given, "p1", {"type": "play", "card": "spark_volley", "character": "ember", "target": "p2.sable"})
    assert attacks_of(given, "p1", "ember") == [{"type": "attack", "character": "ember", "target": "p2.wisp"}]
    assert [c["target"] for c in legal(given, "p1") if c["type"] == "play"] == ["p2.wisp"]


def test_area_cards_still_hit_a_concealed_unit():
    given = skirmish(unit("p1.flint", (0, 0)), unit("p2.sable", (3, 4), effects=["concealed"]), unit("p2.wisp", (5, 2)),
                     p1={"hand": ["flurry_of_sparks"], "ap": 3})
    then, state = play(given, "p1", {"type": "play", "card": "flurry_of_sparks", "character": "flint"})
    # Storm once (this card): 4 damage each, the Concealed sable too
    assert of_type(then, SkillDamaged) == [SkillDamaged(unit="p2.sable", card="flurry_of_sparks", amount=4, damage=4),
                                           SkillDamaged(unit="p2.wisp", card="flurry_of_sparks", amount=4, damage=4)]
    assert state.units["p2.sable"].has("concealed")          # skill damage is no attack of its


def test_concealed_ends_when_the_unit_attacks():
    given = skirmish(unit("p1.cinder", (3, 2), effects=["concealed"]), unit("p2.wisp", (3, 4)))
    then, state = play(given, "p1", attack("cinder", "p2.wisp"))
    assert then == [Attacked(seat="p1", character="cinder", target="p2.wisp"),
                    Struck(unit="p1.cinder", target="p2.wisp", power=16, damage=16),
                    EffectEnded(unit="p1.cinder", effect="concealed", reason="attacked"),
                    Struck(unit="p2.wisp", target="p1.cinder", power=18, damage=18, counter=True)]
    assert state.units["p1.cinder"].chips == ()


def test_fade_conceals_until_the_start_of_the_givers_next_turn():
    given = skirmish(unit("p1.cinder", (3, 2)), unit("p2.wisp", (3, 4)), p1={"hand": ["ranger_skill"], "ap": 1})
    then, state = play(given, "p1", {"type": "play", "card": "ranger_skill", "character": "cinder"})
    assert then == [CardPlayed(seat="p1", card="ranger_skill", character="cinder", cost=1),
                    EffectGiven(unit="p1.cinder", effect="concealed", by="p1")]
    _, state = play(state, "p1", END)
    assert attacks_of(state, "p2", "wisp") == []            # through p2's turn
    then, state = play(state, "p2", END)
    assert then[:3] == [TurnEnded(seat="p2"), TurnStarted(turn=3, seat="p1"),
                        EffectEnded(unit="p1.cinder", effect="concealed", reason="expired")]
    _, state = play(state, "p1", END)
    assert attacks_of(state, "p2", "wisp") == [{"type": "attack", "character": "wisp", "target": "p1.cinder"}]


# -- Amplify: the next attack deals 2 x the round more --------------------------------------------

@pytest.mark.parametrize("turn, power", [(1, 20), (3, 22), (5, 24), (10, 28)])
def test_amplify_adds_two_per_round_to_the_next_attack(turn, power):
    # round = (turn + 1) // 2; 18 + 2 x round: turn 1 -> 20, 3 -> 22, 5 -> 24, 10 (p2's) -> 28
    seat, foe = ("p1", "p2") if turn % 2 else ("p2", "p1")
    given = skirmish(unit(f"{seat}.ember", (3, 2), effects=["amplify"]), unit(f"{foe}.brick", (3, 4)),
                     active=seat, turn=turn)
    then, state = play(given, seat, attack("ember", f"{foe}.brick"))
    assert then == [Attacked(seat=seat, character="ember", target=f"{foe}.brick"),
                    EffectEnded(unit=f"{seat}.ember", effect="amplify", reason="consumed"),
                    Struck(unit=f"{seat}.ember", target=f"{foe}.brick", power=power, damage=power)]
    assert state.units[f"{seat}.ember"].chips == ()


def test_amplify_is_consumed_by_the_first_attack_only():
    given = skirmish(unit("p1.ember", (3, 2), effects=["amplify", "adrenaline"]), unit("p2.brick", (3, 4)))
    then, state = play(given, "p1", attack("ember", "p2.brick"))
    assert of_type(then, Struck) == [Struck(unit="p1.ember", target="p2.brick", power=20, damage=20)]  # 18 + 2 x 1
    then, state = play(state, "p1", attack("ember", "p2.brick"))
    assert of_type(then, Struck) == [Struck(unit="p1.ember", target="p2.brick", power=18, damage=38)]  # 20 + 18


def test_amplify_is_consumed_by_a_counter_attack():
    given = skirmish(unit("p1.flint", (3, 3)), unit("p2.thorn", (3, 4), effects=["amplify"]), turn=3)
    then, _ = play(given, "p1", attack("flint", "p2.thorn"))
    assert then[-2:] == [EffectEnded(unit="p2.thorn", effect="amplify", reason="consumed"),
                         Struck(unit="p2.thorn", target="p1.flint", power=16, damage=16, counter=True)]  # 12 + 2 x 2


def test_arcane_focus_gives_amplify():
    given = skirmish(unit("p1.ember", (3, 2)), unit("p2.brick", (3, 4)), p1={"hand": ["caster_skill"], "ap": 1})
    then, state = play(given, "p1", {"type": "play", "card": "caster_skill", "character": "ember"})
    assert then == [CardPlayed(seat="p1", card="caster_skill", character="ember", cost=1),
                    EffectGiven(unit="p1.ember", effect="amplify", by="p1")]
    then, _ = play(state, "p1", attack("ember", "p2.brick"))
    assert Struck(unit="p1.ember", target="p2.brick", power=20, damage=20) in then     # 18 + 2 x 1


# -- Adrenaline: a second walk or attack in the turn, consumed; never a second counter ------------

def test_adrenaline_pays_for_a_second_attack():
    given = skirmish(unit("p1.fang", (3, 3), effects=["adrenaline"]), unit("p2.brick", (3, 4)))
    then, state = play(given, "p1", attack("fang", "p2.brick"))
    assert then == [Attacked(seat="p1", character="fang", target="p2.brick"),
                    Struck(unit="p1.fang", target="p2.brick", power=12, damage=12),
                    Struck(unit="p2.brick", target="p1.fang", power=10, damage=10, counter=True)]
    assert state.units["p1.fang"].has("adrenaline")         # the first attack is the turn's own
    then, state = play(state, "p1", attack("fang", "p2.brick"))
    assert then == [Attacked(seat="p1", character="fang", target="p2.brick"),
                    EffectEnded(unit="p1.fang", effect="adrenaline", reason="consumed"),
                    Struck(unit="p1.fang", target="p2.brick", power=12, damage=24)]    # 12 + 12; brick countered
    with pytest.raises(RuleViolation, match="cannot attack again"):
        play(state, "p1", attack("fang", "p2.brick"))
    assert attacks_of(state, "p1", "fang") == []


def test_adrenaline_pays_for_a_second_walk():
    given = skirmish(unit("p1.fang", (0, 0), effects=["adrenaline"]), unit("p2.brick", (6, 7)))
    then, state = play(given, "p1", move("fang", [0, 1]))
    assert then == [UnitMoved(seat="p1", character="fang", to=[0, 1], path=[[0, 1]])]
    then, state = play(state, "p1", move("fang", [0, 2]))
    assert then == [UnitMoved(seat="p1", character="fang", to=[0, 2], path=[[0, 2]]),
                    EffectEnded(unit="p1.fang", effect="adrenaline", reason="consumed")]
    with pytest.raises(RuleViolation, match="cannot move again"):
        play(state, "p1", move("fang", [0, 3]))
    assert moves_of(state, "p1", "fang") == []


def test_adrenaline_is_not_a_second_counter_attack():
    given = skirmish(unit("p1.flint", (3, 3)), unit("p1.thorn", (2, 4)),
                     unit("p2.fang", (3, 4), effects=["adrenaline"]))
    then, state = play(given, "p1", attack("flint", "p2.fang"))
    assert Struck(unit="p2.fang", target="p1.flint", power=12, damage=12, counter=True) in then
    then, state = play(state, "p1", attack("thorn", "p2.fang"))
    assert then == [Attacked(seat="p1", character="thorn", target="p2.fang"),
                    Struck(unit="p1.thorn", target="p2.fang", power=12, damage=24)]     # no counter
    assert state.units["p2.fang"].chips == (Chip("adrenaline", "p2"),)                  # not consumed


# -- Prowess: double power on the next attack, consumed --------------------------------------------

def test_prowess_doubles_the_power_of_the_next_attack():
    given = skirmish(unit("p1.ember", (3, 2), effects=["prowess", "adrenaline"]), unit("p2.brick", (3, 4)))
    then, state = play(given, "p1", attack("ember", "p2.brick"))
    assert then == [Attacked(seat="p1", character="ember", target="p2.brick"),
                    EffectEnded(unit="p1.ember", effect="prowess", reason="consumed"),
                    Struck(unit="p1.ember", target="p2.brick", power=36, damage=36)]    # 18 x 2 (Prowess)
    then, state = play(state, "p1", attack("ember", "p2.brick"))
    assert of_type(then, Struck) == [Struck(unit="p1.ember", target="p2.brick", power=18, damage=54)]  # 36 + 18


def test_prowess_applies_before_amplify():
    given = skirmish(unit("p1.ember", (3, 2), effects=["amplify", "prowess"]), unit("p2.brick", (3, 4)), turn=3)
    then, _ = play(given, "p1", attack("ember", "p2.brick"))
    assert then[1:] == [EffectEnded(unit="p1.ember", effect="prowess", reason="consumed"),
                        EffectEnded(unit="p1.ember", effect="amplify", reason="consumed"),
                        Struck(unit="p1.ember", target="p2.brick", power=40, damage=40)]   # 18 x 2 + 2 x 2 (round 2)


# -- Fortified: the next attack against it deals 1, consumed -----------------------------------------

def test_fortified_makes_the_next_attack_against_it_deal_one():
    given = skirmish(unit("p1.ember", (3, 2)), unit("p1.cinder", (5, 4)),
                     unit("p2.brick", (3, 4), effects=["fortified"]))
    then, state = play(given, "p1", attack("ember", "p2.brick"))
    assert then == [Attacked(seat="p1", character="ember", target="p2.brick"),
                    EffectEnded(unit="p2.brick", effect="fortified", reason="consumed"),
                    Struck(unit="p1.ember", target="p2.brick", power=1, damage=1)]
    then, state = play(state, "p1", attack("cinder", "p2.brick"))
    assert of_type(then, Struck) == [Struck(unit="p1.cinder", target="p2.brick", power=16, damage=17)]  # 1 + 16


def test_fortified_applies_after_prowess_and_amplify_and_all_three_are_consumed():
    given = skirmish(unit("p1.ember", (3, 2), effects=["prowess", "amplify"]),
                     unit("p2.brick", (3, 4), effects=["fortified"]), turn=5)
    then, state = play(given, "p1", attack("ember", "p2.brick"))
    # 18 x 2 + 2 x 3 = 42, then Fortified: 1
    assert then[1:] == [EffectEnded(unit="p1.ember", effect="prowess", reason="consumed"),
                        EffectEnded(unit="p1.ember", effect="amplify", reason="consumed"),
                        EffectEnded(unit="p2.brick", effect="fortified", reason="consumed"),
                        Struck(unit="p1.ember", target="p2.brick", power=1, damage=1)]
    assert state.units["p1.ember"].chips == () and state.units["p2.brick"].chips == ()


def test_fortified_also_blunts_a_counter_attack():
    given = skirmish(unit("p1.flint", (3, 3), effects=["fortified"]), unit("p2.thorn", (3, 4)))
    then, _ = play(given, "p1", attack("flint", "p2.thorn"))
    assert then[-2:] == [EffectEnded(unit="p1.flint", effect="fortified", reason="consumed"),
                         Struck(unit="p2.thorn", target="p1.flint", power=1, damage=1, counter=True)]


def test_skill_damage_does_not_consume_fortified():
    given = skirmish(unit("p1.ember", (3, 2)), unit("p2.brick", (3, 4), effects=["fortified"]),
                     p1={"hand": ["spark_volley"], "ap": 2})
    then, state = play(given, "p1", {"type": "play", "card": "spark_volley", "character": "ember",
                                     "target": "p2.brick"})
    assert of_type(then, SkillDamaged) == [SkillDamaged(unit="p2.brick", card="spark_volley", amount=6, damage=6)]
    assert of_type(then, EffectEnded) == [] and state.units["p2.brick"].has("fortified")


# -- Restrained: no walk, attack or counter; skills allowed -----------------------------------------

def test_a_restrained_unit_cannot_walk_or_attack_but_can_use_skills():
    given = skirmish(unit("p1.flint", (3, 3), effects=["restrained"], by="p2"), unit("p2.brick", (3, 4)),
                     p1={"hand": ["hunter_skill"], "ap": 1})
    with pytest.raises(RuleViolation, match="Restrained"):
        play(given, "p1", move("flint", [3, 2]))
    with pytest.raises(RuleViolation, match="Restrained"):
        play(given, "p1", attack("flint", "p2.brick"))
    assert moves_of(given, "p1", "flint") == [] and attacks_of(given, "p1", "flint") == []
    then, state = play(given, "p1", {"type": "play", "card": "hunter_skill", "character": "flint"})
    assert then == [CardPlayed(seat="p1", card="hunter_skill", character="flint", cost=1),
                    EffectGiven(unit="p1.flint", effect="adrenaline", by="p1")]
    with pytest.raises(RuleViolation, match="Restrained"):      # Adrenaline does not lift it
        play(state, "p1", attack("flint", "p2.brick"))


def test_a_restrained_unit_does_not_counter_attack():
    given = skirmish(unit("p1.flint", (3, 3)), unit("p2.brick", (3, 4), effects=["restrained"], by="p1"))
    then, _ = play(given, "p1", attack("flint", "p2.brick"))
    assert then == [Attacked(seat="p1", character="flint", target="p2.brick"),
                    Struck(unit="p1.flint", target="p2.brick", power=12, damage=12)]


def test_a_restrained_given_by_the_opponent_lasts_through_the_holders_next_turn():
    given = skirmish(unit("p1.flint", (3, 3)), unit("p2.wisp", (3, 5)), active="p2", turn=2,
                     p2={"hand": ["root_bind"], "ap": 2})
    then, state = play(given, "p2", {"type": "play", "card": "root_bind", "character": "wisp", "target": "p1.flint"})
    assert EffectGiven(unit="p1.flint", effect="restrained", by="p2") in then
    then, state = play(state, "p2", END)                    # p1's turn: flint stays Restrained
    assert of_type(then, EffectEnded) == []
    assert moves_of(state, "p1", "flint") == []
    with pytest.raises(RuleViolation, match="Restrained"):
        play(state, "p1", move("flint", [3, 2]))
    then, state = play(state, "p1", END)                    # p2's next turn: expired
    assert then[:4] == [TurnEnded(seat="p1"), TurnStarted(turn=4, seat="p2"),
                        EffectEnded(unit="p1.flint", effect="restrained", reason="expired"),
                        EffectEnded(unit="p2.wisp", effect="restrained", reason="expired")]   # wisp's Channel
    assert state.units["p1.flint"].chips == ()


# -- An effect already present: applying it again does nothing ---------------------------------------

def test_applying_an_effect_already_present_does_nothing():
    given = skirmish(unit("p1.ember", (3, 2), effects=["amplify"]), unit("p2.brick", (3, 4)),
                     p1={"hand": ["caster_skill"], "ap": 1})
    then, state = play(given, "p1", {"type": "play", "card": "caster_skill", "character": "ember"})
    assert then == [CardPlayed(seat="p1", card="caster_skill", character="ember", cost=1)]     # no EffectGiven
    assert state.units["p1.ember"].chips == (Chip("amplify", "p1"),)
    then, _ = play(state, "p1", attack("ember", "p2.brick"))
    assert of_type(then, Struck)[0].power == 20             # one Amplify: 18 + 2 x 1


def test_giving_an_opponent_an_effect_it_already_holds_does_nothing():
    given = skirmish(unit("p1.flint", (3, 3), effects=["restrained"], by="p2"), unit("p2.wisp", (3, 5)),
                     active="p2", turn=2, p2={"hand": ["root_bind"], "ap": 2})
    then, state = play(given, "p2", {"type": "play", "card": "root_bind", "character": "wisp", "target": "p1.flint"})
    assert of_type(then, EffectGiven) == [EffectGiven(unit="p2.wisp", effect="restrained", by="p2")]
    assert state.units["p1.flint"].chips == (Chip("restrained", "p2"),)


# -- The log: a unit that faints loses its effects, and says so ---------------------------------------

def test_a_fainting_unit_loses_its_effects_and_the_log_says_so():
    given = skirmish(unit("p1.ember", (3, 2)), unit("p2.wisp", (3, 4), damage=40, effects=["prowess", "amplify"]),
                     unit("p2.brick", (0, 7)))
    then, state = play(given, "p1", attack("ember", "p2.wisp"))
    # 40 + 18 = 58 > 50 -> wisp faints holding Prowess and Amplify
    assert UnitFainted(unit="p2.wisp") in then
    assert state.units["p2.wisp"].chips == ()
    assert of_type(then, EffectEnded) == [EffectEnded(unit="p2.wisp", effect="prowess", reason="fainted"),
                                          EffectEnded(unit="p2.wisp", effect="amplify", reason="fainted")]
