"""Seed 004, Dealing Damage: take 1 off and flip, subtract icons, perfect defense, triggers."""
from domain.engine.ruleset import Outcome
from domain.rulesets.deckduel import RULESET
from domain.rulesets.deckduel.commands import PlayAttack
from domain.rulesets.deckduel.events import (AttackPlayed, AttackResolved, CardKnockedAway, CardRecycled,
                                             CardsDrawn, DamageDealt, DamageFlipped, DefenseTriggered)
from domain.rulesets.deckduel.state import Params

from .given import decide_after, duel, flips, of_type, play, remaining

HAYMAKER_READY = {"p1_hand": ["haymaker"], "p1_energy": ["jab"] * 4}   # 5 arrows, cost 4


def test_one_damage_flips_one_card_into_the_discard_pile():
    given = duel(p1_hand=["jab"], p2_deck=["hook", "jab"])
    then, state = play(given, "p1", PlayAttack(card="jab"))
    assert then == [
        AttackPlayed(seat="p1", card="jab"),
        DamageDealt(seat="p2", amount=1, source="p1"),
        DamageFlipped(seat="p2", card="hook", icons=2, perfect=False, remaining=0),
        AttackResolved(seat="p1", card="jab"),
    ]
    assert (state.p2.deck, state.p2.discard, state.p2.hand) == (("jab",), ("hook",), ())


def test_five_damage_keeps_flipping_until_none_is_left():
    given = duel(**HAYMAKER_READY, p2_deck=["jab", "haymaker", "haymaker", "hook", "uppercut"])
    then, state = play(given, "p1", PlayAttack(card="haymaker"))
    # 5 -1 -1icon = 3; 3 -1 = 2; 2 -1 = 1; 1 -1 = 0 (hook's 2 icons are not an exact match)
    assert flips(then) == [("jab", False), ("haymaker", False), ("haymaker", False), ("hook", False)]
    assert remaining(then) == [3, 2, 1, 0]
    assert [e.icons for e in of_type(then, DamageFlipped)] == [1, 0, 0, 2]
    assert state.p2.deck == ("uppercut",)
    assert state.p2.discard == ("jab", "haymaker", "haymaker", "hook")


def test_defense_icons_cut_the_damage_short():
    given = duel(p1_hand=["uppercut"], p1_energy=["jab"] * 3, p2_deck=["hook", "straight", "jab"])
    then, state = play(given, "p1", PlayAttack(card="uppercut"))
    # 4 -1 = 3, hook's 2 icons leave 1; 1 -1 = 0
    assert flips(then) == [("hook", False), ("straight", False)]
    assert remaining(then) == [1, 0]
    assert state.p2.deck == ("jab",)


def test_perfect_defense_puts_the_card_in_hand_and_stops_the_damage():
    given = duel(p1_hand=["straight"], p1_energy=["jab"], p2_deck=["jab", "hook"])
    then, state = play(given, "p1", PlayAttack(card="straight"))
    # 2 -1 = 1, jab shows exactly 1 icon
    assert of_type(then, DamageFlipped) == [DamageFlipped(seat="p2", card="jab", icons=1, perfect=True,
                                                          remaining=0)]
    assert (state.p2.hand, state.p2.discard, state.p2.deck) == (("jab",), (), ("hook",))


def test_a_perfect_defense_later_in_the_chain_ends_it_there():
    given = duel(**HAYMAKER_READY, p2_deck=["jab", "hook", "uppercut"])
    then, state = play(given, "p1", PlayAttack(card="haymaker"))
    # 5 -1 -1icon = 3; 3 -1 = 2 and hook shows exactly 2
    assert flips(then) == [("jab", False), ("hook", True)]
    assert remaining(then) == [3, 0]
    assert (state.p2.hand, state.p2.discard, state.p2.deck) == (("hook",), ("jab",), ("uppercut",))


def test_more_icons_than_damage_left_is_not_perfect():
    given = duel(p1_hand=["straight"], p1_energy=["jab"], p2_deck=["hook", "jab"])
    then, state = play(given, "p1", PlayAttack(card="straight"))
    assert flips(then) == [("hook", False)]
    assert state.p2.discard == ("hook",)


