"""Seed 004, Paying Energy and Playing an attack: pay, do what the card says, deal its arrows."""
import pytest
from msgspec.structs import replace

from domain.engine.errors import RuleViolation
from domain.engine.hooks import EffectTriggered
from domain.rulesets.deckduel.commands import PlayAttack, PlayDrill
from domain.rulesets.deckduel.legal import legal_commands
from domain.rulesets.deckduel.events import (AttackPlayed, AttackResolved, CardKnockedAway, CardsDrawn,
                                             CardsMilled, CardsRecovered, DamageDealt, DamageFlipped,
                                             DrillDestroyed, EnergyGained, EnergyPaid)

from domain.engine.rng import Rng
from domain.rulesets.deckduel.content import CARDS
from domain.rulesets.deckduel.effects.attacks import recover
from domain.rulesets.deckduel.hooks import RESOLVING, Strike

from .given import decide_after, duel, flips, of_type, play, remaining, topics

# Seed 004, Paying Energy.

def test_paying_moves_the_top_energy_cards_to_the_bottom_of_the_deck():
    given = duel(p1_hand=["hook"], p1_energy=["jab", "straight", "uppercut"], p1_deck=["haymaker"],
                 p2_deck=["jab", "jab", "jab", "jab"])
    then, state = play(given, "p1", PlayAttack(card="hook"))
    assert then == [
        AttackPlayed(seat="p1", card="hook"),
        EnergyPaid(seat="p1", count=2, cards=("jab", "straight")),
        DamageDealt(seat="p2", amount=3, source="p1"),
        DamageFlipped(seat="p2", card="jab", icons=1, perfect=False, remaining=1),
        DamageFlipped(seat="p2", card="jab", icons=1, perfect=False, remaining=0),
        AttackResolved(seat="p1", card="hook"),
    ]
    assert state.p1.deck == ("haymaker", "jab", "straight")
    assert state.p1.energy == ("uppercut",)


def test_an_attack_costing_more_than_the_energy_pile_is_refused():
    given = duel(p1_hand=["hook"], p1_energy=["jab"])
    with pytest.raises(RuleViolation, match="Hook costs 2 energy; you have 1") as refused:
        decide_after(given, "p1", PlayAttack(card="hook"))
    assert refused.value.details == {"cost": 2, "energy": 1}
    assert PlayAttack(card="hook") not in legal_commands(given, "p1")


def test_a_free_attack_pays_nothing():
    then = decide_after(duel(p1_hand=["jab"], p2_deck=["hook", "jab"]), "p1", PlayAttack(card="jab"))
    assert of_type(then, EnergyPaid) == []


def test_focus_lens_makes_attacks_cost_one_less():
    given = duel(p1_hand=["hook"], p1_energy=["straight"], p1_drills=["focus_lens"], p1_deck=["jab"],
                 p2_deck=["jab", "jab", "jab"])
    assert PlayAttack(card="hook") in legal_commands(given, "p1")
    then, state = play(given, "p1", PlayAttack(card="hook"))
    assert of_type(then, EnergyPaid) == [EnergyPaid(seat="p1", count=1, cards=("straight",))]
    assert EffectTriggered(kind="focus_lens", owner="p1", on="Cost") in then
    assert (state.p1.energy, state.p1.deck) == ((), ("jab", "straight"))


def test_the_attack_is_still_the_first_event_when_a_drill_changes_its_cost():
    """The action event opens its batch: replay verification re-runs the command it echoes."""
    given = duel(p1_hand=["hook"], p1_energy=["straight"], p1_drills=["focus_lens"], p2_deck=["jab", "jab"])
    then = decide_after(given, "p1", PlayAttack(card="hook"))
    assert then[0] == AttackPlayed(seat="p1", card="hook")
    assert topics(then)[:3] == ["AttackPlayed", "EffectTriggered", "EnergyPaid"]


def test_focus_lens_does_not_go_below_zero_or_discount_drills_or_help_the_opponent():
    free = decide_after(duel(p1_hand=["jab"], p1_drills=["focus_lens"], p2_deck=["hook", "jab"]),
                        "p1", PlayAttack(card="jab"))
    assert of_type(free, EffectTriggered) == []
    with pytest.raises(RuleViolation, match="Whetstone costs 2 energy; you have 1"):
        decide_after(duel(p1_hand=["whetstone"], p1_energy=["jab"], p1_drills=["focus_lens"]),
                     "p1", PlayDrill(card="whetstone"))
    with pytest.raises(RuleViolation, match="Hook costs 2 energy; you have 1"):
        decide_after(duel(p1_hand=["hook"], p1_energy=["jab"], p2_drills=["focus_lens"]),
                     "p1", PlayAttack(card="hook"))


