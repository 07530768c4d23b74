"""The search bot against a real server, as a new user meets it: a battle against
`{"bot": "search"}` played with `ringside bot --policy greedy`, and `ringside bot --policy
search` playing a seat from its knowledge alone (`GET /battles/{id}/knowledge`)."""
from __future__ import annotations

import os
import subprocess
import time

import httpx
import msgspec

from domain.engine.ruleset import get_ruleset
from replays.format import loads
from replays.verify import verify
from tests.cli.helpers import RINGSIDE

from .helpers import create
from .server import uvicorn_server, wait_until

ENV = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}


def bot(url: str, battle: dict, seat: str, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([RINGSIDE, "bot", "--url", url, "--battle", battle["battle_id"], "--token",
                           battle["seat_tokens"][seat], *options], capture_output=True, text=True, timeout=300, env=ENV)


def finished(http: httpx.Client, bid: str) -> dict:
    final = http.get(f"/battles/{bid}").json()
    assert final["outcome"] is not None
    assert verify(loads(http.get(f"/battles/{bid}/replay").content)).ok
    return final


def test_a_new_user_plays_the_house_search_bot_with_a_greedy_bot(tmp_path):
    with uvicorn_server(f"sqlite:///{tmp_path / 's.db'}") as url, httpx.Client(base_url=url, timeout=30) as http:
        battle = create(http, players={"p1": "alice", "p2": {"bot": "search", "iterations": 60}})
        started = time.monotonic()
        human = bot(url, battle, "p1", "--policy", "greedy", "--seed", "1")
        assert human.returncode == 0, human.stderr
        final = finished(http, battle["battle_id"])
        moves = [e for e in http.get(f"/battles/{battle['battle_id']}/events").json()["events"]
                 if e["data"].get("seat") == "p2" and e["type"].startswith("deckduel.")]
        assert final["players"]["p2"] == {"bot": "search", "iterations": 60}
        # every house move came within its budget: the whole battle took seconds, not minutes
        assert moves and time.monotonic() - started < 120
        wait_until(lambda: http.get("/players/house:search@60").status_code == 200, what="the house bot's history")


def test_ringside_bot_searches_from_its_seat_s_knowledge(tmp_path):
    with uvicorn_server(f"sqlite:///{tmp_path / 'k.db'}") as url, httpx.Client(base_url=url, timeout=30) as http:
        battle = create(http, players={"p1": "alice", "p2": {"bot": "greedy"}})
        bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
        assert http.get(f"/battles/{bid}/knowledge").status_code == 401
        raw = http.get(f"/battles/{bid}/knowledge", headers={"Authorization": f"Bearer {token}"}).json()
        rs = get_ruleset("deckduel")
        known = msgspec.convert(raw["knowledge"], type=rs.state_type)
        assert (raw["seat"], raw["sides"], raw["ruleset"]) == ("p1", {"p1": "p1", "p2": "p2"}, "deckduel")
        assert rs.knowledge(known, "p1") == known       # a seat's knowledge tells it nothing more the second time
        searched = bot(url, battle, "p1", "--policy", "search", "--iterations", "20", "--seed", "2")
        assert searched.returncode == 0, searched.stderr
        assert searched.stdout.startswith(f"battle {bid} ended")
        finished(http, bid)
        bad = bot(url, battle, "p1", "--policy", "greedy", "--iterations", "20")
        assert bad.returncode != 0 and bad.stderr.startswith("error:") and "Traceback" not in bad.stderr
