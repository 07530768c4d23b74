"""Everyone sees the clocks: the view and time travel give each seat's time left as of their seq
and whether it runs, with the server's time now; the streams carry the clock events, held back
from a delayed spectator like every other event. Time is injected: no test waits on a clock."""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgspec
import orjson
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Settings, bootstrap
from domain.engine.clock import parse_clock
from tests.clocktime import T0, Clock

from .helpers import auth, create, step

CLOCK = {"bank_ms": 60_000, "increment_ms": 1_000}
WAIT = ThreadPoolExecutor(2, thread_name_prefix="clock-test")


@pytest.fixture
def client(sqlite_url, clock) -> Iterator[TestClient]:
    # Every batch's accept time, and the views' `now_ms`, read the test's clock.
    services = bootstrap(Settings(database_url=sqlite_url), now_ms=clock)
    with TestClient(create_app(services=services)) as test_client:
        yield test_client


def seat_view(client: TestClient, battle: dict[str, Any], seat: str, at: int | None = None) -> dict[str, Any]:
    path = f"/battles/{battle['battle_id']}" + (f"/at/{at}" if at is not None else "")
    response = client.get(path, headers=auth(battle["seat_tokens"][seat]))
    assert response.status_code == 200, response.text
    return response.json()


def clocks(view: dict[str, Any]) -> dict[str, tuple[int, bool]]:
    return {seat: (shown["remaining_ms"], shown["running"]) for seat, shown in view["clock"]["seats"].items()}


def played(client: TestClient, clock: Clock) -> dict[str, Any]:
    """A deckduel battle on CLOCK: both seats choose their openings at once (both clocks run
    from T0); p1 locks in at T0 + 5 s (seqs 8-9), p2 at T0 + 8 s (seqs 10-24, the first round)."""
    battle = create(client, clock=CLOCK, spectator_delay=1)
    rng = random.Random(1)
    for moved_at in (5_000, 8_000):
        clock.ms = T0 + moved_at
        assert step(client, battle, rng) is not None
    return battle


def test_a_clocked_battles_view_gives_each_seats_time_and_the_servers_now(client, clock):
    battle = create(client, clock=CLOCK)
    view = seat_view(client, battle, "p1")
    assert view["clock"]["at_ms"] == T0 and view["now_ms"] == T0
    assert clocks(view) == {"p1": (60_000, True), "p2": (60_000, True)}     # both choose their openings
    clock.ms = T0 + 5_000
    assert step(client, battle, random.Random(1)) is not None              # p1 locks in
    clock.ms = T0 + 6_500
    view = seat_view(client, battle, "p1")
    assert view["seq"] == 9 and view["clock"]["at_ms"] == T0 + 5_000
    # p1: 60 000 - 5 000 taken + 1 000 increment = 56 000, stopped; p2 still runs from T0:
    # 60 000 - 5 000 = 55 000 as of at_ms, and a client ticks it down by now_ms - at_ms = 1 500.
    assert clocks(view) == {"p1": (56_000, False), "p2": (55_000, True)}
    assert view["now_ms"] == T0 + 6_500 and view["clock_spec"] == msgspec.to_builtins(parse_clock(CLOCK))


def test_an_unclocked_battles_view_has_no_clock_and_no_server_time(client):
    battle = create(client)
    view = seat_view(client, battle, "p1")
    assert "clock" not in view and "now_ms" not in view and set(view["presence"]) == {"p1", "p2"}


def test_time_travel_shows_the_clocks_as_of_that_seq(client, clock):
    battle = played(client, clock)
    clock.ms = T0 + 9_000
    head = seat_view(client, battle, "p1")
    assert head["seq"] == 24 and head["clock"]["at_ms"] == T0 + 8_000
    # Before seq 7 (ClockStarted closes the create batch) the battle has no clock yet.
    assert "clock" not in seat_view(client, battle, "p1", at=6)
    started = seat_view(client, battle, "p1", at=7)
    assert started["clock"]["at_ms"] == T0 and clocks(started) == {"p1": (60_000, True), "p2": (60_000, True)}
    after_p1 = seat_view(client, battle, "p2", at=9)
    assert after_p1["clock"]["at_ms"] == T0 + 5_000
    assert clocks(after_p1) == {"p1": (56_000, False), "p2": (55_000, True)}
    # Time travel is history alone; only the view now carries the server's time.
    assert head["now_ms"] == T0 + 9_000
    assert not {"now_ms", "presence"} & (set(started) | set(after_p1) | set(seat_view(client, battle, "p1", at=24)))
    assert clocks(seat_view(client, battle, "p1", at=24)) == clocks(head)
    # p2 locked in at T0 + 8 s: 60 000 - 8 000 + 1 000 = 53 000; p1 keeps its 56 000. The round
    # that starts awaits its active player (drawn from the battle's seed), whose clock runs from
    # T0 + 8 s with all of its bank as of then.
    active = next(seat for seat, shown in head["clock"]["seats"].items() if shown["running"])
    assert clocks(head) == {"p1": (56_000, active == "p1"), "p2": (53_000, active == "p2")}
    # Only the view now carries the control too; it is the same at every seq.
    assert "clock_spec" not in started and head["clock_spec"]["increment_ms"] == 1_000


