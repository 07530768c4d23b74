"""A battle aborted because a seat never made its first move is unrated: it changes no rating
and no leaderboard, and the players' history shows it as aborted, with its reason. A timeout
that forfeits is rated like any other win."""
from __future__ import annotations

import uuid

import pytest
from openskill.models import PlackettLuce

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.battles import Battles
from domain.engine.clock import PRESETS, ClockSpec
from domain.engine.ruleset import get_ruleset
from domain.engine.timeouts import ABORTED, TIME_FORFEIT
from projections.runner import Views
from projections.store import MemoryViewStore

RULESET = get_ruleset("deckduel")
BOTS = {seat: get_policy("random", "deckduel") for seat in ("p1", "p2")}
# No first-move limit: a seat that thinks past its 5 s bank and 1 s of grace loses on time.
SHORT = ClockSpec(bank_ms=5000)


def store_battle(battles: Battles, i: int, players: dict[str, str], clock: ClockSpec,
                 think_ms: dict[str, int]) -> str:
    match = play(RULESET, BOTS, battle_id=str(uuid.UUID(int=i + 1)), revealed=seeded_bytes("u", i),
                 bot_seed=seeded_bytes("ub", i), players=players, clock=clock, think_ms=think_ms)
    battles.save_battle(match.records, match.state)
    return match.state.battle_id


@pytest.fixture
def projected(sqlite_url):
    with Battles(sqlite_url) as battles:
        # alice never makes her first move: blitz's 30 s limit and 1 s of grace pass at 31 s
        aborted = store_battle(battles, 0, {"p1": "alice", "p2": "bob"}, PRESETS["blitz"],
                               {"p1": 40_000, "p2": 1000})
        # dave's mulligan would arrive at 6 s, when his 5 s bank and 1 s of grace are gone
        forfeited = store_battle(battles, 1, {"p1": "carol", "p2": "dave"}, SHORT, {"p1": 1000, "p2": 6000})
        views = Views(battles, MemoryViewStore(prefix="t"))
        views.catch_up()
        yield battles, views.store, aborted, forfeited


def test_the_battles_ended_as_their_clocks_say(projected):
    battles, _, aborted, forfeited = projected
    ended = battles.load(aborted).outcome
    assert (ended.winner, ended.reason) == (None, ABORTED)
    ended = battles.load(forfeited).outcome
    assert (ended.winner, ended.reason) == ("p1", TIME_FORFEIT)


def test_an_aborted_battle_changes_no_rating_and_no_leaderboard(projected):
    _, store, _, _ = projected
    stats = store.hgetall(store.key("leaderboards", "deckduel", "stats"))
    ranking = [player for player, _ in store.ztop(store.key("leaderboards", "deckduel", "ranking"), 10)]
    # then neither alice nor bob is rated, ranked or counted a game
    assert "alice" not in stats and "bob" not in stats
    assert sorted(ranking) == ["carol", "dave"]
    assert store.hgetall(store.key("leaderboards", "players", "alice")) == {}


def test_a_timeout_forfeit_is_rated_like_any_win(projected):
    _, store, _, _ = projected
    stats = store.hgetall(store.key("leaderboards", "deckduel", "stats"))
    # then carol's win on time moves both ratings as openskill's two-player update of a win
    model = PlackettLuce()
    [[won], [lost]] = model.rate([[model.rating(name="carol")], [model.rating(name="dave")]], ranks=[0, 1])
    assert stats["carol"]["mu"] == pytest.approx(won.mu) and stats["dave"]["mu"] == pytest.approx(lost.mu)
    assert (stats["carol"]["games"], stats["carol"]["wins"], stats["dave"]["games"], stats["dave"]["wins"]) == \
        (1, 1, 1, 0)


def test_history_shows_the_abort_and_its_reason(projected):
    _, store, aborted, forfeited = projected
    for player in ("alice", "bob"):
        assert store.hgetall(store.key("history", player, "results")) == {aborted: "aborted"}
        assert store.hgetall(store.key("history", player, "reasons")) == {aborted: ABORTED}
        assert [row["battle_id"] for row in store.lrange(store.key("history", player, "battles"))] == [aborted]
    assert store.hgetall(store.key("history", "carol", "results")) == {forfeited: "win"}
    assert store.hgetall(store.key("history", "dave", "results")) == {forfeited: "loss"}
    assert store.hgetall(store.key("history", "dave", "reasons")) == {forfeited: TIME_FORFEIT}
