"""What a skirmish seat knows (`knowledge.knowledge`) and the matches `knowledge.determinize`
draws from it: the other hand, every deck order and the other seat's unrevealed placements are
marks, filled from what the seat has not seen (README "Knowledge and determinization")."""
from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from domain.ai import get_policy
from domain.engine.battle import decide_batch, open_battle
from domain.engine.choices import PendingChoices
from domain.engine.bots import Seen
from domain.engine.rng import Rng
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.bots.search import evaluate, toughness, worth
from domain.rulesets.skirmish.commands import Attack, EndTurn, Field
from domain.rulesets.skirmish.content import CONTENT
from domain.rulesets.skirmish.knowledge import HIDDEN_CELL, LOCKED_MARK, MARK, determinize, knowledge
from domain.rulesets.skirmish.state import SEATS

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


# -- preparation: the locked selection and the search bot's own --------------------------------

SETUP = {"mode": "duel", "board": "meadow", "first_player": "p1",
         "p1": {"team": ["ember", "cinder", "flint", "sigil"]}, "p2": {"team": ["wisp", "sable", "thorn", "brick"]}}
P2_SELECTIONS = [["wisp", "sable", "thorn"], ["wisp", "sable", "brick"], ["wisp", "thorn", "brick"],
                 ["sable", "thorn", "brick"]]          # 4 choose 3, in team order


def opened():
    state, _ = open_battle(RULESET, battle_id="b-1", setup=SETUP, players={"p1": "ann", "p2": "bob"},
                           revealed=b"\x01" * 32, created_at="2024-01-01T00:00:00Z")
    return state


def test_the_other_locked_selection_is_a_mark_and_is_drawn_as_one_the_rules_allow():
    given, _ = decide_batch(RULESET, opened(), "p2", {"type": "field", "characters": ["sable", "thorn", "brick"]})
    known = knowledge(given.game, "p1")
    assert known.choices is not None and known.choices.locked == {"p2": LOCKED_MARK}
    assert knowledge(given.game, "p2").choices.locked == {"p2": {"characters": ["sable", "thorn", "brick"]}}
    picks = set()
    for i in range(DRAWS):
        drawn = determinize(known, "p1", Rng(b"select", i))
        pick = drawn.choices.locked["p2"]["characters"]
        assert pick in P2_SELECTIONS
        picks.add(tuple(pick))
    assert len(picks) > 1


def test_the_search_bot_fields_its_toughest_characters_by_armor():
    # armor + power / 10: Ember 50 + 1.8, Cinder 60 + 1.6, Flint 80 + 1.2, Sigil 50 + 1.8, so Cinder
    # and Flint and a caster: Ember + Cinder + Flint = 194.6 = Cinder + Flint + Sigil, the first listed
    state = opened()
    legal = RULESET.legal_commands(state.game, "p1")
    seen = Seen(RULESET, "p1", knowledge(state.game, "p1"), {"p1": "p1", "p2": "p2"})
    assert get_policy("search", "skirmish").choose(seen, legal, Rng(b"field")) == Field(characters=("ember", "cinder",
                                                                                                   "flint"))
    assert round(toughness(state.game, "p1", Field(characters=("cinder", "flint", "sigil"))), 1) == 194.6


def test_the_other_locked_mulligan_is_drawn_from_the_drawn_hand():
    locks = PendingChoices(kind="mulligan", awaiting=SEATS, locked={"p2": {"cards": ["kindle"]}})
    known = knowledge(replace(midgame(), phase="mulligan", choices=locks), "p1")
    assert known.choices.locked == {"p2": LOCKED_MARK}
    for i in range(DRAWS):
        drawn = determinize(known, "p1", Rng(b"mulligan", i))
        assert Counter(drawn.choices.locked["p2"]["cards"]) <= Counter(drawn.p2.hand)   # a pick of its 3 cards


# -- the playout's move ------------------------------------------------------------------------

def test_a_playout_rates_an_attack_that_makes_its_target_faint_above_any_other():
    # Ember hits for 18: Thorn (armor 80) with 70 damage faints at 88 > 80: 50 + 18 + 40 = 108;
    # a whole Thorn does not: 50 + 18 = 68
    s = skirmish(unit("p1.ember", (3, 1)), unit("p2.thorn", (3, 3), damage=70), unit("p2.sable", (5, 1)))
    assert worth(s, "p1", Attack(character="ember", target="p2.thorn")) == 108.0
    assert worth(s, "p1", Attack(character="ember", target="p2.sable")) == 68.0
    assert worth(s, "p1", EndTurn()) == 0.0
