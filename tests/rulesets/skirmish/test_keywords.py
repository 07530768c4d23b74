"""Seed 001, Keywords: Storm, Channel, Exert, Aftermath and Threshold, exactly, with the log
that explains them (KeywordActivated names the card, the keyword and how many times). A card's
`effects` always happen, then its `keyed` steps as its keyword says (cards.toml). README: Storm
counts the player's Storm skills used (this one included) plus Gathering Storm's raises; Exert
(`exert: true`) lowers the maximum AP by 1 and needs a maximum of at least 1; Aftermath needs the
user to have attacked this turn with no Adrenaline to attack again; Threshold needs 5+ AP left
after the card's cost.

Numbers (classes.toml): caster 18 power / 50 armor, ranger 16/60, hunter 12/80, fighter 10/90.
Board: meadow (given.py's default), 7 x 8, no rocks, distance = columns + rows apart.
"""
from __future__ import annotations

from typing import Any

import pytest

from domain.engine.errors import RuleViolation
from domain.rulesets.skirmish.events import (ApRestored, CardPlayed, CardsDrawn, EffectEnded, EffectGiven, Healed,
                                             KeywordActivated, MaxApChanged, SkillDamaged, StormRaised, Struck)
from domain.rulesets.skirmish.state import Chip

from .given import legal, of_type, play, skirmish, unit

END = {"type": "end_turn"}


def card(name: str, character: str, target: str | None = None, exert: bool = False) -> dict[str, Any]:
    return {"type": "play", "card": name, "character": character, "target": target, "exert": exert}


def attack(character: str, target: str) -> dict[str, str]:
    return {"type": "attack", "character": character, "target": target}


def plays_of(state, seat: str, name: str) -> list[dict]:
    return [c for c in legal(state, seat) if c["type"] == "play" and c["card"] == name]


# -- Storm: once for each Storm skill used, this one included ----------------------------------------

def test_storm_activates_once_per_storm_skill_used_including_this_one():
    given = skirmish(unit("p1.ember", (3, 2)), unit("p2.thorn", (3, 5)),
                     p1={"hand": ["spark_volley", "spark_volley"], "ap": 4})
    then, state = play(given, "p1", card("spark_volley", "ember", "p2.thorn"))
    assert then == [CardPlayed(seat="p1", card="spark_volley", character="ember", target="p2.thorn", cost=1),
                    StormRaised(seat="p1", storm=1, by="spark_volley"),
                    KeywordActivated(card="spark_volley", keyword="storm", times=1),
                    SkillDamaged(unit="p2.thorn", card="spark_volley", amount=6, damage=6)]
    then, state = play(state, "p1", card("spark_volley", "ember", "p2.thorn"))
    assert then == [CardPlayed(seat="p1", card="spark_volley", character="ember", target="p2.thorn", cost=1),
                    StormRaised(seat="p1", storm=2, by="spark_volley"),
                    KeywordActivated(card="spark_volley", keyword="storm", times=2),
                    SkillDamaged(unit="p2.thorn", card="spark_volley", amount=6, damage=12),
                    SkillDamaged(unit="p2.thorn", card="spark_volley", amount=6, damage=18)]
    # 6 x 1 + 6 x 2 = 18
    assert (state.p1.storm, state.units["p2.thorn"].damage) == (2, 18)


def test_storm_counts_every_storm_skill_of_the_player_not_only_this_card():
    given = skirmish(unit("p1.cinder", (3, 1)), unit("p2.thorn", (3, 5)),
                     p1={"hand": ["ashen_arrow"], "ap": 2, "storm": 2})
    then, state = play(given, "p1", card("ashen_arrow", "cinder", "p2.thorn"))
    assert then[1:] == [SkillDamaged(unit="p2.thorn", card="ashen_arrow", amount=10, damage=10),   # always
                        StormRaised(seat="p1", storm=3, by="ashen_arrow"),                         # 2 used + this one
                        KeywordActivated(card="ashen_arrow", keyword="storm", times=3),
                        SkillDamaged(unit="p2.thorn", card="ashen_arrow", amount=3, damage=13),
                        SkillDamaged(unit="p2.thorn", card="ashen_arrow", amount=3, damage=16),
                        SkillDamaged(unit="p2.thorn", card="ashen_arrow", amount=3, damage=19)]   # 10 + 3 x 3


