"""Seed silent: clocks. The move the rules play for a seat whose clock ran out (`auto`): keep
the whole hand at the mulligan, pass in combat, discard the first card by id in the end step."""
from __future__ import annotations

from domain.engine.choices import ChoiceLocked
from domain.rulesets.deckduel import RULESET
from domain.rulesets.deckduel.commands import Discard, Mulligan, Pass, PlayAttack
from domain.rulesets.deckduel.events import CardDiscarded, DiscardRequired, Passed
from domain.rulesets.deckduel.legal import default_command, legal_commands
from tests.rulesets.defaults import checked_defaults, random_walks

from .given import decide_after, duel, mulligan_pending

BATTLES = 30


def test_at_the_mulligan_the_default_keeps_the_whole_hand():
    given = mulligan_pending(p1_hand=["haymaker", "jab", "hook", "uppercut", "straight"],
                             p1_deck=["jab"] * 9, p2_deck=["jab"] * 9)
    when = default_command(given, "p1")
    assert when == Mulligan(cards=())
    assert when == legal_commands(given, "p1")[0]          # the smallest pick: nothing sent back
    assert decide_after(given, "p1", when) == [ChoiceLocked(seat="p1", kind="mulligan", choice={"cards": []})]


def test_in_combat_the_default_passes_even_with_an_affordable_attack():
    given = duel(turn="p1", p1_hand=["jab", "haymaker"], p1_energy=["jab"] * 5)
    when = default_command(given, "p1")
    assert when == Pass()
    # haymaker costs 4 and jab 0: 5 energy pays for either
    assert legal_commands(given, "p1") == [PlayAttack(card="haymaker"), PlayAttack(card="jab"), when]
    assert decide_after(given, "p1", when) == [Passed(seat="p1")]


def test_in_the_end_step_the_default_discards_the_first_card_by_id():
    # 9 cards against a hand size of 7: two discards; "hook" < "jab" < "straight" < "uppercut"
    given = duel(phase="discard", turn="p1", p1_hand=["uppercut", "jab", "jab", "straight", "hook",
                                                      "jab", "jab", "jab", "jab"])
    when = default_command(given, "p1")
    assert when == Discard(card="hook") == legal_commands(given, "p1")[0]
    assert decide_after(given, "p1", when) == [CardDiscarded(seat="p1", card="hook"),
                                               DiscardRequired(seat="p1", over=1)]   # 8 - 7 = 1


def test_the_default_reads_nothing_the_seat_may_not_see():
    """The opponent's hand and both decks' order change; the default does not."""
    hands = (["jab"] * 8, ["haymaker", "parry"] * 4)
    decks = (["straight", "hook", "jab"], ["jab", "jab", "parry"])
    defaults = {default_command(duel(phase="discard", turn="p1", p1_hand=["uppercut", "straight"] * 4,
                                     p2_hand=hand, p1_deck=deck, p2_deck=deck[::-1]), "p1")
                for hand in hands for deck in decks}
    assert defaults == {Discard(card="straight")}


def test_in_seeded_battles_the_default_is_legal_and_accepted_wherever_a_seat_is_awaited():
    """30 battles of random moves; in every other one p2's clock runs out on every move, so the
    default alone must also carry a seat to the end."""
    defaults = {wire["type"] for state in random_walks(RULESET, [RULESET.fresh_setup()] * BATTLES)
                for wire in checked_defaults(RULESET, state)}
    assert defaults == {"mulligan", "pass", "discard"}