# Seed 004, Playing an attack.

def test_the_attack_card_ends_in_the_discard_pile_and_the_turn_passes():
    given = duel(p1_hand=["straight", "jab"], p1_energy=["jab"], p1_discard=["hook"], passes=1,
                 p2_deck=["hook", "jab"])
    then, state = play(given, "p1", PlayAttack(card="straight"))
    assert then[-1] == AttackResolved(seat="p1", card="straight")
    assert (state.p1.hand, state.p1.discard) == (("jab",), ("hook", "straight"))
    assert (state.turn, state.passes) == ("p2", 0)


@pytest.mark.parametrize(("hand", "cmd", "message"), [
    (["jab"], PlayAttack(card="hook"), "'hook' is not in your hand"),
    (["jab"], PlayAttack(card="no_such_card"), "'no_such_card' is not in your hand"),
    (["whetstone"], PlayAttack(card="whetstone"), "Whetstone is a drill, not a attack"),
    (["jab"], PlayDrill(card="jab"), "Jab is a attack, not a drill"),
])
def test_only_a_card_in_hand_of_the_right_kind_can_be_played(hand, cmd, message):
    with pytest.raises(RuleViolation, match=message):
        decide_after(duel(p1_hand=hand, p1_energy=["jab"] * 3), "p1", cmd)


def test_draw_effect_draws_before_the_damage():
    given = duel(p1_hand=["quick_draw"], p1_energy=["straight"], p1_deck=["hook", "jab"], p2_deck=["jab", "jab"])
    then, state = play(given, "p1", PlayAttack(card="quick_draw"))
    assert topics(then) == ["AttackPlayed", "EnergyPaid", "CardsDrawn", "DamageDealt", "DamageFlipped",
                            "AttackResolved"]
    assert CardsDrawn(seat="p1", count=1, cards=("hook",)) in then
    assert (state.p1.hand, state.p1.deck) == (("hook",), ("jab", "straight"))


def test_energize_effect_powers_up_from_the_top_of_the_deck():
    given = duel(p1_hand=["spark_jab"], p1_energy=["uppercut"], p1_deck=["hook", "jab"], p2_deck=["hook", "jab"])
    then, state = play(given, "p1", PlayAttack(card="spark_jab"))
    assert then[1] == EnergyGained(seat="p1", count=1, cards=("hook",))
    assert (state.p1.energy, state.p1.deck) == (("uppercut", "hook"), ("jab",))


def test_pierce_makes_the_first_flip_defend_nothing():
    given = duel(p1_hand=["piercing_lance"], p1_energy=["jab", "jab"], p2_deck=["jab", "hook", "straight"])
    then, state = play(given, "p1", PlayAttack(card="piercing_lance"))
    assert DamageDealt(seat="p2", amount=2, source="p1", pierce=1) in then
    # 2 -1 = 1, jab's icon ignored (no perfect defense); 1 -1 = 0 on hook
    assert flips(then) == [("jab", False), ("hook", False)]
    assert [e.icons for e in of_type(then, DamageFlipped)] == [0, 2]
    assert remaining(then) == [1, 0]
    assert state.p2.deck == ("straight",)


def test_a_pierced_flip_is_never_a_perfect_defense():
    """Pierce makes a card defend nothing; it must not turn hook's 2 icons into a perfect 0."""
    given = duel(p1_hand=["piercing_lance"], p1_energy=["jab", "jab"], p2_drills=["iron_skin"],
                 p2_deck=["hook", "jab", "jab"])
    then, state = play(given, "p1", PlayAttack(card="piercing_lance"))
    # 2 arrows -1 iron skin = 1; 1 -1 = 0 on the pierced hook: as unpierced, no exact match
    assert flips(then) == [("hook", False)]
    assert (state.p2.hand, state.p2.discard) == ((), ("hook",))


def test_mill_discards_the_top_of_the_opponents_deck_before_the_damage():
    given = duel(p1_hand=["grinding_blow"], p1_energy=["jab", "jab"], p2_deck=["haymaker", "hook", "jab", "jab"])
    then, state = play(given, "p1", PlayAttack(card="grinding_blow"))
    assert then[2] == CardsMilled(seat="p2", cards=("haymaker",))
    assert flips(then) == [("hook", False)]
    assert (state.p2.discard, state.p2.deck) == (("haymaker", "hook"), ("jab", "jab"))


