"""`ringside serve` is SIGKILLed while a battle's clocks run, and stays down for several seconds.
After a restart the running clocks are credited the outage (measured from the stored
heartbeat): no seat loses the time no server could take its command in, and the crediting
event is in the log."""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx

from tests.api.helpers import auth, create
from tests.api.server import free_port
from tests.api.test_sigkill import ringside_serve

from .helpers import MINUTE

DOWN_SECONDS = 4.0
TOLERANCE_MS = 2_000        # a beat's age at the kill, and the restart's last steps after the credit


def remaining_now(http: httpx.Client, battle_id: str, seat: str) -> tuple[int, dict[str, Any]]:
    """The seat's time left now, ticked down from the view as a client ticks it, and the view."""
    view = http.get(f"/battles/{battle_id}").json()
    clock = view["clock"]
    shown = clock["seats"][seat]
    assert shown["running"], view
    return shown["remaining_ms"] - (time.time_ns() // 1_000_000 - clock["at_ms"]), view


def test_a_sigkilled_server_credits_the_outage_to_the_running_clocks(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'ringside.db'}"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    ten_minutes = {**MINUTE, "bank_ms": 600_000}
    # given a battle whose clocks run (both seats owe a mulligan) on a server that has beaten
    with ringside_serve(db_url, port) as server, httpx.Client(base_url=url, timeout=10) as http:
        battle = create(http, clock=ten_minutes)
        bid = battle["battle_id"]
        time.sleep(1.5)
        before, _ = remaining_now(http, bid, "p1")
        # when the server is killed outright and stays down
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    time.sleep(DOWN_SECONDS)
    with ringside_serve(db_url, port), httpx.Client(base_url=url, timeout=10) as http:
        after, view = remaining_now(http, bid, "p1")
        events = http.get(f"/battles/{bid}/events", headers=auth(battle["seat_tokens"]["p1"])).json()["events"]
    # then p1 has (within a beat and the restart) the time it had before the kill
    assert abs(before - after) <= TOLERANCE_MS, (before, after)
    # and the log says why: an outage of at least the time the server was down, credited once
    credited = [e["data"] for e in events if e["type"] == "engine.ClockCredited"]
    assert len(credited) == 1 and credited[0]["reason"] == "outage", credited
    assert credited[0]["credit_ms"] >= DOWN_SECONDS * 1000
    assert credited[0]["at_ms"] == view["clock"]["at_ms"]
    assert [e["type"] for e in events][-1] == "engine.ClockCredited"
