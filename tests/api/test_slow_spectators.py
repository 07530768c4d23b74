"""A spectator that stops reading falls too far behind and is closed with 4408 (over SSE: sent
`event: behind`), while a spectator of the same battle that keeps reading gets every batch as it
is committed; the stalled one then resumes from its next seq and has the whole log, with no gap
and no repeat.

The server is a real uvicorn (`ringside serve`'s stack) whose sockets have small kernel buffers
(tests/api/tight_server.py), and the stalled client a raw socket with a small receive buffer
that offers no compression, so that what the server cannot hand over is known: the kernel's few
kilobytes plus the event loop's 64 KiB write buffer. The battle is a ring battle played calmly
(swaps and turn ends only: nobody is knocked out) until its spectator log is twice that.
"""
from __future__ import annotations

import os
import random
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import orjson
import pytest
from websockets.client import ClientProtocol
from websockets.frames import Opcode
from websockets.sync.client import connect
from websockets.uri import parse_uri

from .helpers import auth, create
from .server import ROOT, free_port, serving

OUTBOX = 2                  # batches a spectator may have waiting (RINGSIDE_STREAM_OUTBOX)
STALLED_VOLUME = 150_000    # spectator log bytes: over twice what the server can hand over unread
CALM = {"swap", "end_turn"}
DAMAGING = {"ability", "leader_ability", "strike_leader", "use_item"}
LONG_RING = {"params": {"max_turns": 1000}, "p1": {"deck": "ember_rush"}, "p2": {"deck": "iron_wall"}}


@contextmanager
def tight_server(db_url: str) -> Iterator[str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}
    env.update({"RINGSIDE_DATABASE_URL": db_url, "RINGSIDE_STREAM_OUTBOX": str(OUTBOX), "PYTHONPATH": str(ROOT)})
    with serving([sys.executable, "-m", "tests.api.tight_server", str(port)], env, port) as url:
        yield url


def calm_step(http: httpx.Client, battle: dict, rng: random.Random) -> dict:
    """One command of the awaited seat that harms nobody (a setup pick, a swap, a turn's end)."""
    bid = battle["battle_id"]
    for token in battle["seat_tokens"].values():
        legal = http.get(f"/battles/{bid}/legal", headers=auth(token)).json()["legal"]
        calm = [c for c in legal if c["type"] in CALM] or [c for c in legal if c["type"] not in DAMAGING]
        if calm:
            answer = http.post(f"/battles/{bid}/commands", headers=auth(token), json={"command": rng.choice(calm)})
            assert answer.status_code == 200, answer.text
            return answer.json()
    raise AssertionError("no seat has a calm command")


def long_battle(http: httpx.Client, seed: int) -> tuple[dict, random.Random]:
    """A ring battle played calmly until its spectator log is STALLED_VOLUME long."""
    battle, rng = create(http, "ring", setup=LONG_RING), random.Random(seed)
    while len(http.get(f"/battles/{battle['battle_id']}/events").content) < STALLED_VOLUME:
        for _ in range(25):
            calm_step(http, battle, rng)
    return battle, rng