def test_a_skill_without_storm_does_not_raise_the_counter():
    given = skirmish(unit("p1.ember", (3, 2)), unit("p2.thorn", (3, 5)), p1={"hand": ["kindle"], "ap": 1, "storm": 1})
    then, state = play(given, "p1", card("kindle", "ember"))
    assert of_type(then, StormRaised) == [] and state.p1.storm == 1


def test_storm_counts_gathering_storms_raises():
    given = skirmish(unit("p1.ember", (3, 1)), unit("p1.flint", (4, 1)),
                     unit("p2.tempest_wyrm", (3, 6)), unit("p2.stormling", (4, 6)),
                     p1={"storm": 5}, p2={"hand": ["squall_line"], "max_ap": 1})
    _, state = play(given, "p1", END)        # p2's turn: Gathering Storm 0 -> 1; AP 1 + 1 = 2
    assert (state.p2.storm, state.p2.ap) == (1, 2)
    then, state = play(state, "p2", card("squall_line", "stormling"))
    assert then == [CardPlayed(seat="p2", card="squall_line", character="stormling", cost=2),
                    StormRaised(seat="p2", storm=2, by="squall_line"),                 # 1 (Gathering Storm) + 1
                    KeywordActivated(card="squall_line", keyword="storm", times=2),
                    SkillDamaged(unit="p1.ember", card="squall_line", amount=1, damage=1),
                    SkillDamaged(unit="p1.flint", card="squall_line", amount=1, damage=1),
                    SkillDamaged(unit="p1.ember", card="squall_line", amount=1, damage=2),
                    SkillDamaged(unit="p1.flint", card="squall_line", amount=1, damage=2)]
    assert state.p1.storm == 5                              # each player has its own counter


# -- Channel: the keyed effect only if the user isn't Restrained; then the user is -------------------

def test_channel_activates_when_the_user_is_free_then_restrains_the_user():
    given = skirmish(unit("p1.flint", (3, 3)), unit("p2.wisp", (3, 5)), active="p2", turn=2,
                     p2={"hand": ["root_bind"], "ap": 2})
    then, state = play(given, "p2", card("root_bind", "wisp", "p1.flint"))
    assert then == [CardPlayed(seat="p2", card="root_bind", character="wisp", target="p1.flint", cost=2),
                    KeywordActivated(card="root_bind", keyword="channel", times=1),
                    EffectGiven(unit="p1.flint", effect="restrained", by="p2"),
                    EffectGiven(unit="p2.wisp", effect="restrained", by="p2")]
    assert state.units["p2.wisp"].chips == (Chip("restrained", "p2"),)


def test_channel_by_a_restrained_user_does_nothing_more():
    given = skirmish(unit("p1.flint", (3, 3)), unit("p2.wisp", (3, 5), effects=["restrained"], by="p1"),
                     active="p2", turn=2, p2={"hand": ["root_bind"], "ap": 2})
    then, state = play(given, "p2", card("root_bind", "wisp", "p1.flint"))
    assert then == [CardPlayed(seat="p2", card="root_bind", character="wisp", target="p1.flint", cost=2)]
    assert state.units["p1.flint"].chips == ()
    assert state.units["p2.wisp"].chips == (Chip("restrained", "p1"),)


