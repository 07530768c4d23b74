"""A set may give a seat to a house bot: the set is created, a token is made for the human seat
only, each battle records the bot's entry, and the score counts wins per side as for any set."""
from __future__ import annotations

import random

from domain.battles import Battles
from domain.house import HouseSeats
from domain.sets import Sets
from tests.storage.helpers import next_seat, play_out

PLAYERS = {"p1": "alice", "p2": {"bot": "greedy"}}


def test_a_set_with_a_house_seat_plays_and_scores_by_side(sqlite_url):
    with Battles(sqlite_url) as battles:
        sets = Sets(battles)
        made = sets.create("deckduel", PLAYERS, games=2, mode="all")
        assert sorted(made.seat_tokens) == ["p1"]
        rng = random.Random(8)
        while (found := sets.get(made.set_id))["current_battle"] is not None:
            assert battles.load(found["current_battle"]).created.players == PLAYERS
            play_out(battles, found["current_battle"], rng)
        winners = [battles.load(b["battle_id"]).outcome.winner for b in found["battles"]]
        assert battles.seat_for_token(found["battles"][1]["battle_id"], made.seat_tokens["p1"]) == "p1"
    assert found["players"] == PLAYERS and len(winners) == 2 and found["finished"]
    assert found["score"] == {"p1": winners.count("p1"), "p2": winners.count("p2")}


def test_the_house_worker_plays_its_seat_in_every_battle_of_a_set(sqlite_url):
    # given a best-of-3 set whose p2 is the house's greedy bot, and the house worker
    with Battles(sqlite_url) as battles:
        sets = Sets(battles)
        house = HouseSeats(battles, sweep_seconds=3600)
        made = sets.create("deckduel", PLAYERS, games=3, mode="best_of")
        rng = random.Random(3)
        # when p1 plays random moves and the worker sweeps between them
        for _ in range(5000):
            found = sets.get(made.set_id)
            if found["finished"]:
                break
            house.sweep()
            bid = found["current_battle"]
            if bid is not None and next_seat(battles, bid) == "p1":
                battles.submit(bid, "p1", rng.choice(battles.legal(bid, "p1")))
        # then the set ended, and every p2 action in every battle is one of the house's moves
        assert found["finished"] and 2 <= len(found["battles"]) <= 3
        p2_actions = sum(1 for b in found["battles"] for r in battles.records(b["battle_id"])
                         if r.event.starts_batch() and r.event.acting_seat() == "p2")
        assert p2_actions == house.moves > 0