def test_recover_returns_the_top_of_your_discard_pile_to_hand():
    given = duel(p1_hand=["second_wind"], p1_energy=["jab"], p1_discard=["jab", "hook"], p2_deck=["hook", "jab"])
    then, state = play(given, "p1", PlayAttack(card="second_wind"))
    assert then[2] == CardsRecovered(seat="p1", cards=("hook",))
    assert (state.p1.hand, state.p1.discard) == (("hook",), ("jab", "second_wind"))


def test_second_wind_does_not_return_another_second_wind():
    # given: Focus Lens makes Second Wind free (1 - 1 = 0) and the other copy tops the discard pile
    given = duel(p1_hand=["second_wind"], p1_drills=["focus_lens"], p1_discard=["jab", "second_wind"],
                 p2_deck=["hook", "jab"])
    # when: p1 plays it
    then, state = play(given, "p1", PlayAttack(card="second_wind"))
    # then: nothing returns (the copy would return this one next, forever); both copies lie in the pile
    assert of_type(then, CardsRecovered) == []
    assert (state.p1.hand, state.p1.discard) == ((), ("jab", "second_wind", "second_wind"))


def test_a_recover_of_two_stops_at_the_card_it_cannot_take():
    # given: a recover of 2 (the content's Second Wind recovers 1) over ... jab, second_wind, hook (top)
    card = replace(CARDS["second_wind"], effect_amount=2)
    given = duel(p1_hand=["second_wind"], p1_energy=["jab"], p1_discard=["jab", "second_wind", "hook"],
                 p2_deck=["hook", "jab"])
    # when: its effect resolves
    resolver = RESOLVING(given, Rng(b"x"))
    recover(resolver, "p1", card, Strike(arrows=card.arrows))
    then = resolver.events
    # then: only the hook above the second_wind returns
    assert then == [CardsRecovered(seat="p1", cards=("hook",))]


def test_recover_with_an_empty_discard_pile_does_nothing():
    given = duel(p1_hand=["second_wind"], p1_energy=["jab"], p2_deck=["hook", "jab"])
    assert of_type(decide_after(given, "p1", PlayAttack(card="second_wind")), CardsRecovered) == []


def test_shatter_destroys_the_opponents_oldest_drill_before_the_damage():
    given = duel(p1_hand=["shatter_strike"], p1_energy=["jab"] * 3, p2_drills=["iron_skin", "scholar"],
                 p2_deck=["hook", "jab"])
    then, state = play(given, "p1", PlayAttack(card="shatter_strike"))
    assert then[2] == DrillDestroyed(seat="p2", card="iron_skin")
    assert DamageDealt(seat="p2", amount=2, source="p1") in then       # iron skin is gone already
    assert of_type(then, EffectTriggered) == []
    assert (state.p2.drills, state.p2.discard) == (("scholar",), ("iron_skin", "hook"))


def test_disarm_knocks_a_random_card_out_of_the_opponents_hand():
    given = duel(p1_hand=["disarming_kick"], p1_energy=["jab", "jab"], p2_hand=["hook", "uppercut"],
                 p2_deck=["hook", "jab"])
    then, state = play(given, "p1", PlayAttack(card="disarming_kick"))
    knocked = then[2]
    assert isinstance(knocked, CardKnockedAway) and knocked.seat == "p2" and knocked.card in ("hook", "uppercut")
    assert state.p2.hand == (("uppercut",) if knocked.card == "hook" else ("hook",))
    assert state.p2.discard == (knocked.card, "hook")


@pytest.mark.parametrize(("p1_drills", "p2_drills", "damage"), [
    (["generator"], [], 4),
    ([], [], 2),
    ([], ["generator"], 2),      # only your own drills count
])
def test_surge_adds_two_arrows_while_you_have_a_drill(p1_drills, p2_drills, damage):
    given = duel(p1_hand=["surge"], p1_energy=["jab", "jab"], p1_drills=p1_drills, p2_drills=p2_drills,
                 p2_deck=["jab"] * 6)
    assert of_type(decide_after(given, "p1", PlayAttack(card="surge")), DamageDealt) == [
        DamageDealt(seat="p2", amount=damage, source="p1")]
