"""What a deckduel seat knows (`knowledge.knowledge`) and the duels `knowledge.determinize` draws
from it: the other hand, the other locked mulligan, every deck order and every energy pile are
marks, filled from the cards the seat has not seen (seed 004, The Rules 2-4; README "Knowledge
and determinization"). And the search bot's evaluation of where a playout stops."""
from __future__ import annotations

from collections import Counter

from domain.engine.choices import PendingChoices
from domain.engine.rng import Rng
from domain.rulesets.deckduel.bots.search import evaluate
from domain.rulesets.deckduel.content import CONTENT
from domain.rulesets.deckduel.knowledge import LOCKED_MARK, MARK, determinize, knowledge
from domain.rulesets.deckduel.state import Params, SEATS, without_all

from .given import duel

BROM = CONTENT.characters["brom"].deck_list()
KIRA = CONTENT.characters["kira"].deck_list()
DRAWS = 32
# p2 (Brom, 30 cards): 4 discarded and 2 drills in sight, so 24 unseen: a hand of 3, energy 3, deck 18
P2_SEEN = ("jab", "jab", "straight", "straight", "iron_skin", "iron_skin")
P2_UNSEEN = without_all(BROM, P2_SEEN)
# p1 (Kira, 30 cards): a hand of 2 and 1 discarded, so 27 cards its owner has not seen: energy 3, deck 24
P1_HAND = ("jab", "hook")
P1_UNSEEN = without_all(KIRA, P1_HAND + ("straight",))


def midgame(**changes):
    piles = dict(p1_hand=P1_HAND, p1_discard=("straight",), p1_energy=P1_UNSEEN[:3], p1_deck=P1_UNSEEN[3:],
                 p2_discard=P2_SEEN[:4], p2_drills=P2_SEEN[4:], p2_hand=P2_UNSEEN[:3], p2_energy=P2_UNSEEN[3:6],
                 p2_deck=P2_UNSEEN[6:])
    return duel(**{**piles, **changes})


def test_the_other_hand_every_deck_and_every_energy_pile_are_marks_of_their_length():
    known = knowledge(midgame(), "p1")
    assert known.p1.hand == ("jab", "hook")              # its own, as it is
    assert known.p2.hand == (MARK,) * 3
    assert (known.p1.energy, known.p1.deck) == ((MARK,) * 3, (MARK,) * 24)   # nobody looks at energy
    assert (known.p2.energy, known.p2.deck) == ((MARK,) * 3, (MARK,) * 18)
    assert known.p2.discard == ("jab", "jab", "straight", "straight")
    assert known.p2.drills == ("iron_skin", "iron_skin")


def test_which_cards_the_other_hand_holds_changes_nothing_the_seat_knows():
    other = midgame(p2_hand=("haymaker", "haymaker", "haymaker"))
    assert knowledge(other, "p1") == knowledge(midgame(), "p1")
    assert knowledge(other, "p2") != knowledge(midgame(), "p2")


def test_the_other_hand_is_drawn_from_the_cards_its_side_has_not_shown():
    for i in range(DRAWS):
        drawn = determinize(knowledge(midgame(), "p1"), "p1", Rng(b"hand", i))
        assert len(drawn.p2.hand) == 3
        # 30 - 4 discarded - 2 drills = 24 = 3 in hand + 3 energy + 18 deck: exactly the unseen ones
        assert Counter(drawn.p2.hand + drawn.p2.energy + drawn.p2.deck) == Counter(P2_UNSEEN)
        assert "jab" not in drawn.p2.hand and "straight" not in drawn.p2.hand   # Brom's 2 of each are discarded


def test_the_seats_own_hand_stays_and_its_deck_and_energy_are_the_rest_of_its_deck():
    for i in range(DRAWS):
        drawn = determinize(knowledge(midgame(), "p1"), "p1", Rng(b"own", i))
        assert drawn.p1.hand == ("jab", "hook")
        # 30 - 2 in hand - 1 discarded = 27 = 3 energy + 24 deck
        assert Counter(drawn.p1.energy + drawn.p1.deck) == Counter(P1_UNSEEN)
        assert knowledge(drawn, "p1") == knowledge(midgame(), "p1")


def test_draws_differ_where_the_truth_is_hidden():
    hands = {determinize(knowledge(midgame(), "p1"), "p1", Rng(b"differ", i)).p2.hand for i in range(DRAWS)}
    assert len(hands) > DRAWS // 2                       # 24 cards, 11 kinds: few hands repeat


def test_the_other_locked_mulligan_is_a_mark_and_is_drawn_from_the_drawn_hand():
    locks = PendingChoices(kind="mulligan", awaiting=SEATS, locked={"p2": {"cards": ["riposte", "parry"]}})
    given = midgame(phase="mulligan", turn=None, active=None, round=0, choices=locks)
    known = knowledge(given, "p1")
    assert known.choices is not None and known.choices.locked == {"p2": LOCKED_MARK}
    assert knowledge(given, "p2").choices == locks       # its own pick, as it is
    for i in range(DRAWS):
        drawn = determinize(known, "p1", Rng(b"lock", i))
        assert drawn.choices is not None
        picked = drawn.choices.locked["p2"]["cards"]
        assert Counter(picked) <= Counter(drawn.p2.hand)  # any pick the drawn hand offers, none kept included
        assert knowledge(drawn, "p1") == known


def test_a_setup_deck_larger_than_the_characters_is_topped_up_from_that_deck():
    # deck_size 40: p2 has 40 cards unseen but Brom's deck holds 30, so 10 come from it a second time
    given = duel(params=Params(deck_size=40), p2_deck=("jab",) * 37, p2_hand=("jab",) * 3)
    drawn = determinize(knowledge(given, "p1"), "p1", Rng(b"top up"))
    assert (len(drawn.p2.hand), len(drawn.p2.deck)) == (3, 37)
    assert set(drawn.p2.hand + drawn.p2.deck) <= set(BROM)
    assert Counter(drawn.p2.hand + drawn.p2.deck) - Counter(BROM) != Counter()   # some card twice as often


def test_evaluate_favours_the_side_with_more_deck_left():
    # p1: 24 deck + 0.5 * 2 hand = 25; p2: 18 + 0.5 * 3 = 19.5; edge 5.5 cards, 1 / (1 + e**(-5.5 / 4)) = 0.798
    s = midgame()
    assert round(evaluate(s, "p1"), 3) == 0.798
    assert round(evaluate(s, "p2"), 3) == 0.202
