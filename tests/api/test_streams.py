"""WebSocket and SSE streams against a real uvicorn server: catch-up then live, no gaps or
duplicates across reconnects, redaction per viewer, the spectator delay."""
from __future__ import annotations

import random
import threading

import httpx
import orjson
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .helpers import auth, create, hidden_leaks, step
from .server import uvicorn_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = f"sqlite:///{tmp_path_factory.mktemp('streams') / 'streams.db'}"
    with uvicorn_server(db) as url:
        yield url


@pytest.fixture
def http(server):
    with httpx.Client(base_url=server, timeout=10) as client:
        yield client


def ws_url(server: str, battle_id: str, from_seq: int, token: str | None = None) -> str:
    url = server.replace("http://", "ws://") + f"/battles/{battle_id}/stream?from={from_seq}"
    return url + (f"&token={token}" if token else "")


def read(ws, count: int) -> list[dict]:
    """`count` events, read as the frames (JSON arrays) they come in; no frame runs past them."""
    events: list[dict] = []
    while len(events) < count:
        frame = orjson.loads(ws.recv(timeout=10))
        assert isinstance(frame, list) and frame, frame
        events += frame
    assert len(events) == count, [e["seq"] for e in events]
    return events


def test_ws_catches_up_follows_live_and_resumes_without_gaps(server, http):
    battle = create(http)
    bid = battle["battle_id"]
    rng = random.Random(4)
    seen: list[int] = []
    with connect(ws_url(server, bid, 1)) as ws:
        seen += [m["seq"] for m in read(ws, 6)]             # the create batch, from the store
        first = step(http, battle, rng)
        seen += [m["seq"] for m in read(ws, len(first["events"]))]   # live
    # Commands keep flowing while nobody listens; a reconnect resumes from the next seq.
    for _ in range(5):
        step(http, battle, rng)
    with connect(ws_url(server, bid, seen[-1] + 1)) as ws:
        head = http.get(f"/battles/{bid}").json()["seq"]
        seen += [m["seq"] for m in read(ws, head - seen[-1])]
        answer = step(http, battle, rng)
        seen += [m["seq"] for m in read(ws, len(answer["events"]))]
    assert seen == list(range(1, seen[-1] + 1))


def test_ws_follows_a_battle_to_its_end_and_closes(server, http):
    battle = create(http)
    bid = battle["battle_id"]
    got: list[dict] = []
    closed = threading.Event()

    def listen() -> None:
        with connect(ws_url(server, bid, 1, battle["seat_tokens"]["p2"])) as ws:
            for message in ws:
                got.extend(orjson.loads(message))
        closed.set()

    reader = threading.Thread(target=listen)
    reader.start()
    rng = random.Random(9)
    answers = []
    while (answer := step(http, battle, rng)) is not None:
        answers.append(answer)
    assert closed.wait(20)
    reader.join()
    final = http.get(f"/battles/{bid}").json()["seq"]
    assert [m["seq"] for m in got] == list(range(1, final + 1))
    assert got[-1]["type"] == "engine.BattleEnded"
    # Before the batch that ended it, the battle was live: p2 saw only what p2 may see.
    before_end = [m for m in got if m["seq"] < answers[-1]["events"][0]["seq"]]
    assert all(hidden_leaks(m, "p2") == [] for m in before_end)
    assert all(m["chain"] is None for m in before_end) and any(m.get("redacted") for m in before_end)


def test_ws_redacts_per_viewer_and_refuses_bad_tokens(server, http):
    battle = create(http)
    bid = battle["battle_id"]
    step(http, battle, random.Random(1))
    for seat in (None, "p1", "p2"):
        token = battle["seat_tokens"][seat] if seat else None
        with connect(ws_url(server, bid, 1, token)) as ws:
            messages = read(ws, 7)
        assert all(hidden_leaks(m, seat) == [] for m in messages)
        drawn = [m for m in messages if m["type"] == "deckduel.CardsDrawn"]
        for m in drawn:
            assert (m["data"]["cards"] is not None) == (m["data"]["seat"] == seat)
            assert m["chain"] is None and m.get("redacted", False) == (m["data"]["seat"] != seat)
    with pytest.raises(Exception) as refused:
        with connect(ws_url(server, bid, 1, "wrong")) as ws:
            ws.recv(timeout=5)
    assert "4403" in str(refused.value)


