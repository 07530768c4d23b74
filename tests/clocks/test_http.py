"""Over HTTP: a battle created with a clock shows it in its view; a command that arrives after
its seat's deadline plus grace is refused 409 `time_out` and appends nothing, and the server
appends the timeout itself. Time is injected into the whole service (`bootstrap(now_ms=...)`)."""
from __future__ import annotations

from typing import cast

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Settings, bootstrap
from domain.timers import ClockKeeper
from tests.api.helpers import auth, create

from .helpers import MINUTE, T0, Clock


def test_a_late_command_is_refused_time_out_and_the_server_appends_the_timeout(sqlite_url: str) -> None:
    clock = Clock()
    services = bootstrap(Settings(database_url=sqlite_url, clock_sweep_seconds=3600), now_ms=clock)
    keeper = cast(ClockKeeper, services.extras["clocks"])
    with TestClient(create_app(services=services)) as client:
        # given a battle created with a minute each and a second of grace
        battle = create(client, clock=MINUTE)
        bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
        view = client.get(f"/battles/{bid}").json()
        assert view["clock"]["seats"]["p1"] == {"remaining_ms": 60_000, "running": True, "moved": False, "auto": 0}
        assert view["clock_spec"]["grace_ms"] == 1000 and view["clock_spec"]["bank_ms"] == 60_000
        assert keeper.deadline(bid) == T0 + 61_000
        # when p1's command arrives at T0 + 61 s
        clock.advance(61_000)
        command = client.get(f"/battles/{bid}/legal", headers=auth(token)).json()["legal"][0]
        refused = client.post(f"/battles/{bid}/commands", headers=auth(token), json={"command": command})
        # then it is refused, and nothing is appended
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"]["code"] == "time_out"
        assert client.get(f"/battles/{bid}").json()["seq"] == view["seq"]
        # and the server appends the timeout as a batch of its own
        keeper.run_due()
        events = client.get(f"/battles/{bid}/events", headers=auth(token)).json()["events"]
        assert [(e["type"], e["data"].get("seat")) for e in events if e["seq"] > view["seq"]] == [
            ("engine.TimedOut", "p1"), ("engine.BattleEnded", None)]
        ended = client.get(f"/battles/{bid}").json()
        assert ended["clock"]["seats"]["p1"]["running"] is False


def test_the_log_is_read_for_other_workers_clocks_as_often_as_the_environment_says(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RINGSIDE_DATABASE_URL", sqlite_url)
    monkeypatch.setenv("RINGSIDE_CLOCK_SWEEP_SECONDS", "0.5")
    services = bootstrap()
    try:
        assert cast(ClockKeeper, services.extras["clocks"]).sweep_seconds == 0.5
    finally:
        services.close()
