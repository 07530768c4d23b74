"""House seats against real servers: a human-side `ringside bot` over HTTP beats (or loses to)
the service's own house bot; two workers on PostgreSQL and Redis play a house-only battle
without a double move or a stall; a house seat due when the service stopped moves after it
starts again."""
from __future__ import annotations

import os
import subprocess
import time
import uuid

import httpx
import pytest

from domain.battles import Battles
from replays.format import loads
from replays.verify import verify
from tests.cli.helpers import RINGSIDE

from .helpers import create
from .server import uvicorn_server, wait_until


def ended(http: httpx.Client, bid: str, timeout: float = 90) -> dict:
    wait_until(lambda: http.get(f"/battles/{bid}").json()["outcome"] is not None, timeout=timeout,
               what=f"battle {bid} to end")
    return http.get(f"/battles/{bid}").json()


def replay_verifies(http: httpx.Client, bid: str) -> None:
    report = verify(loads(http.get(f"/battles/{bid}/replay").content))
    assert report.ok, report.reason


def test_a_human_bot_over_http_plays_the_house_bot_to_the_end(tmp_path):
    with uvicorn_server(f"sqlite:///{tmp_path / 'h.db'}") as url, httpx.Client(base_url=url, timeout=20) as http:
        battle = create(http, players={"p1": "alice", "p2": {"bot": "greedy"}})
        bid = battle["battle_id"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}
        human = subprocess.run([RINGSIDE, "bot", "--url", url, "--battle", bid, "--token",
                                battle["seat_tokens"]["p1"], "--policy", "random", "--seed", "3"],
                               capture_output=True, text=True, timeout=180, env=env)
        assert human.returncode == 0, human.stderr
        final = ended(http, bid)
        assert final["players"] == {"p1": "alice", "p2": {"bot": "greedy"}}
        replay_verifies(http, bid)
        wait_until(lambda: http.get("/players/house:greedy").status_code == 200, what="the house bot's history")
        entry = http.get("/players/house:greedy").json()["battles"][0]
        assert (entry["battle_id"], entry["seat"], entry["side"]) == (bid, "p2", "p2")


@pytest.mark.postgres
def test_two_workers_play_a_house_battle_once_each_move(postgres_url, redis_url):
    prefix = f"t{uuid.uuid4().hex[:10]}"
    with uvicorn_server(postgres_url, redis_url=redis_url, prefix=prefix) as a, \
            uvicorn_server(postgres_url, redis_url=redis_url, prefix=prefix) as b, \
            httpx.Client(base_url=a, timeout=20) as worker_a, httpx.Client(base_url=b, timeout=20) as worker_b:
        bids = [create(worker_a if i % 2 else worker_b, ruleset,
                       players={"p1": {"bot": "random"}, "p2": {"bot": "greedy"}})["battle_id"]
                for i, ruleset in enumerate(("deckduel", "deckduel", "ring"))]
        for bid in bids:
            ended(worker_b, bid, timeout=120)
            # verify re-simulates every move: a second move on the same state would not be in
            # the log at all (expected_seq), and a log with a gap or a foreign seat fails here
            replay_verifies(worker_a, bid)
            events = worker_a.get(f"/battles/{bid}/events").json()["events"]
            assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


def test_a_house_seat_due_at_a_stop_moves_after_the_service_starts(tmp_path):
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    # given a battle stored while no service ran: both seats owe a mulligan, p2 is the house's
    with Battles(url) as battles:
        made = battles.create("deckduel", {"p1": "alice", "p2": {"bot": "random"}})
        seq = battles.load(made.battle_id).seq
    # when the service starts on that database
    with uvicorn_server(url) as server, httpx.Client(base_url=server, timeout=20) as http:
        # then the house seat locks its mulligan by itself, and only p1 is awaited
        wait_until(lambda: http.get(f"/battles/{made.battle_id}").json()["seq"] == seq + 1, timeout=30,
                   what="the house seat's move")
        time.sleep(0.5)
        view = http.get(f"/battles/{made.battle_id}").json()
        assert view["seq"] == seq + 1 and view["state"]["awaiting"] == ["p1"]
