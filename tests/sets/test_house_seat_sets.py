"""A set may give a seat to a house bot: the set is created, tokens are made for every seat,
each battle records the bot's entry, and the score counts wins per side as for any set."""
from __future__ import annotations

import random

from domain.battles import Battles
from domain.sets import Sets
from tests.storage.helpers import play_out

PLAYERS = {"p1": "alice", "p2": {"bot": "greedy"}}


def test_a_set_with_a_house_seat_plays_and_scores_by_side(sqlite_url):
    with Battles(sqlite_url) as battles:
        sets = Sets(battles)
        made = sets.create("deckduel", PLAYERS, games=2, mode="all")
        assert sorted(made.seat_tokens) == ["p1", "p2"]
        rng = random.Random(8)
        while (found := sets.get(made.set_id))["current_battle"] is not None:
            assert battles.load(found["current_battle"]).created.players == PLAYERS
            play_out(battles, found["current_battle"], rng)
        winners = [battles.load(b["battle_id"]).outcome.winner for b in found["battles"]]
        assert battles.seat_for_token(found["battles"][1]["battle_id"], made.seat_tokens["p2"]) == "p2"
    assert found["players"] == PLAYERS and len(winners) == 2 and found["finished"]
    assert found["score"] == {"p1": winners.count("p1"), "p2": winners.count("p2")}
