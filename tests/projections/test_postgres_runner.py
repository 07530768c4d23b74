"""On PostgreSQL the runner follows the log live: NOTIFY wakes it, so it never waits for its
(seldom) poll."""
from __future__ import annotations

import random

import pytest

from domain.battles import Battles
from projections.runner import Runner, Views
from projections.store import MemoryViewStore
from tests.storage.helpers import PLAYERS, play_out

pytestmark = pytest.mark.postgres


def test_the_runner_follows_new_battles_live(postgres_url):
    with Battles(postgres_url) as battles:
        first = battles.create("deckduel", PLAYERS)
        views = Views(battles, MemoryViewStore(prefix="pg"))
        # given a runner that would poll only every 60 s: only a NOTIFY can wake it in time
        runner = Runner(views, listen_poll_seconds=60)
        runner.start()
        try:
            assert runner.live
            views.wait(views.head())
            assert views.store.get(views.store.key("battles", first.battle_id, "p1"))["seq"] == first.seq
            second = battles.create("deckduel", PLAYERS)
            play_out(battles, second.battle_id, random.Random(3))
            views.wait(views.head(), timeout=20)
            store = views.store
            assert store.get(store.key("battles", second.battle_id, "spectator")) == \
                battles.view(second.battle_id, battles_viewer())
            board = store.ztop(store.key("leaderboards", "deckduel", "ranking"), 10)
            assert sorted(name for name, _ in board) == sorted(PLAYERS.values())
        finally:
            runner.close()


def battles_viewer():
    from domain.engine.events import Viewer
    return Viewer()