def test_an_empty_deck_stops_the_damage_and_loses_the_game():
    given = duel(**HAYMAKER_READY, p1_deck=["jab"], p2_deck=["haymaker", "haymaker"])
    then, state = play(given, "p1", PlayAttack(card="haymaker"))
    assert flips(then) == [("haymaker", False), ("haymaker", False)]
    assert remaining(then) == [4, 3]
    assert then[-1] == AttackResolved(seat="p1", card="haymaker")
    assert state.p2.deck == ()
    assert RULESET.outcome(state) == Outcome(winner="p1", reason="p2's deck is empty")
    assert RULESET.awaiting(state) == frozenset()


def test_zero_icons_with_zero_damage_left_is_perfect_by_default():
    given = duel(p1_hand=["jab"], p2_deck=["haymaker", "jab"], params=Params(zero_icon_perfect=True))
    then, state = play(given, "p1", PlayAttack(card="jab"))
    assert flips(then) == [("haymaker", True)]
    assert (state.p2.hand, state.p2.discard) == (("haymaker",), ())


def test_zero_icons_are_never_perfect_when_the_param_is_off():
    given = duel(p1_hand=["jab"], p2_deck=["haymaker", "jab"], params=Params(zero_icon_perfect=False))
    then, state = play(given, "p1", PlayAttack(card="jab"))
    assert flips(then) == [("haymaker", False)]
    assert (state.p2.hand, state.p2.discard) == ((), ("haymaker",))


def test_the_param_leaves_perfect_defense_with_icons_alone():
    given = duel(p1_hand=["straight"], p1_energy=["jab"], p2_deck=["jab", "hook"],
                 params=Params(zero_icon_perfect=False))
    assert flips(decide_after(given, "p1", PlayAttack(card="straight"))) == [("jab", True)]


# Seed 004, Dealing Damage step 4: defense triggers.

def test_counter_deals_damage_back_to_the_attacker():
    given = duel(p1_hand=["jab"], p1_deck=["hook", "jab"], p2_deck=["parry", "jab"])
    then, state = play(given, "p1", PlayAttack(card="jab"))
    assert then == [
        AttackPlayed(seat="p1", card="jab"),
        DamageDealt(seat="p2", amount=1, source="p1"),
        DamageFlipped(seat="p2", card="parry", icons=2, perfect=False, remaining=0),
        DefenseTriggered(seat="p2", card="parry", trigger="counter"),
        DamageDealt(seat="p1", amount=1, source="p2", by="counter"),
        DamageFlipped(seat="p1", card="hook", icons=2, perfect=False, remaining=0),
        AttackResolved(seat="p1", card="jab"),
    ]
    assert (state.p1.deck, state.p1.discard) == (("jab",), ("hook", "jab"))


def test_counter_damage_follows_the_damage_rules_perfect_defense_included():
    given = duel(p1_hand=["jab"], p1_deck=["jab", "haymaker", "hook"], p2_deck=["riposte", "jab"])
    then, state = play(given, "p1", PlayAttack(card="jab"))
    assert DamageDealt(seat="p1", amount=2, source="p2", by="counter") in then
    assert of_type(then, DamageFlipped)[1:] == [DamageFlipped(seat="p1", card="jab", icons=1, perfect=True,
                                                              remaining=0)]
    assert (state.p1.hand, state.p1.deck) == (("jab",), ("haymaker", "hook"))


def test_a_counters_damage_does_not_trigger_counters():
    given = duel(p1_hand=["jab"], p1_deck=["parry", "jab"], p2_deck=["parry", "jab"])
    then = decide_after(given, "p1", PlayAttack(card="jab"))
    assert of_type(then, DefenseTriggered) == [DefenseTriggered(seat="p2", card="parry", trigger="counter"),
                                               DefenseTriggered(seat="p1", card="parry", trigger="counter")]
    assert of_type(then, DamageDealt) == [DamageDealt(seat="p2", amount=1, source="p1"),
                                          DamageDealt(seat="p1", amount=1, source="p2", by="counter")]


