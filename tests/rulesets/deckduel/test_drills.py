"""Seed 004, Playing a drill: pay, put it into play; its effect applies while it is in play."""
import pytest

from domain.engine.errors import RuleViolation
from domain.engine.hooks import EffectTriggered
from domain.rulesets.deckduel.commands import Pass, PlayAttack, PlayDrill
from domain.rulesets.deckduel.events import (CardsDrawn, CombatEnded, DamageDealt, DiscardRequired, DrillPlayed,
                                             EnergyGained, EnergyPaid, Passed, RoundEnded, RoundStarted)

from .given import decide_after, duel, flips, of_type, play

DAMAGE_DEALT = "deckduel.DamageDealt"


def test_a_drill_is_paid_for_and_put_into_play():
    given = duel(p1_hand=["whetstone", "jab"], p1_energy=["jab", "straight", "hook"], p1_deck=["uppercut"],
                 passes=1)
    then, state = play(given, "p1", PlayDrill(card="whetstone"))
    assert then == [DrillPlayed(seat="p1", card="whetstone"),
                    EnergyPaid(seat="p1", count=2, cards=("jab", "straight"))]
    assert (state.p1.drills, state.p1.hand, state.p1.discard) == (("whetstone",), ("jab",), ())
    assert (state.p1.energy, state.p1.deck) == (("hook",), ("uppercut", "jab", "straight"))
    assert (state.turn, state.passes) == ("p2", 0)


def test_drills_stay_in_play_in_the_order_they_were_played():
    given = duel(p1_hand=["scholar"], p1_energy=["jab", "jab"], p1_drills=["generator"])
    assert play(given, "p1", PlayDrill(card="scholar"))[1].p1.drills == ("generator", "scholar")


def test_a_drill_costing_more_than_the_energy_pile_is_refused():
    with pytest.raises(RuleViolation, match="Scholar's Desk costs 2 energy; you have 1"):
        decide_after(duel(p1_hand=["scholar"], p1_energy=["jab"]), "p1", PlayDrill(card="scholar"))


def test_whetstone_adds_one_to_your_attack_damage():
    given = duel(p1_hand=["jab"], p1_drills=["whetstone"], p2_deck=["jab", "hook", "straight"])
    then, state = play(given, "p1", PlayAttack(card="jab"))
    assert then[1:3] == [EffectTriggered(kind="whetstone", owner="p1", on=DAMAGE_DEALT),
                         DamageDealt(seat="p2", amount=2, source="p1")]
    assert flips(then) == [("jab", True)]                        # 2 -1 = 1, jab shows 1
    assert state.p2.hand == ("jab",)


def test_whetstone_does_not_add_to_counters_or_to_the_opponents_attacks():
    given = duel(p1_hand=["jab"], p1_deck=["jab", "jab"], p2_drills=["whetstone"], p2_deck=["parry", "jab"])
    then = decide_after(given, "p1", PlayAttack(card="jab"))
    assert of_type(then, DamageDealt) == [DamageDealt(seat="p2", amount=1, source="p1"),
                                          DamageDealt(seat="p1", amount=1, source="p2", by="counter")]
    assert of_type(then, EffectTriggered) == []


def test_iron_skin_takes_one_off_the_damage_you_take():
    given = duel(p1_hand=["straight"], p1_energy=["jab"], p2_drills=["iron_skin"], p2_deck=["hook", "jab"])
    then = decide_after(given, "p1", PlayAttack(card="straight"))
    assert then[2:4] == [EffectTriggered(kind="iron_skin", owner="p2", on=DAMAGE_DEALT),
                         DamageDealt(seat="p2", amount=1, source="p1")]
    assert flips(then) == [("hook", False)]


def test_iron_skin_also_blunts_a_counter():
    given = duel(p1_hand=["jab"], p1_drills=["iron_skin"], p1_deck=["jab", "jab"], p2_deck=["parry", "jab"])
    then = decide_after(given, "p1", PlayAttack(card="jab"))
    assert DamageDealt(seat="p1", amount=0, source="p2", by="counter") in then
    assert flips(then) == [("parry", False)]                     # nothing flipped from p1's deck


def test_whetstone_and_iron_skin_cancel_out_whetstone_first():
    given = duel(p1_hand=["straight"], p1_energy=["jab"], p1_drills=["whetstone"], p2_drills=["iron_skin"],
                 p2_deck=["hook", "jab", "jab"])
    then = decide_after(given, "p1", PlayAttack(card="straight"))
    assert then[2:5] == [EffectTriggered(kind="whetstone", owner="p1", on=DAMAGE_DEALT),
                         EffectTriggered(kind="iron_skin", owner="p2", on=DAMAGE_DEALT),
                         DamageDealt(seat="p2", amount=2, source="p1")]


def ready_step_after_combat(**drills: list[str]):
    """p1 is active and has passed; p2 passes too, so round 2 starts with p2 active."""
    given = duel(turn="p2", active="p1", passes=1,
                 p1_deck=["hook", "jab", "straight", "uppercut", "parry"],
                 p2_deck=["riposte", "rebound", "iron_guard", "pocket_sand", "jab"], **drills)
    return play(given, "p2", Pass())


def test_the_ready_step_without_drills_powers_up_one_and_draws_two():
    then, state = ready_step_after_combat()
    assert then == [
        Passed(seat="p2"), CombatEnded(round=1), RoundEnded(round=1), RoundStarted(round=2, active="p2"),
        EnergyGained(seat="p2", count=1, cards=("riposte",)),
        CardsDrawn(seat="p2", count=2, cards=("rebound", "iron_guard")),
        EnergyGained(seat="p1", count=1, cards=("hook",)),
        CardsDrawn(seat="p1", count=2, cards=("jab", "straight")),
    ]
    assert (state.round, state.active, state.turn, state.phase) == (2, "p2", "p2", "combat")


def test_generator_powers_up_one_more_card():
    then, state = ready_step_after_combat(p1_drills=["generator"])
    assert then[6:9] == [EffectTriggered(kind="generator", owner="p1", on="PowerUp"),
                         EnergyGained(seat="p1", count=2, cards=("hook", "jab")),
                         CardsDrawn(seat="p1", count=2, cards=("straight", "uppercut"))]
    assert of_type(then, EnergyGained)[0] == EnergyGained(seat="p2", count=1, cards=("riposte",))
    assert state.p1.energy == ("hook", "jab")


def test_scholar_draws_one_more_card():
    then, state = ready_step_after_combat(p2_drills=["scholar"])
    assert then[4:7] == [EnergyGained(seat="p2", count=1, cards=("riposte",)),
                         EffectTriggered(kind="scholar", owner="p2", on="ReadyDraw"),
                         CardsDrawn(seat="p2", count=3, cards=("rebound", "iron_guard", "pocket_sand"))]
    assert of_type(then, CardsDrawn)[1] == CardsDrawn(seat="p1", count=2, cards=("jab", "straight"))


@pytest.mark.parametrize(("hand", "discard_required"), [
    (9, []),
    (10, [DiscardRequired(seat="p1", over=1)]),
])
def test_deep_pockets_raises_the_hand_size_by_two(hand, discard_required):
    given = duel(turn="p2", active="p1", passes=1, p1_drills=["deep_pockets"], p1_hand=["jab"] * hand,
                 p1_deck=["jab"] * 5, p2_deck=["jab"] * 5)
    then = decide_after(given, "p2", Pass())
    assert EffectTriggered(kind="deep_pockets", owner="p1", on="HandSize") in then
    assert of_type(then, DiscardRequired) == discard_required
