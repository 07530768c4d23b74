"""Seed 001, Cards: a hand holds at most 7 cards (`hand_limit`), the starting hand included, so
the starting hand's mulligan lists at most 2**hand_limit keep-or-replace choices; and a deck is
the fielded characters' card pools at a bounded number of copies, so no setup makes one
request list or write without end."""
from __future__ import annotations

from collections import Counter
from math import prod

import pytest

from domain.engine.battle import decide_batch, open_battle
from domain.engine.errors import SetupError
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.events import DeckPrepared
from domain.rulesets.skirmish.state import SEATS

TEAMS = {"board": "meadow", "p1": {"team": ["wisp", "sable", "thorn"]}, "p2": {"team": ["ember", "cinder", "flint"]}}
ZONE_ROW = {"p1": 0, "p2": 7}        # meadow: p1 deploys on row 0, p2 on row 7


def refused(params: dict[str, int]) -> SetupError:
    with pytest.raises(SetupError) as caught:
        RULESET.parse_setup({**TEAMS, "params": params})
    return caught.value


def test_a_starting_hand_over_the_hand_limit_is_refused():
    error = refused({"starting_hand": 8})
    assert error.field == "params.starting_hand"
    assert error.message == "setup.params.starting_hand: must be at most the hand limit (hand_limit 7), not 8"


def test_a_thirty_card_starting_hand_is_refused_and_the_hand_limit_is_bounded_too():
    error = refused({"starting_hand": 30})
    assert error.message == "setup.params.starting_hand: must be between 0 and 10, not 30"
    error = refused({"starting_hand": 10, "hand_limit": 30})
    assert error.message == "setup.params.hand_limit: must be between 0 and 10, not 30"


@pytest.mark.parametrize("param", ["class_copies", "unique_copies"])
def test_thirty_thousand_copies_of_a_card_are_refused(param):
    error = refused({param: 30_000})
    assert error.field == f"params.{param}"
    assert error.message.startswith(f"setup.params.{param}: must be between 0 and ")


def mulligan_step(params: dict[str, int]):
    state, records = open_battle(RULESET, battle_id="b-1", setup={**TEAMS, "params": params},
                                 players={"p1": "ann", "p2": "bob"}, revealed=b"\x02" * 32,
                                 created_at="2024-01-01T00:00:00Z")
    fielded = {seat: TEAMS[seat]["team"] for seat in SEATS}
    for seat in SEATS:
        state, batch = decide_batch(RULESET, state, seat, {"type": "field", "characters": fielded[seat]})
        records += batch
    for seat in SEATS:
        for col, character in enumerate(fielded[seat]):
            state, batch = decide_batch(RULESET, state, seat,
                                        {"type": "place", "character": character, "cell": [col, ZONE_ROW[seat]]})
            records += batch
    return state, records


def test_the_largest_starting_hand_lists_each_keep_or_replace_choice_once():
    state, records = mulligan_step({"starting_hand": 10, "hand_limit": 10})
    for seat in SEATS:
        hand = state.game.player(seat).hand
        choices = RULESET.legal_commands(state.game, seat)
        # one choice per sub-multiset of the hand: each distinct card replaced 0..its count times
        assert len(hand) == 10
        assert len(choices) == prod(n + 1 for n in Counter(hand).values())
        assert len(choices) <= 2 ** 10
    decks = [r.event for r in records if isinstance(r.event, DeckPrepared)]
    # wisp, sable and thorn: 4 class cards + 2 unique cards x 3 copies each
    assert [d.size for d in decks] == [30, 30]
