"""The search bot's budget, its difficulty option, and its reproducibility."""
from __future__ import annotations

from typing import Any, cast

import pytest

from domain.ai import check_house_players, get_policy
from domain.ai.match import bot_choice, play, seeded_bytes, seen_by
from domain.ai.search import MIN_ITERATIONS, Node, Search, SearchBot, Tuning, budget_for
from domain.engine.battle import open_battle
from domain.engine.errors import InvalidInput
from domain.engine.rng import Rng
from domain.engine.ruleset import get_ruleset
from domain.engine.table import parse_player, player_id


def test_the_budget_is_the_tuning_s_without_a_clock():
    # given a search of 200 iterations, when no clock runs, then it spends all 200
    assert budget_for(Tuning(iterations=200), None) == 200


def test_under_a_clock_a_move_spends_a_twentieth_of_the_time_left():
    tuning = Tuning(iterations=200, iterations_per_second=200)
    # given 60 s left: 60,000 ms / 20 = 3,000 ms, at 200 per second 600 iterations; the tuning caps it at 200
    assert budget_for(tuning, 60_000) == 200
    # given 5 s left: 5,000 / 20 = 250 ms, at 200 per second 50 iterations
    assert budget_for(tuning, 5_000) == 50
    # given 0.1 s left: 100 / 20 = 5 ms, 1 iteration; never fewer than MIN_ITERATIONS (8)
    assert budget_for(tuning, 100) == MIN_ITERATIONS == 8


def test_a_house_seat_may_give_a_searching_bot_its_iterations():
    assert parse_player("p2", {"bot": "search", "iterations": 400}) == {"bot": "search", "iterations": 400}
    assert player_id({"bot": "search", "iterations": 400}) == "house:search@400"
    assert player_id({"bot": "search"}) == "house:search"
    check_house_players("deckduel", {"p1": "alice", "p2": {"bot": "search", "iterations": 400}})


@pytest.mark.parametrize("raw, field", [
    ({"bot": "search", "iterations": 0}, "players.p2.iterations"),
    ({"bot": "search", "iterations": 20_001}, "players.p2.iterations"),
    ({"bot": "search", "iterations": "400"}, "players.p2.iterations"),
    ({"bot": "search", "iterations": True}, "players.p2.iterations"),
    ({"bot": "search", "level": 3}, "players.p2"),
])
def test_bad_iterations_are_refused_naming_the_field(raw, field):
    with pytest.raises(InvalidInput) as refused:
        parse_player("p2", raw)
    assert refused.value.details["field"] == field


def test_only_a_searching_bot_takes_iterations():
    with pytest.raises(InvalidInput, match="does not search"):
        check_house_players("deckduel", {"p1": "alice", "p2": {"bot": "greedy", "iterations": 10}})
    with pytest.raises(InvalidInput, match="does not search"):
        get_policy("greedy", "deckduel", iterations=10)


def test_iterations_set_the_budget():
    bot = get_policy("search", "deckduel", iterations=37)
    assert isinstance(bot, SearchBot) and bot.tuning.iterations == 37


@pytest.mark.parametrize("ruleset_id", ["deckduel", "ring", "rat", "skirmish", "battleboard"])
def test_the_same_seed_makes_the_same_choice(ruleset_id):
    rs = get_ruleset(ruleset_id)
    state, _ = open_battle(rs, battle_id="00000000-0000-4000-8000-000000000001", setup=rs.fresh_setup(),
                           players={s: f"player-{s}" for s in rs.default_table().seats},
                           revealed=seeded_bytes("search"), created_at="2026-01-01T00:00:00.000Z")
    seat = min(rs.awaiting(state.game))
    bot = get_policy("search", ruleset_id, iterations=16)
    legal = rs.legal_commands(state.game, seat)
    choices = {rs.codec.wire(bot_choice(bot, rs, state.game, seat, legal, Rng(b"same"),
                                        seen=seen_by(rs, state, seat, None))).__repr__() for _ in range(3)}
    assert len(choices) == 1


def test_a_search_bot_plays_a_whole_battle():
    rs = get_ruleset("deckduel")
    bots = {"p1": get_policy("search", "deckduel", iterations=8), "p2": get_policy("greedy", "deckduel")}
    match = play(rs, bots, battle_id="00000000-0000-4000-8000-000000000002", revealed=seeded_bytes("whole"),
                 bot_seed=seeded_bytes("whole-bots"))
    assert match.state.outcome is not None
    assert match.state.created.players == {"p1": {"bot": "search"}, "p2": {"bot": "greedy"}}


def test_an_anchored_search_plays_the_rating_s_first_unless_its_best_leads_clearly():
    search = Search(cast(Any, None), Tuning(), Rng(b"anchor"))
    # given the rating's first won 20.0 in 40 visits (mean 0.50, variance 12.0 / 40 - 0.50^2 = 0.05)
    # and the search's best 31.8 in 60 (mean 0.53, variance 19.854 / 60 - 0.53^2 = 0.05)
    search.root.children = {"first": visited(40, 20.0, 12.0), "best": visited(60, 31.8, 19.854)}
    # the lead 0.03 is 0.03 / sqrt(0.05 / 40 + 0.05 / 60) = 0.03 / 0.0456 = 0.66 standard errors
    # when the anchor is 1 standard error, then the rating's first
    assert search.anchored("best", "first", 1.0) == "first"
    # when it is 0.5, then the search's best
    assert search.anchored("best", "first", 0.5) == "best"
    # a command the search never tried counts a mean of 0 with no spread: the best leads by 0.53
    assert search.anchored("best", "untried", 3.0) == "best"
    # a best that does not lead is never played over the first, whatever the anchor
    assert search.anchored("first", "best", 0.0) == "best"


def visited(visits: int, total: float, squares: float) -> Node:
    node = Node("foes")
    node.visits, node.total, node.squares = visits, total, squares
    return node