def test_sse_streams_with_ids_and_resumes_from_last_event_id(server, http):
    battle = create(http)
    bid = battle["battle_id"]
    rng = random.Random(5)
    for _ in range(4):
        step(http, battle, rng)
    head = http.get(f"/battles/{bid}").json()["seq"]

    def sse(headers: dict, count: int) -> list[dict]:
        events = []
        with http.stream("GET", f"/battles/{bid}/stream.sse", headers=headers) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            ids = []
            for line in response.iter_lines():
                if line.startswith("id: "):
                    ids.append(int(line[4:]))
                if line.startswith("data: "):
                    events.append(orjson.loads(line[6:]))
                    if len(events) == count:
                        break
            assert ids == [e["seq"] for e in events]
        return events

    first = sse(auth(battle["seat_tokens"]["p1"]), 5)
    rest = sse({**auth(battle["seat_tokens"]["p1"]), "Last-Event-ID": str(first[-1]["seq"])}, head - 5)
    assert [e["seq"] for e in first + rest] == list(range(1, head + 1))
    assert all(hidden_leaks(e, "p1") == [] for e in first + rest)
    assert http.get(f"/battles/{bid}/stream.sse", headers=auth("wrong")).status_code == 403


def test_spectators_are_held_behind_by_the_delay(server, http):
    battle = create(http, spectator_delay=2)
    bid = battle["battle_id"]
    rng = random.Random(7)
    answers = [step(http, battle, rng) for _ in range(4)]
    action_seqs = [a["events"][0]["seq"] for a in answers]
    visible = action_seqs[-2] - 1          # everything before the two latest actions
    spectator = http.get(f"/battles/{bid}/events").json()["events"]
    assert spectator[-1]["seq"] == visible
    assert http.get(f"/battles/{bid}").json()["seq"] == visible
    assert http.get(f"/battles/{bid}/at/{visible + 1}").status_code == 404
    seat_view = http.get(f"/battles/{bid}/events", headers=auth(battle["seat_tokens"]["p1"])).json()["events"]
    assert seat_view[-1]["seq"] == answers[-1]["seq"]
    with connect(ws_url(server, bid, 1)) as ws:
        got = read(ws, visible)
        answer = step(http, battle, rng)
        # The horizon moves by one action: the spectator now gets the batch two actions back.
        more = read(ws, action_seqs[-1] - 1 - visible)
    assert [m["seq"] for m in got + more] == list(range(1, action_seqs[-1]))
    assert answer is not None



def test_a_closed_websocket_stops_its_feed(client, app):
    """A spectator that leaves a quiet battle must not leave a feed polling the store."""
    import time
    battle = create(client)
    bid = battle["battle_id"]
    hub = app.state.services.live
    for _ in range(3):
        with client.websocket_connect(f"/battles/{bid}/stream?from=1") as ws:
            assert [e["seq"] for e in orjson.loads(ws.receive_bytes())] == [1, 2, 3, 4, 5, 6]
            assert hub.subscribers(bid) == 1
    deadline = time.monotonic() + 5
    while hub.subscribers(bid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hub.subscribers(bid) == 0


UNKNOWN = "00000000-0000-4000-8000-000000000000"


@pytest.mark.parametrize("battle_id", [UNKNOWN, "not-a-battle"])
@pytest.mark.parametrize("with_token", [False, True])
def test_sse_for_an_unknown_battle_is_a_404_before_the_stream_starts(server, http, battle_id, with_token):
    headers = auth("some-token") if with_token else {}
    answer = http.get(f"/battles/{battle_id}/stream.sse", headers=headers, timeout=5)
    assert answer.status_code == 404, answer.text
    assert answer.headers["content-type"] == "application/json"
    assert answer.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("battle_id", [UNKNOWN, "not-a-battle"])
@pytest.mark.parametrize("with_token", [False, True])
def test_ws_for_an_unknown_battle_closes_with_4404(server, battle_id, with_token):
    with connect(ws_url(server, battle_id, 1, "some-token" if with_token else None)) as ws:
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None, "closed without a close frame"
    assert closed.value.rcvd.code == 4404
    assert "no battle" in closed.value.rcvd.reason


def test_sse_of_an_ended_battle_sends_it_all_then_ends(server, http):
    battle = create(http)
    while step(http, battle, random.Random(3)) is not None:
        pass
    head = http.get(f"/battles/{battle['battle_id']}").json()["seq"]
    answer = http.get(f"/battles/{battle['battle_id']}/stream.sse", timeout=5)
    assert answer.status_code == 200
    ids = [int(line[4:]) for line in answer.text.splitlines() if line.startswith("id: ")]
    assert ids == list(range(1, head + 1))
    assert answer.text.endswith("event: end\ndata: {}\n\n")
