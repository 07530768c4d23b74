"""Presence: a seat is connected while a stream opened with its token is open, since the
earliest of them opened; spectators are not presence; streams that ask are told of every
change; with Redis every worker sees every worker's connections, and a dead worker's lapse."""
from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any

import httpx
import orjson
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

from api.app import create_app
from api.services import Settings
from projections.presence import LAPSES, Presence

from .helpers import auth, create, step
from .server import ROOT, forget_prefix, uvicorn_server, wait_until

NOBODY = {"connected": False, "since_ms": None, "house": False}


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    db = f"sqlite:///{tmp_path_factory.mktemp('presence') / 'presence.db'}"
    with uvicorn_server(db) as url:
        yield url


@pytest.fixture
def http(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, timeout=10) as client:
        yield client


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def stream(server: str, battle_id: str, token: str | None = None, presence: bool = False) -> ClientConnection:
    url = server.replace("http://", "ws://") + f"/battles/{battle_id}/stream?from=1"
    return connect(url + (f"&token={token}" if token else "") + ("&presence=true" if presence else ""))


def next_presence(receive: Callable[[], Any]) -> dict[str, Any]:
    """The next presence message, past any batch (a JSON array) before it."""
    while True:
        message = orjson.loads(receive())
        if isinstance(message, dict):
            assert message["type"] == "presence", message
            return message["presence"]


def presence_of(http: Any, battle_id: str) -> dict[str, Any]:
    return http.get(f"/battles/{battle_id}").json()["presence"]


def until_presence(http: Any, battle_id: str, seat: str, connected: bool) -> dict[str, Any]:
    wait_until(lambda: presence_of(http, battle_id)[seat]["connected"] is connected, timeout=10,
               what=f"{seat} connected={connected}")
    return presence_of(http, battle_id)


def test_a_seat_websocket_makes_the_seat_connected_since_it_opened(server, http):
    battle = create(http)
    bid = battle["battle_id"]
    assert presence_of(http, bid) == {"p1": NOBODY, "p2": NOBODY}
    before = now_ms()
    with stream(server, bid, battle["seat_tokens"]["p1"], presence=True) as ws:
        # The first message, sent once the stream counts, is the presence with itself in it.
        first = next_presence(lambda: ws.recv(timeout=10))
        after = now_ms()
        since = first["p1"]["since_ms"]
        assert before <= since <= after
        assert first == {"p1": {"connected": True, "since_ms": since, "house": False}, "p2": NOBODY}
        assert presence_of(http, bid) == first
        assert "presence" not in http.get(f"/battles/{bid}/at/3").json()        # time travel is history
    assert until_presence(http, bid, "p1", False) == {"p1": NOBODY, "p2": NOBODY}


def sse_lines(http: httpx.Client, battle_id: str, headers: dict[str, str],
              query: str = "") -> Generator[str, None, None]:
    with http.stream("GET", f"/battles/{battle_id}/stream.sse{query}", headers=headers) as response:
        assert response.status_code == 200
        yield from response.iter_lines()


def sse_presence(lines: Iterator[str]) -> dict[str, Any]:
    """The data of the next `event: presence`; such an event has no `id:`, which counts seqs."""
    kind = None
    for line in lines:
        if line.startswith("event: "):
            kind = line[len("event: "):]
        elif line.startswith("data: ") and kind == "presence":
            message = orjson.loads(line[len("data: "):])
            assert message["type"] == "presence"
            return message["presence"]
        elif line.startswith("id: "):
            assert kind is None or kind == "battle"
        elif line == "":
            kind = None
    raise AssertionError("the stream ended without a presence event")


def test_a_seat_sse_stream_makes_the_seat_connected(server, http):
    battle = create(http)
    bid = battle["battle_id"]
    before = now_ms()
    lines = sse_lines(http, bid, auth(battle["seat_tokens"]["p2"]), "?presence=true")
    first = sse_presence(lines)
    since = first["p2"]["since_ms"]
    assert before <= since <= now_ms()
    assert first == {"p1": NOBODY, "p2": {"connected": True, "since_ms": since, "house": False}}
    assert presence_of(http, bid) == first
    lines.close()                   # the client goes away
    assert until_presence(http, bid, "p2", False) == {"p1": NOBODY, "p2": NOBODY}


def test_a_seat_stays_connected_while_any_of_its_streams_is_open(server, http):
    battle = create(http)
    bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
    with ExitStack() as older:
        ws1 = older.enter_context(stream(server, bid, token, presence=True))
        since1 = next_presence(lambda: ws1.recv(timeout=10))["p1"]["since_ms"]
        time.sleep(0.01)            # the second opens at a later millisecond
        before2 = now_ms()
        with stream(server, bid, token, presence=True) as ws2:
            # since_ms is the earliest open stream's: still the first one's.
            assert next_presence(lambda: ws2.recv(timeout=10))["p1"]["since_ms"] == since1
            after2 = now_ms()
            older.close()           # the first closes; the second holds the seat
            wait_until(lambda: presence_of(http, bid)["p1"]["since_ms"] != since1, timeout=10,
                       what="the earliest open stream to be the second")
            shown = presence_of(http, bid)["p1"]
            assert shown["connected"] is True and before2 <= shown["since_ms"] <= after2
    assert until_presence(http, bid, "p1", False)["p1"] == NOBODY


