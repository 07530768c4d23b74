"""Redis restarted while commands keep flowing: commands are still accepted (the event store is
the source of truth), a WebSocket client resumes from its last seq and gets every one, and the
views catch up after Redis returns empty."""
from __future__ import annotations

import random
import time

import httpx
import orjson
from websockets.sync.client import connect

from .helpers import auth, create, step
from .server import redis_server, uvicorn_server


def test_commands_and_streams_survive_a_redis_restart(sqlite_url):
    with redis_server() as (redis_url, kill_redis, start_redis), \
            uvicorn_server(sqlite_url, redis_url=redis_url) as url, httpx.Client(base_url=url, timeout=20) as http:
        battle = create(http)
        bid = battle["battle_id"]
        rng = random.Random(21)
        seen: list[int] = []
        ws_url = url.replace("http", "ws") + f"/battles/{bid}/stream"
        with connect(ws_url + "?from=1") as ws:
            for _ in range(3):
                answer = step(http, battle, rng)
                while not seen or seen[-1] < answer["seq"]:
                    seen += [e["seq"] for e in orjson.loads(ws.recv(timeout=10))]
            kill_redis()
            for _ in range(4):                       # commands keep being accepted without Redis
                assert step(http, battle, rng) is not None
            # Without Redis the hub delivers locally, and the stream re-reads the store on any gap.
            head = http.get(f"/battles/{bid}").json()["seq"]
            while seen[-1] < head:
                seen += [e["seq"] for e in orjson.loads(ws.recv(timeout=10))]
        start_redis()
        for _ in range(3):
            step(http, battle, rng)
        head = http.get(f"/battles/{bid}").json()["seq"]
        with connect(ws_url + f"?from={seen[-1] + 1}") as ws:
            while seen[-1] < head:
                seen += [e["seq"] for e in orjson.loads(ws.recv(timeout=10))]
        assert seen == list(range(1, head + 1))
        # The views were lost with Redis; the runner rebuilds them from the log.
        memory = http.get(f"/battles/{bid}/memory", headers=auth(battle["seat_tokens"]["p1"])).json()
        deadline = time.monotonic() + 20
        while memory["seq"] < head and time.monotonic() < deadline:
            time.sleep(0.2)
            memory = http.get(f"/battles/{bid}/memory", headers=auth(battle["seat_tokens"]["p1"])).json()
        assert memory["seq"] == head and memory["actions"][0]["seq"] == 7
