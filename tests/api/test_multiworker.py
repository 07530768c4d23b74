"""Scale-out: two uvicorn servers on one PostgreSQL and one Redis. Commands sent to worker A
reach a WebSocket spectator on worker B, every event, in order; views are shared."""
from __future__ import annotations

import random
import threading
import uuid

import httpx
import orjson
import pytest
from websockets.sync.client import connect

from .helpers import create, step
from .server import uvicorn_server

pytestmark = pytest.mark.postgres


def test_a_spectator_on_worker_b_follows_commands_sent_to_worker_a(postgres_url, redis_url):
    prefix = f"t{uuid.uuid4().hex[:10]}"
    with uvicorn_server(postgres_url, redis_url=redis_url, prefix=prefix) as a, \
            uvicorn_server(postgres_url, redis_url=redis_url, prefix=prefix) as b, \
            httpx.Client(base_url=a, timeout=20) as worker_a, httpx.Client(base_url=b, timeout=20) as worker_b:
        battle = create(worker_a)
        bid = battle["battle_id"]
        got: list[dict] = []
        ready, done = threading.Event(), threading.Event()

        def spectate() -> None:
            with connect(b.replace("http", "ws") + f"/battles/{bid}/stream?from=1") as ws:
                ready.set()
                for message in ws:
                    got.extend(orjson.loads(message))       # each message a frame: a JSON array
            done.set()

        watcher = threading.Thread(target=spectate)
        watcher.start()
        assert ready.wait(10)
        rng = random.Random(12)
        answers = 0
        while step(worker_a, battle, rng) is not None:
            answers += 1
        assert done.wait(30), f"the spectator on B got {len(got)} events"
        watcher.join()
        final = worker_a.get(f"/battles/{bid}").json()
        assert [m["seq"] for m in got] == list(range(1, final["seq"] + 1))
        assert got[-1]["type"] == "engine.BattleEnded" and answers > 10
        # Both workers read the same store and the same Redis views.
        assert worker_b.get(f"/battles/{bid}").json() == final
        board = worker_b.get("/leaderboards/deckduel").json()["players"]
        for _ in range(100):
            if board:
                break
            board = worker_b.get("/leaderboards/deckduel").json()["players"]
        assert sorted(row["player"] for row in board) == ["alice", "bob"]