def test_a_perfect_defense_still_resolves_its_trigger():
    given = duel(p1_hand=["hook"], p1_energy=["jab", "jab"], p1_deck=["jab", "jab", "jab"],
                 p2_deck=["parry", "jab"])
    then, state = play(given, "p1", PlayAttack(card="hook"))
    assert flips(then) == [("parry", True), ("jab", False)]      # p2's parry, then p1's counter flip
    assert DamageDealt(seat="p1", amount=1, source="p2", by="counter") in then
    assert state.p2.hand == ("parry",)


def test_brace_reduces_the_remaining_damage():
    given = duel(**HAYMAKER_READY, p2_deck=["iron_guard", "jab", "jab"])
    then, state = play(given, "p1", PlayAttack(card="haymaker"))
    # 5 -1 = 4, 3 icons leave 1, brace takes the last 1
    assert flips(then) == [("iron_guard", False)]
    assert remaining(then) == [1]
    assert DefenseTriggered(seat="p2", card="iron_guard", trigger="brace") in then
    assert state.p2.deck == ("jab", "jab")


def test_draw_trigger_draws_the_defender_a_card():
    given = duel(p1_hand=["jab"], p2_hand=["uppercut"], p2_deck=["steady_breath", "hook", "jab"])
    then, state = play(given, "p1", PlayAttack(card="jab"))
    assert then[-3:-1] == [DefenseTriggered(seat="p2", card="steady_breath", trigger="draw"),
                           CardsDrawn(seat="p2", count=1, cards=("hook",))]
    assert (state.p2.hand, state.p2.deck, state.p2.discard) == (("uppercut", "hook"), ("jab",), ("steady_breath",))


def test_recycle_puts_the_flipped_card_on_the_bottom_of_the_deck():
    given = duel(p1_hand=["straight"], p1_energy=["jab"], p2_deck=["rebound", "hook", "jab"])
    then, state = play(given, "p1", PlayAttack(card="straight"))
    # 2 -1 = 1, rebound has no icons; recycled; 1 -1 = 0 on hook
    assert flips(then) == [("rebound", False), ("hook", False)]
    assert CardRecycled(seat="p2", card="rebound") in then
    assert (state.p2.deck, state.p2.discard) == (("jab", "rebound"), ("hook",))


def test_recycle_leaves_an_older_copy_in_the_discard_pile_when_this_one_went_to_hand():
    """"If this card is in your discard pile": a perfect defense put this one in the hand."""
    given = duel(p1_hand=["jab"], p2_deck=["rebound", "jab"], p2_discard=["rebound"])
    then, state = play(given, "p1", PlayAttack(card="jab"))
    assert flips(then) == [("rebound", True)]                    # 0 icons, 0 left, zero_icon_perfect
    assert of_type(then, CardRecycled) == []
    assert (state.p2.hand, state.p2.discard, state.p2.deck) == (("rebound",), ("rebound",), ("jab",))


def test_disrupt_knocks_a_random_card_out_of_the_attackers_hand():
    given = duel(p1_hand=["jab", "hook", "uppercut"], p2_deck=["pocket_sand", "jab"])
    then, state = play(given, "p1", PlayAttack(card="jab"))
    knocked = of_type(then, CardKnockedAway)
    assert len(knocked) == 1 and knocked[0].seat == "p1" and knocked[0].card in ("hook", "uppercut")
    kept = "uppercut" if knocked[0].card == "hook" else "hook"
    assert (state.p1.hand, state.p1.discard) == ((kept,), (knocked[0].card, "jab"))


def test_disrupt_draws_its_card_from_the_rng():
    given = duel(p1_hand=["jab", "hook", "uppercut"], p2_deck=["pocket_sand", "jab"])
    seen = {of_type(decide_after(given, "p1", PlayAttack(card="jab"), seed=bytes([n])), CardKnockedAway)[0].card
            for n in range(32)}
    assert seen == {"hook", "uppercut"}


def test_disrupt_with_an_empty_attacker_hand_does_nothing():
    given = duel(p1_hand=["jab"], p2_deck=["pocket_sand", "jab"])
    then = decide_after(given, "p1", PlayAttack(card="jab"))
    assert DefenseTriggered(seat="p2", card="pocket_sand", trigger="disrupt") in then
    assert of_type(then, CardKnockedAway) == []