def test_spectators_are_not_presence_and_house_seats_are_the_services(server, http):
    battle = create(http, players={"p1": "alice", "p2": {"bot": "greedy"}})
    bid = battle["battle_id"]
    house = {"connected": True, "since_ms": None, "house": True}
    with stream(server, bid, presence=True) as ws:
        assert next_presence(lambda: ws.recv(timeout=10)) == {"p1": NOBODY, "p2": house}
        lines = sse_lines(http, bid, {}, "?presence=true")
        assert sse_presence(lines) == {"p1": NOBODY, "p2": house}
        assert presence_of(http, bid) == {"p1": NOBODY, "p2": house}
        lines.close()


def test_every_stream_that_asks_is_told_when_a_seat_comes_and_goes(server, http):
    battle = create(http)
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    with stream(server, bid, presence=True) as spectator, stream(server, bid, tokens["p2"], presence=True) as p2:
        watch, seat = (lambda: spectator.recv(timeout=10)), (lambda: p2.recv(timeout=10))
        assert next_presence(watch) == {"p1": NOBODY, "p2": NOBODY}         # as it opened
        assert next_presence(watch)["p2"]["connected"] is True              # p2 came
        assert next_presence(seat)["p2"]["connected"] is True               # p2's own, as it opened
        lines = sse_lines(http, bid, {}, "?presence=true")
        assert sse_presence(lines)["p2"]["connected"] is True
        with stream(server, bid, tokens["p1"]):                              # p1 comes, not asking itself
            told = [next_presence(watch), next_presence(seat), sse_presence(lines)]
            assert all(shown["p1"]["connected"] and shown["p2"]["connected"] for shown in told), told
        # p1's stream closes: every stream that asked hears that p1 has gone, and p2 has not.
        told = [next_presence(watch), next_presence(seat), sse_presence(lines)]
        assert all(shown["p1"] == NOBODY and shown["p2"]["connected"] for shown in told), told
        lines.close()


def test_a_stream_that_does_not_ask_gets_batches_only(server, http):
    battle = create(http)
    bid = battle["battle_id"]
    with stream(server, bid) as spectator:
        assert [e["seq"] for e in orjson.loads(spectator.recv(timeout=10))] == list(range(1, 7))
        with stream(server, bid, battle["seat_tokens"]["p1"]) as seat:
            until_presence(http, bid, "p1", True)
            seat.close()
        until_presence(http, bid, "p1", False)
        answer = step(http, battle, random.Random(3))
        assert answer is not None
        frame = orjson.loads(spectator.recv(timeout=10))    # the next message is the batch
        assert isinstance(frame, list) and [e["seq"] for e in frame] == [e["seq"] for e in answer["events"]]


# -- with Redis: several workers --------------------------------------------------------------

WAIT = ThreadPoolExecutor(4, thread_name_prefix="presence-test")


def within(receive: Callable[[], Any], seconds: float = 10) -> Callable[[], Any]:
    """A TestClient socket's receive, failing after `seconds` instead of blocking for good."""
    return lambda: WAIT.submit(receive).result(timeout=seconds)


def test_every_worker_sees_every_workers_connections_through_redis(sqlite_url, redis_url):
    prefix = f"t{uuid.uuid4().hex[:10]}"
    settings = Settings(database_url=sqlite_url, redis_url=redis_url, redis_prefix=prefix)
    try:
        with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
            battle = create(a)
            bid, tokens = battle["battle_id"], battle["seat_tokens"]
            with a.websocket_connect(f"/battles/{bid}/stream?token={tokens['p1']}&presence=true") as p1:
                since = next_presence(within(p1.receive_bytes))["p1"]["since_ms"]
                shown = until_presence(b, bid, "p1", True)
                assert shown == {"p1": {"connected": True, "since_ms": since, "house": False}, "p2": NOBODY}
                with b.websocket_connect(f"/battles/{bid}/stream?presence=true") as spectator:
                    assert next_presence(within(spectator.receive_bytes)) == shown
                    # p2 comes on worker A: the spectator on worker B is told.
                    with a.websocket_connect(f"/battles/{bid}/stream?token={tokens['p2']}"):
                        assert next_presence(within(spectator.receive_bytes))["p2"]["connected"] is True
                    assert next_presence(within(spectator.receive_bytes))["p2"] == NOBODY
            assert until_presence(b, bid, "p1", False) == {"p1": NOBODY, "p2": NOBODY}
    finally:
        forget_prefix(redis_url, prefix)


HOLDER = """
import sys, time
from projections.presence import Presence
presence = Presence(lambda battle_id, message: None, lambda: 1234, sys.argv[1], sys.argv[2], refresh=0.2)
presence.start()
presence.join("b", "p1", {"p1": "alice", "p2": "bob"})
print("joined", flush=True)
time.sleep(60)
"""


def test_a_dead_workers_connections_lapse(redis_url):
    prefix = f"t{uuid.uuid4().hex[:10]}"
    watcher = Presence(lambda battle_id, message: None, now_ms, redis_url, prefix)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, redis_url, prefix], stdout=subprocess.PIPE, env=env)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"joined\n"
        wait_until(lambda: watcher.since("b") == {"p1": 1234}, timeout=10, what="the holder's connection")
        holder.kill()               # no cleanup: its fields stay in Redis until they lapse
        holder.wait()
        assert watcher.since("b") == {"p1": 1234}
        # Its last refresh lapses LAPSES refreshes later (3 x 0.2 s).
        wait_until(lambda: watcher.since("b") == {}, timeout=LAPSES * 0.2 + 5, what="the dead worker's lapse")
    finally:
        holder.kill()
        watcher.close()
        forget_prefix(redis_url, prefix)
