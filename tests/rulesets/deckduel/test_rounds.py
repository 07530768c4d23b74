"""Seed 004, Round Structure: combat turns, passing, the end step, and winning."""
import pytest

from domain.engine.battle import decide_batch, open_battle
from domain.engine.errors import NotYourTurn, RuleViolation
from domain.engine.ruleset import Outcome
from domain.rulesets.deckduel import RULESET
from domain.rulesets.deckduel.commands import Discard, Mulligan, Pass, PlayAttack, PlayDrill
from domain.rulesets.deckduel.legal import legal_commands
from domain.rulesets.deckduel.events import (CardDiscarded, CardsDrawn, CombatEnded, DiscardRequired,
                                             EnergyGained, Passed, RoundEnded, RoundStarted)

from .given import deck, decide_after, duel, play, scripted_setup

# Seed 004, Combat Step.

def test_players_take_turns_one_action_each():
    given = duel(p1_hand=["jab"], p2_deck=["hook", "jab"])
    assert RULESET.awaiting(given) == frozenset({"p1"})
    _, state = play(given, "p1", PlayAttack(card="jab"))
    assert (state.turn, RULESET.awaiting(state)) == ("p2", frozenset({"p2"}))
    assert legal_commands(state, "p1") == []


def test_legal_actions_are_the_affordable_cards_and_pass():
    given = duel(p1_hand=["hook", "whetstone", "jab", "focus_lens", "jab"], p1_energy=["jab"])
    assert legal_commands(given, "p1") == [PlayDrill(card="focus_lens"), PlayAttack(card="jab"), Pass()]


def test_one_pass_hands_the_turn_over():
    then, state = play(duel(), "p1", Pass())
    assert then == [Passed(seat="p1")]
    assert (state.turn, state.passes, state.phase) == ("p2", 1, "combat")


def test_two_passes_in_succession_end_combat():
    _, state = play(duel(p1_deck=["jab"] * 4, p2_deck=["jab"] * 4), "p1", Pass())
    then = decide_after(state, "p2", Pass())
    assert then[:3] == [Passed(seat="p2"), CombatEnded(round=1), RoundEnded(round=1)]


def test_a_pass_then_an_attack_then_a_pass_does_not_end_combat():
    state = duel(p2_hand=["jab"], p1_deck=["hook", "jab"])
    for seat, cmd in (("p1", Pass()), ("p2", PlayAttack(card="jab"))):
        _, state = play(state, seat, cmd)
    then, state = play(state, "p1", Pass())
    assert then == [Passed(seat="p1")]
    assert (state.turn, state.passes, state.phase) == ("p2", 1, "combat")


def opened_battle():
    setup = scripted_setup(deck(), deck(), first_player="p1")
    state, _ = open_battle(RULESET, battle_id="b-1", setup=setup, players={"p1": "ann", "p2": "bob"},
                           revealed=b"\x01" * 32, created_at="2024-01-01T00:00:00Z")
    return state


def test_acting_out_of_turn_is_refused_by_the_battle_runner():
    state = opened_battle()
    state, _ = decide_batch(RULESET, state, "p1", Mulligan())
    with pytest.raises(NotYourTurn, match="p1 cannot act now; waiting for p2"):
        decide_batch(RULESET, state, "p1", Mulligan())
    state, _ = decide_batch(RULESET, state, "p2", {"type": "mulligan", "cards": []})
    with pytest.raises(NotYourTurn) as refused:
        decide_batch(RULESET, state, "p2", Pass())
    assert refused.value.details == {"awaiting": ["p1"]}


@pytest.mark.parametrize(("phase", "cmd", "message"), [
    ("discard", PlayAttack(card="jab"), "you can only attack in the combat step"),
    ("discard", Pass(), "you can only pass in the combat step"),
    ("combat", Discard(card="jab"), "you can only discard down to hand size in the end step"),
])
def test_actions_belong_to_their_step(phase, cmd, message):
    with pytest.raises(RuleViolation, match=message):
        decide_after(duel(phase=phase, p1_hand=["jab"]), "p1", cmd)


# Seed 004, End Step: discard down to hand size, active player first, then switch.

