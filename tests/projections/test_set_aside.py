"""A view that fails on one battle sets that battle aside and goes on with every other."""
from __future__ import annotations

import uuid

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.battles import Battles
from domain.engine.ruleset import get_ruleset
from projections.ratings import PlayerHistory
from projections.runner import ASIDE, Views
from projections.store import MemoryViewStore


def store_battle(battles: Battles, ruleset_id: str, i: int, players: dict) -> str:
    ruleset = get_ruleset(ruleset_id)
    bots = {seat: get_policy("greedy", ruleset_id) for seat in players}
    match = play(ruleset, bots, battle_id=str(uuid.UUID(int=i + 1)), revealed=seeded_bytes("aside", i),
                 bot_seed=seeded_bytes("aside-bots", i), players=players)
    battles.save_battle(match.records, match.state)
    return match.state.battle_id


def ended(views: Views) -> list[str]:
    store = views.store
    return sorted(b for b, _ in store.ztop(store.key("battles", "ended"), 100))


def test_a_finished_rat_battle_is_listed_rated_and_kept_in_history(sqlite_url):
    # given a rat party (one seat against the rules-played enemies) and a duel, stored
    with Battles(sqlite_url) as battles:
        rat = store_battle(battles, "rat", 0, {"p1": "ann"})
        duel = store_battle(battles, "deckduel", 1, {"p1": "ann", "p2": "bo"})
        # when the views catch up
        views = Views(battles, MemoryViewStore(prefix="t"))
        views.catch_up()
    # then both battles are listed as ended, the party is rated, and nothing was set aside
    store = views.store
    assert ended(views) == sorted([rat, duel])
    assert store.hget(store.key("leaderboards", "rat", "stats"), "ann")["games"] == 1
    assert [b["battle_id"] for b in store.lrange(store.key("history", "ann", "battles"))] == [rat, duel]
    assert views.set_aside() == {}


def test_a_view_failing_on_one_battle_sets_it_aside_and_the_rest_go_on(sqlite_url, monkeypatch, caplog):
    # given three stored duels, and a history view that fails on the second one's end
    with Battles(sqlite_url) as battles:
        ids = [store_battle(battles, "deckduel", i, {"p1": "ann", "p2": "bo"}) for i in range(3)]
        real = PlayerHistory.project

        def failing(self, owner_id, rec, *args):
            if owner_id == ids[1] and rec.event.TOPIC == "engine.BattleEnded":
                raise RuntimeError("broken")
            return real(self, owner_id, rec, *args)

        monkeypatch.setattr(PlayerHistory, "project", failing)
        views = Views(battles, MemoryViewStore(prefix="t"))
        # when the views catch up
        views.catch_up()
        # then every battle is listed, the history holds the others' results, and the failed
        # pair (history, second battle) is recorded with its seq and logged
        store = views.store
        assert ended(views) == sorted(ids)
        results = store.hgetall(store.key("history", "ann", "results"))
        assert sorted(results) == sorted([ids[0], ids[2]])
        aside = views.set_aside()
        assert list(aside) == ["history"] and list(aside["history"]) == [ids[1]]
        failure = aside["history"][ids[1]]
        assert (failure["type"], failure["error"]) == ("engine.BattleEnded", "RuntimeError: broken")
        assert failure["seq"] == battles.load(ids[1]).seq
        assert f"view history failed on {ids[1]} at seq {failure['seq']}" in caplog.text
        # and when the fault is gone and the history is rebuilt, the battle is retried
        monkeypatch.setattr(PlayerHistory, "project", real)
        store.drop("history")
        rebuilt = Views(battles, store, ["history"])
        rebuilt.catch_up()
        assert sorted(store.hgetall(store.key("history", "ann", "results"))) == sorted(ids)
        assert rebuilt.set_aside() == {}
        assert store.get(store.key("history", ASIDE)) is None
