"""Seed 001, Cards and Defeat: one card drawn at the start of each turn; a card drawn into a hand
of 7 is discarded (face up, README); drawing from an empty deck loses; a unique card is its
character's, a class card any unit of that class's; self, ally and enemy targets; a played card
goes from the hand to the discard pile."""
from __future__ import annotations


from domain.engine.events import Viewer, redact
from domain.engine.ruleset import Outcome
from domain.rulesets.skirmish.commands import EndTurn, Play
from domain.rulesets.skirmish.decide import outcome
from domain.rulesets.skirmish.events import (CardBurned, CardPlayed, CardsDrawn, DrawFailed, EffectGiven,
                                             PlayerDefeated, SkillDamaged, TurnStarted)
from domain.rulesets.skirmish.state import Params

from .given import decide_after, legal, of_type, play, refused, skirmish, unit

SEVEN = ["caster_skill", "kindle", "spark_volley", "caster_skill", "kindle", "spark_volley", "caster_skill"]


def plays(state, seat="p1"):
    return [(c["card"], c["character"], c["target"]) for c in legal(state, seat) if c["type"] == "play"]


# -- Drawing ----------------------------------------------------------------------------------

def test_a_player_draws_one_card_at_the_start_of_each_turn():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (3, 6)),
                     p2={"hand": ["root_bind"], "deck": ["sap_mending", "caster_skill", "root_bind"]})
    then, state = play(given, "p1", EndTurn())
    assert of_type(then, CardsDrawn) == [CardsDrawn(seat="p2", count=1, cards=("sap_mending",))]
    assert state.p2.hand == ("root_bind", "sap_mending")
    assert state.p2.deck == ("caster_skill", "root_bind")          # 3 - 1 = 2 left


def test_the_draw_is_secret_to_its_seat():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (3, 6)), p2={"deck": ["sap_mending"]})
    [drawn] = of_type(decide_after(given, "p1", EndTurn()), CardsDrawn)
    assert redact(drawn, Viewer(seat="p1"), False)[0]["cards"] is None
    assert redact(drawn, Viewer(), False)[0]["cards"] is None
    assert redact(drawn, Viewer(seat="p2"), False)[0]["cards"] == ("sap_mending",)


def test_a_hand_of_six_draws_a_seventh_card():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (3, 6)),
                     p2={"hand": SEVEN[:6], "deck": ["sap_mending", "root_bind"]})
    then, state = play(given, "p1", EndTurn())
    assert of_type(then, CardsDrawn) == [CardsDrawn(seat="p2", count=1, cards=("sap_mending",))]
    assert len(state.p2.hand) == 7                                  # 6 + 1


def test_a_card_drawn_into_a_hand_of_seven_is_discarded_face_up():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (3, 6)),
                     p2={"hand": SEVEN, "deck": ["sap_mending", "root_bind"], "discard": ["caster_skill"]})
    then, state = play(given, "p1", EndTurn())
    assert of_type(then, CardsDrawn) == []
    assert of_type(then, CardBurned) == [CardBurned(seat="p2", card="sap_mending")]
    assert state.p2.hand == tuple(SEVEN)                            # still 7
    assert state.p2.discard == ("caster_skill", "sap_mending")     # on top
    assert state.p2.deck == ("root_bind",)                          # 2 - 1 = 1
    [burned] = of_type(then, CardBurned)
    assert redact(burned, Viewer(seat="p1"), False) == ({"seat": "p2", "card": "sap_mending"}, True)


def test_the_hand_limit_is_a_param():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (3, 6)), params=Params(hand_limit=2),
                     p2={"hand": ["root_bind", "root_bind"], "deck": ["sap_mending"]})
    then, _ = play(given, "p1", EndTurn())
    assert of_type(then, CardBurned) == [CardBurned(seat="p2", card="sap_mending")]


def test_drawing_from_an_empty_deck_loses_the_match():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (3, 6)), p2={"hand": ["root_bind"], "deck": []})
    then, state = play(given, "p1", EndTurn())
    assert then[-2:] == [DrawFailed(seat="p2"), PlayerDefeated(seat="p2", reason="drew from an empty deck")]
    assert of_type(then, TurnStarted) == [TurnStarted(turn=2, seat="p2")]
    assert state.defeated == (("p2", "drew from an empty deck"),)
    assert outcome(state) == Outcome(winner="p1", reason="p2 drew from an empty deck")


def test_a_full_hand_does_not_save_a_player_from_an_empty_deck():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (3, 6)), p2={"hand": SEVEN, "deck": []})
    then, state = play(given, "p1", EndTurn())
    assert of_type(then, PlayerDefeated) == [PlayerDefeated(seat="p2", reason="drew from an empty deck")]
    assert outcome(state) == Outcome(winner="p1", reason="p2 drew from an empty deck")


