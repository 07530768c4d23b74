"""Two `ringside bot` processes finish a battle against a running `ringside serve`, through
HTTP only; the result shows in the battle, the leaderboard and the player pages."""
from __future__ import annotations

import os
import signal
import subprocess
import time

import httpx

from tests.cli.helpers import RINGSIDE

from .helpers import create
from .server import free_port, stop, wait_until


def test_two_bots_play_a_battle_to_the_end(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}
    server = subprocess.Popen([RINGSIDE, "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'r.db'}"],
                              cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: httpx.get(url + "/rulesets", timeout=1).status_code == 200, what="ringside serve")
        with httpx.Client(base_url=url, timeout=10) as http:
            battle = create(http)
            bid = battle["battle_id"]
            bots = [subprocess.Popen([RINGSIDE, "bot", "--url", url, "--battle", bid, "--token", token,
                                      "--policy", policy, "--seed", seat], cwd=tmp_path, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                    for (seat, token), policy in zip(sorted(battle["seat_tokens"].items()), ("greedy", "random"))]
            outputs = [bot.communicate(timeout=120) for bot in bots]
            assert [bot.returncode for bot in bots] == [0, 0], outputs
            final = http.get(f"/battles/{bid}").json()
            winner = final["outcome"]["winner"]
            for out, _ in outputs:
                assert out.strip().startswith(f"battle {bid} ended: winner {winner or 'none (draw)'}")
            deadline = time.monotonic() + 10
            while not http.get("/leaderboards/deckduel").json()["players"] and time.monotonic() < deadline:
                time.sleep(0.05)
            rows = http.get("/leaderboards/deckduel").json()["players"]
            assert {row["player"]: row["games"] for row in rows} == {"alice": 1, "bob": 1}
            assert http.get("/players/bob").json()["battles"][0]["battle_id"] == bid
            bad = subprocess.run([RINGSIDE, "bot", "--url", url, "--battle", bid, "--token", "wrong"],
                                 capture_output=True, text=True, timeout=30)
            assert bad.returncode == 1 and bad.stderr.startswith("error: HTTP 403") and "Traceback" not in bad.stderr
    finally:
        stop(server, signal.SIGTERM)