OVER_HAND_SIZE = duel(turn="p2", active="p1", passes=1,
                      p1_hand=["hook", "jab", "jab", "jab", "jab", "jab", "jab", "straight", "uppercut"],
                      p2_hand=["haymaker", "jab", "jab", "jab", "jab", "jab", "jab", "jab"],
                      p1_deck=["parry", "riposte", "rebound", "jab"], p2_deck=["surge", "scholar", "hook", "jab"])


def test_the_end_step_asks_the_active_player_to_discard_first():
    then, state = play(OVER_HAND_SIZE, "p2", Pass())
    assert then == [Passed(seat="p2"), CombatEnded(round=1), DiscardRequired(seat="p1", over=2)]
    assert (state.phase, state.turn, RULESET.awaiting(state)) == ("discard", "p1", frozenset({"p1"}))
    assert legal_commands(state, "p1") == [Discard(card=c) for c in ("hook", "jab", "straight", "uppercut")]


def test_one_discard_per_card_then_the_other_player_then_the_next_round():
    _, state = play(OVER_HAND_SIZE, "p2", Pass())
    then, state = play(state, "p1", Discard(card="uppercut"))
    assert then == [CardDiscarded(seat="p1", card="uppercut"), DiscardRequired(seat="p1", over=1)]
    then, state = play(state, "p1", Discard(card="jab"))
    assert then == [CardDiscarded(seat="p1", card="jab"), DiscardRequired(seat="p2", over=1)]
    then, state = play(state, "p2", Discard(card="haymaker"))
    assert then == [
        CardDiscarded(seat="p2", card="haymaker"),
        RoundEnded(round=1),
        RoundStarted(round=2, active="p2"),
        EnergyGained(seat="p2", count=1, cards=("surge",)),
        CardsDrawn(seat="p2", count=2, cards=("scholar", "hook")),
        EnergyGained(seat="p1", count=1, cards=("parry",)),
        CardsDrawn(seat="p1", count=2, cards=("riposte", "rebound")),
    ]
    assert state.p1.discard == ("uppercut", "jab")
    assert state.p1.hand == ("hook", "jab", "jab", "jab", "jab", "jab", "straight", "riposte", "rebound")
    assert (state.round, state.active, state.turn, state.phase) == (2, "p2", "p2", "combat")


def test_a_hand_at_hand_size_keeps_every_card():
    given = duel(turn="p2", active="p2", passes=1, p1_hand=["jab"] * 7, p2_hand=["jab"] * 7,
                 p1_deck=["jab"] * 4, p2_deck=["jab"] * 4)
    then = decide_after(given, "p2", Pass())
    assert then[:4] == [Passed(seat="p2"), CombatEnded(round=1), RoundEnded(round=1),
                        RoundStarted(round=2, active="p1")]


def test_only_a_card_in_hand_can_be_discarded():
    _, state = play(OVER_HAND_SIZE, "p2", Pass())
    with pytest.raises(RuleViolation, match="'parry' is not in your hand"):
        decide_after(state, "p1", Discard(card="parry"))


# Seed 004, The Rules: "remove every card from your opponent's deck".

def test_no_outcome_while_both_decks_hold_cards():
    assert RULESET.outcome(duel(p1_deck=["jab"], p2_deck=["jab"])) is None


def test_an_empty_deck_loses():
    assert RULESET.outcome(duel(p1_deck=["jab"], p2_deck=[])) == Outcome(winner="p1", reason="p2's deck is empty")
    assert RULESET.outcome(duel(p1_deck=[], p2_deck=["jab"])) == Outcome(winner="p2", reason="p1's deck is empty")


def test_both_decks_empty_is_a_draw():
    assert RULESET.outcome(duel(p1_deck=[], p2_deck=[])) == Outcome(winner=None, reason="both decks emptied at once")


def test_emptying_your_own_deck_in_the_ready_step_loses():
    given = duel(turn="p2", active="p1", passes=1, p1_deck=["jab", "hook"], p2_deck=["jab"] * 6)
    then, state = play(given, "p2", Pass())
    assert then[-1] == CardsDrawn(seat="p1", count=1, cards=("hook",))    # only one left to draw
    assert RULESET.outcome(state) == Outcome(winner="p2", reason="p1's deck is empty")
    assert RULESET.awaiting(state) == frozenset()