def test_drawing_the_last_card_is_not_a_loss():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (3, 6)), p2={"deck": ["root_bind"]})
    then, state = play(given, "p1", EndTurn())
    assert of_type(then, PlayerDefeated) == []
    assert (state.p2.deck, state.p2.hand, outcome(state)) == ((), ("root_bind",), None)


# -- Who may use a card -----------------------------------------------------------------------

def test_a_unique_card_is_used_by_its_character():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p1.ember", (4, 1)), unit("p2.wisp", (3, 6)),
                     p1={"hand": ["war_drum"], "ap": 3})
    then, _ = play(given, "p1", Play(card="war_drum", character="brand"))
    assert of_type(then, EffectGiven) == [EffectGiven(unit="p1.brand", effect="fortified", by="p1")]


def test_a_unique_card_is_refused_to_any_other_character():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p1.ember", (4, 1)), unit("p2.wisp", (3, 6)),
                     p1={"hand": ["war_drum"], "ap": 3})
    refused(given, "p1", Play(card="war_drum", character="ember"), "ember cannot use War Drum")
    assert plays(given) == [("war_drum", "brand", None)]


def test_a_unique_card_of_a_character_not_fielded_cannot_be_used():
    given = skirmish(unit("p1.ember", (4, 1)), unit("p2.wisp", (3, 6)), p1={"hand": ["war_drum"], "ap": 3})
    refused(given, "p1", Play(card="war_drum", character="brand"), "'brand' is not one of your fielded characters")
    assert plays(given) == []


def test_a_card_whose_user_has_fainted_stays_in_hand_unplayable():
    given = skirmish(unit("p1.brand", None, fainted=True, damage=91), unit("p1.ember", (4, 1)),
                     unit("p2.wisp", (3, 6)), p1={"hand": ["war_drum"], "ap": 3})
    refused(given, "p1", Play(card="war_drum", character="brand"), "brand has fainted")
    assert plays(given) == []


def test_a_class_card_is_used_by_any_unit_of_that_class():
    given = skirmish(unit("p1.ember", (3, 1)), unit("p1.sigil", (4, 1)), unit("p1.brand", (5, 1)),
                     unit("p2.wisp", (3, 6)), p1={"hand": ["caster_skill"], "ap": 3})
    # Ember and Sigil are Casters; Brand is a Fighter
    assert plays(given) == [("caster_skill", "ember", None), ("caster_skill", "sigil", None)]
    then, _ = play(given, "p1", Play(card="caster_skill", character="sigil"))
    assert of_type(then, EffectGiven) == [EffectGiven(unit="p1.sigil", effect="amplify", by="p1")]
    refused(given, "p1", Play(card="caster_skill", character="brand"), "brand cannot use Arcane Focus")


def test_a_card_not_in_hand_is_refused():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (3, 6)), p1={"hand": ["war_drum"], "ap": 3})
    refused(given, "p1", Play(card="rallying_cry", character="brand"), "'rallying_cry' is not in your hand")
    refused(given, "p1", Play(card="no_such_card", character="brand"), "'no_such_card' is not in your hand")


# -- Targets ----------------------------------------------------------------------------------

def test_a_self_card_takes_no_target():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (3, 2)), p1={"hand": ["war_drum"], "ap": 3})
    refused(given, "p1", Play(card="war_drum", character="brand", target="p2.wisp"), "War Drum takes no target")
    refused(given, "p1", Play(card="war_drum", character="brand", target="p1.brand"), "War Drum takes no target")


def test_an_enemy_card_hits_an_enemy_within_its_range():
    # Root Bind reaches 3 tiles; Brand is 0 + 3 = 3 from Wisp
    given = skirmish(unit("p1.brand", (3, 3)), unit("p2.wisp", (3, 6)), active="p2",
                     p2={"hand": ["root_bind"], "ap": 3})
    then, state = play(given, "p2", Play(card="root_bind", character="wisp", target="p1.brand"))
    assert of_type(then, CardPlayed) == [CardPlayed(seat="p2", card="root_bind", character="wisp",
                                                    target="p1.brand", cost=2)]
    assert state.units["p1.brand"].has("restrained")


def test_an_enemy_card_does_not_reach_beyond_its_range():
    # Root Bind reaches 3 tiles; Brand is 1 + 3 = 4 from Wisp
    given = skirmish(unit("p1.brand", (2, 3)), unit("p2.wisp", (3, 6)), active="p2",
                     p2={"hand": ["root_bind"], "ap": 3})
    refused(given, "p2", Play(card="root_bind", character="wisp", target="p1.brand"),
            "Root Bind reaches 3 tiles; brand is 4 away")
    assert plays(given, "p2") == []


