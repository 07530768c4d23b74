"""What a skirmish seat knows (`knowledge.knowledge`) and the matches `knowledge.determinize`
draws from it: the other hand, every deck order and the other seat's unrevealed placements are
marks, filled from what the seat has not seen (README "Knowledge and determinization")."""
from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from domain.engine.rng import Rng
from domain.rulesets.skirmish.bots.search import evaluate
from domain.rulesets.skirmish.content import CONTENT
from domain.rulesets.skirmish.knowledge import HIDDEN_CELL, MARK, determinize, knowledge

from .given import skirmish, unit

DRAWS = 24
# p2 fields Ember alone: its pool is 4 caster_skill, 3 spark_volley and 3 kindle (10 cards)
EMBER_POOL = CONTENT.pool("ember", 4, 3)


def midgame():
    """p2 has discarded one kindle and holds 3 cards, its deck the 6 other cards of its pool."""
    hand = ("caster_skill", "spark_volley", "kindle")
    deck = ("caster_skill", "caster_skill", "caster_skill", "spark_volley", "spark_volley", "kindle")
    return skirmish(unit("p1.sigil", (3, 1)), unit("p2.ember", (3, 6)),
                    p1={"hand": ["kindle"], "deck": ["caster_skill"] * 4}, p2={"hand": hand, "deck": deck,
                                                                            "discard": ["kindle"]})


def test_the_other_hand_and_every_deck_are_marks_of_their_length():
    known = knowledge(midgame(), "p1")
    assert known.p1.hand == ("kindle",)                 # its own, as it is
    assert known.p2.hand == (MARK,) * 3
    assert (known.p1.deck, known.p2.deck) == ((MARK,) * 4, (MARK,) * 6)     # nobody sees a deck's order
    assert known.p2.discard == ("kindle",)


def test_the_other_hand_is_drawn_from_the_cards_its_side_has_not_shown():
    for i in range(DRAWS):
        drawn = determinize(knowledge(midgame(), "p1"), "p1", Rng(b"hand", i))
        # 10 cards in Ember's pool - 1 kindle discarded = 9 = 3 in hand + 6 in the deck
        assert Counter(drawn.p2.hand + drawn.p2.deck) == Counter(EMBER_POOL) - Counter(["kindle"])
        assert drawn.p1.hand == ("kindle",) and knowledge(drawn, "p1") == knowledge(midgame(), "p1")


def test_unrevealed_placements_are_hidden_cells_drawn_from_the_free_zone():
    given = replace(midgame(), phase="place", placements={"p1.sigil": (3, 1), "p2.ember": (2, 6)})
    known = knowledge(given, "p1")
    assert known.placements == {"p1.sigil": (3, 1), "p2.ember": HIDDEN_CELL}
    cells = {determinize(known, "p1", Rng(b"place", i)).placements["p2.ember"] for i in range(DRAWS)}
    assert len(cells) > 1 and all(cell[1] >= 4 for cell in cells)     # p2's zone: its own rows of the board


def test_a_side_with_more_armor_left_looks_better():
    # given decks of 6 each, Sigil unhurt (1 unit standing) against an Ember with 2 damage
    # (armor a: (a - 2 + 1) / (a + 1) of a unit): p1's chances are above even, p2's below
    even = replace(midgame(), p1=replace(midgame().p1, deck=("caster_skill",) * 6))
    wounded = replace(even, units={**even.units, "p2.ember": replace(even.units["p2.ember"], damage=2)})
    assert evaluate(wounded, "p1") > 0.5 > evaluate(wounded, "p2")
    assert abs(evaluate(wounded, "p1") + evaluate(wounded, "p2") - 1) < 1e-9
