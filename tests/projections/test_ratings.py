"""Leaderboards rate sides as teams; history records each player's side."""
from __future__ import annotations

import pytest

from projections.ratings import Leaderboards, ordinal, seated
from projections.store import MemoryViewStore
from domain.engine.table import Table, one_seat_sides

HEROES = Table((("heroes", ("h1", "h2")), ("foes", ("gm",))))


def rated(board: Leaderboards, store: MemoryViewStore, sides: dict, winner: str | None) -> None:
    store.apply("leaderboards", board.rate("demo", sides, winner, {"battle_id": "b1"}), position=1)


def test_a_side_of_two_wins_together_and_each_member_gains():
    # given two heroes on one side against a game master, all unrated (mu 25, sigma 25/3)
    store = MemoryViewStore(prefix="t")
    board = Leaderboards(None, store)  # type: ignore[arg-type]
    sides = seated({"h1": "ann", "h2": "bo", "gm": {"bot": "greedy"}}, HEROES)
    assert sides == {"heroes": [["h1", "ann"], ["h2", "bo"]], "foes": [["gm", "house:greedy"]]}
    # when the heroes side wins
    rated(board, store, sides, "heroes")
    stats = store.hgetall(store.key("leaderboards", "demo", "stats"))
    # then both heroes gain the same (one team, equal priors), each counts a win; the house bot loses
    assert stats["ann"]["mu"] == pytest.approx(stats["bo"]["mu"]) and stats["ann"]["mu"] > 25
    assert (stats["ann"]["wins"], stats["bo"]["wins"], stats["house:greedy"]["wins"]) == (1, 1, 0)
    assert stats["house:greedy"]["mu"] < 25
    assert all(row["games"] == 1 for row in stats.values())


def test_a_side_of_one_seat_rates_as_a_one_player_team():
    # given a duel: two sides of one seat each, named like the seats
    store = MemoryViewStore(prefix="t")
    board = Leaderboards(None, store)  # type: ignore[arg-type]
    sides = seated({"p1": "ann", "p2": "bo"}, one_seat_sides("p1", "p2"))
    rated(board, store, sides, "p2")
    stats = store.hgetall(store.key("leaderboards", "demo", "stats"))
    # then openskill's two-player update: the winner's mu rises by what the loser's falls
    assert stats["bo"]["mu"] - 25 == pytest.approx(25 - stats["ann"]["mu"])
    assert ordinal(stats["bo"]) > ordinal(stats["ann"])


def test_a_draw_moves_nobody_apart():
    store = MemoryViewStore(prefix="t")
    board = Leaderboards(None, store)  # type: ignore[arg-type]
    rated(board, store, seated({"p1": "ann", "p2": "bo"}, one_seat_sides("p1", "p2")), None)
    stats = store.hgetall(store.key("leaderboards", "demo", "stats"))
    assert stats["ann"]["mu"] == pytest.approx(stats["bo"]["mu"])
    assert stats["ann"]["wins"] == stats["bo"]["wins"] == 0


RULES_PLAYED = Table((("party", ("p1",)), ("enemies", ())))


def test_a_side_the_rules_play_is_not_rated_and_the_party_rates_against_a_fixed_anchor():
    # given a rat party of one seat against the enemies, a side with no seat, all unrated
    store = MemoryViewStore(prefix="t")
    board = Leaderboards(None, store)  # type: ignore[arg-type]
    sides = seated({"p1": "ann"}, RULES_PLAYED)
    assert sides == {"party": [["p1", "ann"]], "enemies": []}
    # when the party wins, and then loses
    rated(board, store, sides, "party")
    won = store.hget(store.key("leaderboards", "demo", "stats"), "ann")
    store.apply("leaderboards", board.rate("demo", sides, "enemies", {"battle_id": "b2"}), position=2)
    lost = store.hget(store.key("leaderboards", "demo", "stats"), "ann")
    # then the party rates as a one-player team against an anchor of the default rating
    # (mu 25, sigma 25/3), as a duel's first win against an unrated player would
    duel = MemoryViewStore(prefix="t")
    first_duel = Leaderboards(None, duel)  # type: ignore[arg-type]
    rated(first_duel, duel, seated({"p1": "ann", "p2": "bo"}, one_seat_sides("p1", "p2")), "p1")
    assert won["mu"] == pytest.approx(duel.hget(duel.key("leaderboards", "demo", "stats"), "ann")["mu"])
    assert (won["games"], won["wins"], lost["games"], lost["wins"]) == (1, 1, 2, 1)
    assert lost["mu"] < won["mu"]
    # and the anchor is nobody: the ranking lists the party alone
    assert [p for p, _ in store.ztop(store.key("leaderboards", "demo", "ranking"), 10)] == ["ann"]