class StalledSpectator:
    """A WebSocket client on a raw socket that reads only when told to."""

    def __init__(self, ws_url: str):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)    # before connecting
        self.sock.settimeout(10)
        uri = parse_uri(ws_url)
        self.sock.connect((uri.host, uri.port))
        self.protocol = ClientProtocol(uri)
        self.protocol.send_request(self.protocol.connect())
        self.flush()
        self.frames: list[bytes] = []
        while self.protocol.handshake_exc is None and not self.protocol.state.name == "OPEN":
            self.read_some()
        assert self.protocol.handshake_exc is None

    def flush(self) -> None:
        for data in self.protocol.data_to_send():
            if data:
                self.sock.sendall(data)

    def read_some(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            raise AssertionError("the server closed the connection without a close frame")
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if getattr(event, "opcode", None) in (Opcode.TEXT, Opcode.BINARY):
                self.frames.append(event.data)
        self.flush()

    def read_to_close(self) -> tuple[list[int], int, str]:
        """Every seq it is sent, then the close code and reason."""
        while self.protocol.close_rcvd is None:
            self.read_some()
        self.sock.close()
        seqs = [event["seq"] for frame in self.frames for event in orjson.loads(frame)]
        return seqs, self.protocol.close_rcvd.code, self.protocol.close_rcvd.reason


def unchunked(body: bytes) -> bytes:
    """An HTTP/1.1 chunked body, joined."""
    parts = []
    while body:
        size, _, body = body.partition(b"\r\n")
        length = int(size, 16)
        parts.append(body[:length])
        body = body[length + 2:]
    return b"".join(parts)


def read_events(ws, count: int) -> list[int]:
    seqs: list[int] = []
    while len(seqs) < count:
        seqs += [event["seq"] for event in orjson.loads(ws.recv(timeout=10))]
    return seqs


@pytest.mark.timeout(180)
def test_a_stalled_spectator_is_closed_with_4408_and_resumes_while_the_others_keep_up(sqlite_url):
    with tight_server(sqlite_url) as url, httpx.Client(base_url=url, timeout=20) as http:
        battle, rng = long_battle(http, seed=8)
        bid = battle["battle_id"]
        head = http.get(f"/battles/{bid}").json()["seq"]
        ws_url = url.replace("http", "ws") + f"/battles/{bid}/stream"
        with connect(ws_url + "?from=1", compression=None) as keeping_up:
            assert read_events(keeping_up, head) == list(range(1, head + 1))
            stalled = StalledSpectator(ws_url + "?from=1")
            # The stalled stream cannot send its catch-up, so the live batches pile up in its
            # outbox, which overflows at the batch after OUTBOX; the other one gets each batch.
            for _ in range(OUTBOX + 3):
                answer = calm_step(http, battle, rng)
                seqs = [e["seq"] for e in answer["events"]]
                assert read_events(keeping_up, len(seqs)) == seqs
            head = answer["seq"]
            got, code, reason = stalled.read_to_close()
            assert code == 4408
            assert got == list(range(1, len(got) + 1)) and len(got) < head
            assert reason == f"too far behind; reconnect with from={len(got) + 1}"
            with connect(ws_url + f"?from={len(got) + 1}", compression=None) as resumed:
                got += read_events(resumed, head - len(got))
            assert got == list(range(1, head + 1))
            answer = calm_step(http, battle, rng)           # and the other one is still following
            assert read_events(keeping_up, len(answer["events"])) == [e["seq"] for e in answer["events"]]


@pytest.mark.timeout(180)
def test_a_spectator_that_stalls_once_caught_up_is_closed_with_4408_and_resumes(sqlite_url):
    """A caught-up spectator is written each batch straight to its socket (api/adapters/uvicorn.py);
    once it stops reading, the socket's buffers fill, the batches queue, and it is dropped just
    the same, told the first seq it was not sent."""
    with tight_server(sqlite_url) as url, httpx.Client(base_url=url, timeout=20) as http:
        battle, rng = create(http, "ring", setup=LONG_RING), random.Random(10)
        bid = battle["battle_id"]
        start = http.get(f"/battles/{bid}").json()["seq"] + 1
        ws_url = url.replace("http", "ws") + f"/battles/{bid}/stream?from={start}"
        with connect(ws_url, compression=None) as keeping_up:
            stalled = StalledSpectator(ws_url)
            answer = calm_step(http, battle, rng)
            assert read_events(keeping_up, len(answer["events"])) == [e["seq"] for e in answer["events"]]
            stalled.read_some()                 # it has its first batch: caught up, and now it stops
            assert [e["seq"] for e in orjson.loads(stalled.frames[0])] == [e["seq"] for e in answer["events"]]
            while len(http.get(f"/battles/{bid}/events?from={start}").content) < STALLED_VOLUME:
                for _ in range(10):         # the log is measured every ten steps: it is read whole
                    answer = calm_step(http, battle, rng)
                    assert read_events(keeping_up, len(answer["events"])) == [e["seq"] for e in answer["events"]]
            head = answer["seq"]
            got, code, reason = stalled.read_to_close()
            assert code == 4408
            assert got == list(range(start, start + len(got))) and start + len(got) <= head
            assert reason == f"too far behind; reconnect with from={start + len(got)}"
            with connect(url.replace("http", "ws") + f"/battles/{bid}/stream?from={start + len(got)}",
                         compression=None) as resumed:
                got += read_events(resumed, head + 1 - start - len(got))
            assert got == list(range(start, head + 1))


def test_a_stalled_sse_client_is_told_it_is_behind_and_resumes_with_last_event_id(sqlite_url):
    with tight_server(sqlite_url) as url, httpx.Client(base_url=url, timeout=20) as http:
        battle, rng = long_battle(http, seed=9)
        bid = battle["battle_id"]
        stalled = socket.socket()
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.settimeout(10)
        stalled.connect(("127.0.0.1", int(url.rsplit(":", 1)[1])))
        stalled.sendall(f"GET /battles/{bid}/stream.sse?from=1 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
                        .encode())
        stalled.recv(1)                     # the stream has begun; now it stops reading
        for _ in range(OUTBOX + 3):
            head = calm_step(http, battle, rng)["seq"]
        body = b""
        while chunk := stalled.recv(65536):
            body += chunk
        stalled.close()
        messages = unchunked(body.split(b"\r\n\r\n", 1)[1]).decode().split("\n\n")
        ids = [int(m.split("\n")[0][4:]) for m in messages if m.startswith("id: ")]
        assert ids == list(range(1, len(ids) + 1)) and len(ids) < head
        assert f'event: behind\ndata: {{"from": {len(ids) + 1}}}' in messages
        resumed: list[int] = []
        with http.stream("GET", f"/battles/{bid}/stream.sse", headers={"Last-Event-ID": str(ids[-1])}) as response:
            for line in response.iter_lines():
                if line.startswith("id: "):
                    resumed.append(int(line[4:]))
                    if resumed[-1] == head:
                        break
        assert ids + resumed == list(range(1, head + 1))