def test_an_enemy_card_reaches_over_and_inside_its_range_not_only_exactly():
    # Spark Volley reaches 4: targets 1 and 4 away are both in range
    given = skirmish(unit("p1.ember", (3, 3)), unit("p2.brick", (3, 4)), unit("p2.wisp", (3, 7)),
                     p1={"hand": ["spark_volley"], "ap": 3})
    assert plays(given) == [("spark_volley", "ember", "p2.brick"), ("spark_volley", "ember", "p2.wisp")]
    then, _ = play(given, "p1", Play(card="spark_volley", character="ember", target="p2.wisp"))
    # Storm: 0 used before + this one = 1 time x 6 damage
    assert of_type(then, SkillDamaged) == [SkillDamaged(unit="p2.wisp", card="spark_volley", amount=6, damage=6)]


def test_an_enemy_card_needs_an_enemy_target():
    given = skirmish(unit("p1.ember", (3, 3)), unit("p1.brand", (3, 4)), unit("p2.wisp", (3, 6)),
                     p1={"hand": ["spark_volley"], "ap": 3})
    for target in (None, "p1.brand", "p1.ember", "p2.nobody"):
        refused(given, "p1", Play(card="spark_volley", character="ember", target=target),
                "Spark Volley needs an opponent on the board as its target")


def test_an_ally_card_targets_an_ally_or_its_user():
    given = skirmish(unit("p1.cinder", (3, 1)), unit("p1.brand", (5, 1)), unit("p2.wisp", (3, 6)),
                     p1={"hand": ["smoke_veil"], "ap": 3})
    assert plays(given) == [("smoke_veil", "cinder", "p1.cinder"), ("smoke_veil", "cinder", "p1.brand")]
    then, _ = play(given, "p1", Play(card="smoke_veil", character="cinder", target="p1.brand"))
    assert of_type(then, EffectGiven) == [EffectGiven(unit="p1.brand", effect="concealed", by="p1")]


def test_an_ally_card_needs_an_ally_target():
    given = skirmish(unit("p1.cinder", (3, 1)), unit("p1.brand", (5, 1)), unit("p2.wisp", (3, 6)),
                     p1={"hand": ["smoke_veil"], "ap": 3})
    for target in (None, "p2.wisp"):
        refused(given, "p1", Play(card="smoke_veil", character="cinder", target=target),
                "Smoke Veil needs an ally on the board as its target")


def test_an_all_enemies_card_takes_no_target_and_hits_every_enemy_standing():
    given = skirmish(unit("p1.sigil", (3, 1)), unit("p2.wisp", (3, 6)), unit("p2.brick", (0, 7)),
                     unit("p2.sable", None, fainted=True, damage=61), p1={"hand": ["arc_surge"], "ap": 3})
    refused(given, "p1", Play(card="arc_surge", character="sigil", target="p2.wisp"), "Arc Surge takes no target")
    then, _ = play(given, "p1", Play(card="arc_surge", character="sigil"))
    # 3 damage each to the two standing; 3 - 3 = 0 AP left < 5: no Threshold
    assert of_type(then, SkillDamaged) == [SkillDamaged(unit="p2.wisp", card="arc_surge", amount=3, damage=3),
                                           SkillDamaged(unit="p2.brick", card="arc_surge", amount=3, damage=3)]


# -- Hand to discard --------------------------------------------------------------------------

def test_a_played_card_goes_from_the_hand_to_the_discard_pile():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (3, 6)),
                     p1={"hand": ["fighter_skill", "war_drum", "fighter_skill"], "discard": ["bark_skin"], "ap": 3})
    then, state = play(given, "p1", Play(card="fighter_skill", character="brand"))
    assert then[0] == CardPlayed(seat="p1", card="fighter_skill", character="brand", cost=1)
    assert state.p1.hand == ("war_drum", "fighter_skill")           # one copy left the hand
    assert state.p1.discard == ("bark_skin", "fighter_skill")       # on top
    assert state.p1.deck == given.p1.deck


def test_a_played_card_is_public():
    given = skirmish(unit("p1.brand", (3, 1)), unit("p2.wisp", (3, 6)), p1={"hand": ["war_drum"], "ap": 3})
    played = decide_after(given, "p1", Play(card="war_drum", character="brand"))[0]
    data, whole = redact(played, Viewer(seat="p2"), False)
    assert whole and data["card"] == "war_drum"