def within(receive: Callable[[], Any], seconds: float = 10) -> Any:
    return WAIT.submit(receive).result(timeout=seconds)


def streamed(ws: Any, last: int) -> list[dict[str, Any]]:
    """The stream's events, frame by frame, up to seq `last`; no frame may run past it."""
    events: list[dict[str, Any]] = []
    while not events or events[-1]["seq"] < last:
        events += orjson.loads(within(ws.receive_bytes))
    assert events[-1]["seq"] == last, [e["seq"] for e in events]
    return events


def test_the_stream_carries_the_clock_events(client, clock):
    battle = played(client, clock)
    bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
    logged = client.get(f"/battles/{bid}/events", headers=auth(token)).json()["events"]
    with client.websocket_connect(f"/battles/{bid}/stream?from=1&token={token}") as ws:
        events = streamed(ws, 24)
        assert events == logged
        clocked = [(e["seq"], e["type"], e["data"]["at_ms"]) for e in events if e["type"].startswith("engine.Clock")]
        assert clocked == [(7, "engine.ClockStarted", T0), (9, "engine.Clocked", T0 + 5_000),
                           (24, "engine.Clocked", T0 + 8_000)]
        # A timeout is a batch of its own, live on the stream: the seat awaited since T0 + 8 s
        # runs out at its bank plus a second's grace.
        seat, shown = next((s, c) for s, c in seat_view(client, battle, "p1")["clock"]["seats"].items() if c["running"])
        clock.ms = T0 + 8_000 + shown["remaining_ms"] + 1_000
        timed_out = client.app.state.services.battles.timeout_later(bid, seat, 24).result(timeout=10)
        live = streamed(ws, timed_out.seq)
        assert live[0]["seq"] == 25 and live[0]["type"] == "engine.TimedOut"
        assert live[0]["data"] == {"seat": seat, "at_ms": clock.ms, "consequence": "forfeit"}
        assert live[-1]["type"] == "engine.BattleEnded"


def test_a_held_back_spectator_sees_no_clock_event_early(client, clock):
    battle = played(client, clock)            # spectator_delay 1: spectators are one action behind
    bid = battle["battle_id"]
    with client.websocket_connect(f"/battles/{bid}/stream?from=1") as ws:
        # The last action (p2's, seqs 10-24) is held back, its Clocked with it.
        seen = streamed(ws, 9)
        assert seen[-1]["type"] == "engine.Clocked" and seen[-1]["data"]["at_ms"] == T0 + 5_000
        view = client.get(f"/battles/{bid}").json()
        assert view["seq"] == 9 and view["clock"]["at_ms"] == T0 + 5_000
        # ... and marked held back, so that no client ticks p2's clock on from T0 + 5 s
        assert view["clock"]["held_back"] is True
        assert "held_back" not in seat_view(client, battle, "p1")["clock"]
        assert client.get(f"/battles/{bid}/at/24").status_code == 404          # not visible yet
        clock.ms = T0 + 10_000
        answer = step(client, battle, random.Random(2))
        assert answer is not None
        # One more action: p2's batch comes out, up to its Clocked at seq 24 and not past it.
        seen = streamed(ws, 24)
        assert seen[0]["seq"] == 10 and seen[-1]["type"] == "engine.Clocked"
        assert seen[-1]["data"]["at_ms"] == T0 + 8_000
        assert client.get(f"/battles/{bid}").json()["clock"]["at_ms"] == T0 + 8_000
        assert answer["events"][-1]["data"]["at_ms"] == T0 + 10_000         # the seat saw it at once