@pytest.mark.parametrize("restrained, healed", [(False, 16), (True, 8)])
def test_sap_mending_heals_eight_and_eight_more_through_channel(restrained, healed):
    wisp = unit("p2.wisp", (3, 5), effects=["restrained"], by="p1") if restrained else unit("p2.wisp", (3, 5))
    given = skirmish(unit("p1.flint", (0, 0)), wisp, unit("p2.thorn", (4, 5), damage=25), active="p2", turn=2,
                     p2={"hand": ["sap_mending"], "ap": 2})
    then, state = play(given, "p2", card("sap_mending", "wisp", "p2.thorn"))
    # 25 - 8 = 17 always; Channel (wisp not Restrained): 17 - 8 = 9
    assert of_type(then, Healed) == [Healed(unit="p2.thorn", amount=8, damage=17, by="p2.wisp"),
                                     Healed(unit="p2.thorn", amount=8, damage=9, by="p2.wisp")][:healed // 8]
    assert state.units["p2.thorn"].damage == 25 - healed
    assert of_type(then, KeywordActivated) == ([] if restrained else
                                               [KeywordActivated(card="sap_mending", keyword="channel", times=1)])


def test_a_channels_self_restraint_stops_the_user_until_its_own_next_turn():
    given = skirmish(unit("p1.sable", (3, 2)), unit("p2.wisp", (3, 4)), p1={"hand": ["vanish"], "ap": 2})
    then, state = play(given, "p1", card("vanish", "sable"))
    assert then == [CardPlayed(seat="p1", card="vanish", character="sable", cost=2),
                    EffectGiven(unit="p1.sable", effect="concealed", by="p1"),
                    KeywordActivated(card="vanish", keyword="channel", times=1),
                    EffectGiven(unit="p1.sable", effect="prowess", by="p1"),
                    EffectGiven(unit="p1.sable", effect="restrained", by="p1")]
    with pytest.raises(RuleViolation, match="Restrained"):
        play(state, "p1", attack("sable", "p2.wisp"))
    _, state = play(state, "p1", END)
    then, state = play(state, "p2", END)
    assert EffectEnded(unit="p1.sable", effect="restrained", reason="expired") in then
    then, state = play(state, "p1", attack("sable", "p2.wisp"))
    assert Struck(unit="p1.sable", target="p2.wisp", power=32, damage=32) in then     # 16 x 2 (Prowess)


# -- Exert: `exert: true` lowers the maximum AP by 1 for the keyed effect ---------------------------

def test_exert_lowers_the_maximum_ap_by_one_for_the_keyed_effect():
    given = skirmish(unit("p1.sigil", (3, 2)), unit("p2.brick", (3, 5)), p1={"hand": ["overcharge"], "ap": 5,
                                                                             "max_ap": 5})
    then, state = play(given, "p1", card("overcharge", "sigil", "p2.brick", exert=True))
    assert then == [CardPlayed(seat="p1", card="overcharge", character="sigil", target="p2.brick", exert=True,
                               cost=3),
                    SkillDamaged(unit="p2.brick", card="overcharge", amount=8, damage=8),
                    MaxApChanged(seat="p1", max_ap=4, ap=2, by="overcharge"),       # 5 - 1; 5 - 3 (cost) = 2
                    KeywordActivated(card="overcharge", keyword="exert", times=1),
                    SkillDamaged(unit="p2.brick", card="overcharge", amount=6, damage=14)]     # 8 + 6
    _, state = play(state, "p1", END)
    then, state = play(state, "p2", END)
    assert ApRestored(seat="p1", max_ap=5, ap=5) in then    # the lowered maximum 4, + 1 at the turn's start


def test_exert_false_does_nothing_extra():
    given = skirmish(unit("p1.sigil", (3, 2)), unit("p2.brick", (3, 5)), p1={"hand": ["overcharge"], "ap": 5,
                                                                             "max_ap": 5})
    then, state = play(given, "p1", card("overcharge", "sigil", "p2.brick"))
    assert then == [CardPlayed(seat="p1", card="overcharge", character="sigil", target="p2.brick", cost=3),
                    SkillDamaged(unit="p2.brick", card="overcharge", amount=8, damage=8)]
    assert (state.p1.max_ap, state.p1.ap) == (5, 2)


def test_exert_draws_another_card_with_iron_will():
    given = skirmish(unit("p1.brick", (3, 2)), unit("p2.wisp", (3, 5)),
                     p1={"hand": ["iron_will"], "ap": 3, "max_ap": 3, "deck": ["bark_skin", "gust", "caster_skill"]})
    then, state = play(given, "p1", card("iron_will", "brick", exert=True))
    assert then[1:] == [CardsDrawn(seat="p1", count=1, cards=("bark_skin",)),
                        MaxApChanged(seat="p1", max_ap=2, ap=1, by="iron_will"),    # 3 - 1; 3 - 2 (cost) = 1
                        KeywordActivated(card="iron_will", keyword="exert", times=1),
                        CardsDrawn(seat="p1", count=1, cards=("gust",))]
    assert state.p1.hand == ("bark_skin", "gust")


def test_exert_at_a_maximum_of_one_leaves_zero():
    given = skirmish(unit("p1.sigil", (3, 2)), unit("p2.wisp", (3, 5)), p1={"hand": ["overcharge"], "ap": 3,
                                                                            "max_ap": 1})
    then, state = play(given, "p1", card("overcharge", "sigil", "p2.wisp", exert=True))
    # the maximum 1 - 1 = 0; the AP left, 3 - 3 (cost) = 0, stays 0
    assert then[1:] == [SkillDamaged(unit="p2.wisp", card="overcharge", amount=8, damage=8),
                        MaxApChanged(seat="p1", max_ap=0, ap=0, by="overcharge"),
                        KeywordActivated(card="overcharge", keyword="exert", times=1),
                        SkillDamaged(unit="p2.wisp", card="overcharge", amount=6, damage=14)]
    assert (state.p1.max_ap, state.p1.ap) == (0, 0)


def test_steady_aims_exert_gives_adrenaline_too():
    given = skirmish(unit("p1.quill", (3, 2)), unit("p2.wisp", (3, 5)), p1={"hand": ["steady_aim"], "ap": 2,
                                                                            "max_ap": 2})
    then, state = play(given, "p1", card("steady_aim", "quill", exert=True))
    # the maximum 2 - 1 = 1; the AP left, 2 - 2 (cost) = 0
    assert then[1:] == [EffectGiven(unit="p1.quill", effect="prowess", by="p1"),
                        MaxApChanged(seat="p1", max_ap=1, ap=0, by="steady_aim"),
                        KeywordActivated(card="steady_aim", keyword="exert", times=1),
                        EffectGiven(unit="p1.quill", effect="adrenaline", by="p1")]


def test_exert_is_refused_on_a_card_without_exert():
    given = skirmish(unit("p1.ember", (3, 2)), unit("p2.thorn", (3, 5)), p1={"hand": ["spark_volley"], "ap": 2,
                                                                             "max_ap": 2})
    with pytest.raises(RuleViolation, match="cannot be exerted"):
        play(given, "p1", card("spark_volley", "ember", "p2.thorn", exert=True))
    assert [c["exert"] for c in plays_of(given, "p1", "spark_volley")] == [False]


def test_exert_is_refused_at_a_maximum_of_zero():
    given = skirmish(unit("p1.sigil", (3, 2)), unit("p2.brick", (3, 5)), p1={"hand": ["overcharge"], "ap": 3,
                                                                             "max_ap": 0})
    with pytest.raises(RuleViolation, match="maximum AP"):
        play(given, "p1", card("overcharge", "sigil", "p2.brick", exert=True))
    assert [c["exert"] for c in plays_of(given, "p1", "overcharge")] == [False]
    then, _ = play(given, "p1", card("overcharge", "sigil", "p2.brick"))
    assert of_type(then, MaxApChanged) == []


# -- Aftermath: only if the user has attacked this turn and holds no Adrenaline ----------------------

def rend_after(*attacks: int, adrenaline: bool = False) -> list:
    """p1's fang (hunter, 12) attacks p2's brick `len(attacks)` times, then plays Rend (6, Aftermath 6 more)."""
    given = skirmish(unit("p1.fang", (3, 3), effects=["adrenaline"] if adrenaline else []), unit("p2.brick", (3, 4)),
                     p1={"hand": ["rend"], "ap": 2})
    state = given
    for _ in attacks:
        _, state = play(state, "p1", attack("fang", "p2.brick"))
    then, _ = play(state, "p1", card("rend", "fang", "p2.brick"))
    return then


def test_aftermath_does_not_activate_before_the_user_attacks():
    then = rend_after()
    assert then[1:] == [SkillDamaged(unit="p2.brick", card="rend", amount=6, damage=6)]


def test_aftermath_activates_once_the_user_has_attacked():
    then = rend_after(1)
    assert then[1:] == [SkillDamaged(unit="p2.brick", card="rend", amount=6, damage=18),      # 12 + 6
                        KeywordActivated(card="rend", keyword="aftermath", times=1),
                        SkillDamaged(unit="p2.brick", card="rend", amount=6, damage=24)]      # 12 + 6 + 6


def test_aftermath_does_not_activate_while_adrenaline_could_pay_for_another_attack():
    then = rend_after(1, adrenaline=True)
    assert then[1:] == [SkillDamaged(unit="p2.brick", card="rend", amount=6, damage=18)]     # 12 + 6 only


def test_aftermath_activates_once_adrenaline_is_spent_too():
    then = rend_after(1, 2, adrenaline=True)
    assert then[1:] == [SkillDamaged(unit="p2.brick", card="rend", amount=6, damage=30),      # 12 + 12 + 6
                        KeywordActivated(card="rend", keyword="aftermath", times=1),
                        SkillDamaged(unit="p2.brick", card="rend", amount=6, damage=36)]      # + 6


def test_hot_pursuits_aftermath_is_judged_upon_using_the_skill():
    # Seed: "If the character has fully spent their attacks in the turn upon using the skill".
    # Flint has attacked and holds no Adrenaline when Hot Pursuit is used; the Adrenaline the
    # card itself gives must not cancel its own Aftermath (else "Gain Prowess" could never happen).
    given = skirmish(unit("p1.flint", (3, 3)), unit("p2.brick", (3, 4)), p1={"hand": ["hot_pursuit"], "ap": 1})
    _, state = play(given, "p1", attack("flint", "p2.brick"))
    then, state = play(state, "p1", card("hot_pursuit", "flint"))
    assert then == [CardPlayed(seat="p1", card="hot_pursuit", character="flint", cost=1),
                    EffectGiven(unit="p1.flint", effect="adrenaline", by="p1"),
                    KeywordActivated(card="hot_pursuit", keyword="aftermath", times=1),
                    EffectGiven(unit="p1.flint", effect="prowess", by="p1")]
    then, _ = play(state, "p1", attack("flint", "p2.brick"))
    # 12 x 2 (Prowess) = 24; 12 (first attack) + 24 = 36
    assert of_type(then, Struck)[0] == Struck(unit="p1.flint", target="p2.brick", power=24, damage=36)


# -- Threshold: only if 5+ AP remain once the card is paid for ---------------------------------------

def arc_surge(ap: int) -> list:
    given = skirmish(unit("p1.sigil", (3, 2)), unit("p2.brick", (3, 5)), unit("p2.wisp", (4, 6)),
                     p1={"hand": ["arc_surge"], "ap": ap, "max_ap": ap})
    then, _ = play(given, "p1", card("arc_surge", "sigil"))
    return then


def test_threshold_activates_with_five_ap_left_after_the_cost():
    then = arc_surge(8)                                     # 8 AP - 3 cost = 5 -> yes
    assert then == [CardPlayed(seat="p1", card="arc_surge", character="sigil", cost=3),
                    SkillDamaged(unit="p2.brick", card="arc_surge", amount=3, damage=3),
                    SkillDamaged(unit="p2.wisp", card="arc_surge", amount=3, damage=3),
                    KeywordActivated(card="arc_surge", keyword="threshold", times=1),
                    SkillDamaged(unit="p2.brick", card="arc_surge", amount=3, damage=6),
                    SkillDamaged(unit="p2.wisp", card="arc_surge", amount=3, damage=6)]


def test_threshold_does_not_activate_with_four_ap_left_after_the_cost():
    then = arc_surge(7)                                     # 7 AP - 3 cost = 4 -> no
    assert then == [CardPlayed(seat="p1", card="arc_surge", character="sigil", cost=3),
                    SkillDamaged(unit="p2.brick", card="arc_surge", amount=3, damage=3),
                    SkillDamaged(unit="p2.wisp", card="arc_surge", amount=3, damage=3)]


@pytest.mark.parametrize("ap, gained", [(6, ["amplify", "prowess"]), (5, ["amplify"])])
def test_kindle_gains_prowess_at_threshold(ap, gained):
    # 6 - 1 = 5 -> Amplify and Prowess; 5 - 1 = 4 -> Amplify only
    given = skirmish(unit("p1.ember", (3, 2)), unit("p2.thorn", (3, 5)), p1={"hand": ["kindle"], "ap": ap})
    then, state = play(given, "p1", card("kindle", "ember"))
    assert [e.effect for e in of_type(then, EffectGiven)] == gained
    assert [c.kind for c in state.units["p1.ember"].chips] == gained
