"""Seed 004, The Rules 2-5: a simultaneous hidden mulligan, three energy, the active player."""
import pytest

from domain.engine.choices import ChoiceLocked, ChoicesRevealed
from domain.engine.errors import RuleViolation
from domain.engine.rng import Rng
from domain.rulesets.deckduel import RULESET
from domain.rulesets.deckduel.commands import Mulligan, Pass
from domain.rulesets.deckduel.legal import legal_commands
from domain.rulesets.deckduel.events import (ActivePlayerChosen, CardsDrawn, CardsReturned, EnergyGained,
                                             RoundStarted)
from domain.rulesets.deckduel.state import SEATS

from .given import deck, decide_after, mulligan_pending, of_type, play, scripted_setup, started

P1_DECK = deck("jab", "straight", "hook", "uppercut", "haymaker",          # the initial hand
               "parry", "riposte", "iron_guard", "steady_breath", "rebound", "pocket_sand")
P2_DECK = deck("straight", "straight", "hook", "hook", "jab",
               "surge", "generator", "scholar", "quick_draw", "second_wind", "spark_jab", filler="straight")


def dealt(first_player="p2"):
    return started(scripted_setup(P1_DECK, P2_DECK, first_player=first_player))[1]


def test_the_first_lock_reveals_nothing_and_moves_no_card():
    given = dealt()
    then, state = play(given, "p1", Mulligan(cards=("haymaker", "uppercut")))
    assert then == [ChoiceLocked(seat="p1", kind="mulligan", choice={"cards": ["haymaker", "uppercut"]})]
    assert (state.p1.hand, state.p1.deck) == (given.p1.hand, given.p1.deck)
    assert RULESET.awaiting(state) == frozenset({"p2"})


def test_the_last_lock_reveals_counts_then_returns_draws_energizes_and_starts_round_one():
    _, state = play(dealt(), "p1", Mulligan(cards=("haymaker", "uppercut")))
    then, state = play(state, "p2", Mulligan())
    assert then == [
        ChoiceLocked(seat="p2", kind="mulligan", choice={"cards": []}),
        ChoicesRevealed(kind="mulligan", choices={"p1": {"count": 2}, "p2": {"count": 0}}),
        CardsReturned(seat="p1", count=2, cards=("haymaker", "uppercut")),
        CardsDrawn(seat="p1", count=2, cards=("parry", "riposte")),
        EnergyGained(seat="p1", count=3, cards=("iron_guard", "steady_breath", "rebound")),
        EnergyGained(seat="p2", count=3, cards=("surge", "generator", "scholar")),
        ActivePlayerChosen(seat="p2", by="setup"),
        RoundStarted(round=1, active="p2"),
        EnergyGained(seat="p2", count=1, cards=("quick_draw",)),
        CardsDrawn(seat="p2", count=2, cards=("second_wind", "spark_jab")),
        EnergyGained(seat="p1", count=1, cards=("pocket_sand",)),
        CardsDrawn(seat="p1", count=2, cards=("jab", "jab")),
    ]
    assert state.p1.hand == ("jab", "straight", "hook", "parry", "riposte", "jab", "jab")
    assert state.p1.deck[-2:] == ("haymaker", "uppercut")            # mulliganed to the bottom
    assert len(state.p1.deck) == 30 - 5 - 3 - 1 - 2
    assert (state.phase, state.round, state.active, state.turn) == ("combat", 1, "p2", "p2")


def test_locks_in_either_order_reveal_in_seat_order():
    _, state = play(dealt(), "p2", Mulligan(cards=("jab",)))
    then = decide_after(state, "p1", Mulligan())
    assert then[1] == ChoicesRevealed(kind="mulligan", choices={"p1": {"count": 0}, "p2": {"count": 1}})
    assert then[2:4] == [CardsReturned(seat="p2", count=1, cards=("jab",)),
                         CardsDrawn(seat="p2", count=1, cards=("surge",))]


def test_the_rng_chooses_the_active_player_when_the_setup_does_not():
    _, state = play(dealt(first_player=None), "p1", Mulligan())
    chosen = {}
    for n in range(16):
        seed = bytes([n])
        then = decide_after(state, "p2", Mulligan(), seed=seed)
        [active] = of_type(then, ActivePlayerChosen)
        assert active == ActivePlayerChosen(seat=Rng(seed).choice(SEATS), by="rng")
        assert RoundStarted(round=1, active=active.seat) in then
        chosen[active.seat] = seed
    assert set(chosen) == {"p1", "p2"}


def test_only_cards_in_hand_can_be_mulliganed():
    given = mulligan_pending(p1_hand=["jab", "hook"], p1_deck=["jab"] * 9, p2_deck=["jab"] * 9)
    with pytest.raises(RuleViolation, match="you can only mulligan cards in your hand"):
        decide_after(given, "p1", Mulligan(cards=("uppercut",)))
    with pytest.raises(RuleViolation, match="you can only mulligan cards in your hand"):
        decide_after(given, "p1", Mulligan(cards=("jab", "jab")))     # one copy in hand


def test_locking_twice_is_refused():
    _, state = play(dealt(), "p1", Mulligan())
    with pytest.raises(RuleViolation, match="p1 has already locked a mulligan choice"):
        decide_after(state, "p1", Mulligan(cards=("jab",)))


def test_the_mulligan_comes_first_and_only_once():
    with pytest.raises(RuleViolation, match="every player must first decide on a mulligan"):
        decide_after(dealt(), "p1", Pass())
    state = dealt()
    for seat in SEATS:
        _, state = play(state, seat, Mulligan())
    with pytest.raises(RuleViolation, match="the mulligan is over"):
        decide_after(state, "p2", Mulligan())


def test_every_distinct_subset_of_the_hand_is_a_legal_mulligan():
    given = mulligan_pending(p1_hand=["jab", "hook", "jab"], p1_deck=["jab"] * 9, p2_deck=["jab"] * 9)
    assert legal_commands(given, "p1") == [Mulligan(cards=c) for c in (
        (), ("hook",), ("jab",), ("hook", "jab"), ("jab", "jab"), ("hook", "jab", "jab"))]
