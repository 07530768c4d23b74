"""`ringside serve` on a SQLite file runs its projections in a child process, over views in a
SQLite file beside the store: the views follow the commands, the child runs at the lowest
priority, a child that dies is started
again, and a server killed outright leaves no child behind."""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx

from api.runner_process import NICENESS

from .server import free_port, wait_until
from .test_sigkill import ringside_serve

PLAYERS = {"p1": "alice", "p2": "bob"}


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue            # the process ended while the directory was listed
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False        # reaped since
    return state != "Z"


def listed(url: str, battle_id: str) -> bool:
    return battle_id in {b["battle_id"] for b in httpx.get(url + "/battles?limit=500").json()["battles"]}


def create(url: str) -> str:
    made = httpx.post(url + "/battles", json={"ruleset": "deckduel", "players": PLAYERS})
    assert made.status_code == 201, made.text
    return made.json()["battle_id"]


def test_the_child_keeps_the_views_and_is_started_again_when_it_dies(tmp_path):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with ringside_serve(f"sqlite:///{tmp_path / 'games.db'}", port) as server:
        # given a server on a SQLite file, and the one runner child it started
        wait_until(lambda: len(children(server.pid)) == 1, what="the runner child")
        [runner] = children(server.pid)
        # and the child yields the CPU to its server: the lowest priority, the server's unchanged
        wait_until(lambda: os.getpriority(os.PRIO_PROCESS, runner) == NICENESS, what="the child's niceness")
        assert os.getpriority(os.PRIO_PROCESS, server.pid) == os.getpriority(os.PRIO_PROCESS, 0)
        # when a battle is created, it is listed: the child projected it into games.views.db
        first = create(url)
        wait_until(lambda: listed(url, first), what="the first battle in the views")
        assert (tmp_path / "games.views.db").exists()
        # when the child is killed, the server starts another, which carries on
        os.kill(runner, signal.SIGKILL)
        wait_until(lambda: [p for p in children(server.pid) if p != runner], timeout=30, what="a new runner child")
        second = create(url)
        wait_until(lambda: listed(url, second), timeout=30, what="the second battle in the views")
        [again] = children(server.pid)
        assert again != runner


def test_a_killed_server_leaves_no_runner_behind(tmp_path):
    port = free_port()
    with ringside_serve(f"sqlite:///{tmp_path / 'games.db'}", port) as server:
        wait_until(lambda: len(children(server.pid)) == 1, what="the runner child")
        [runner] = children(server.pid)
        # when the server is SIGKILLed (its child is in a process group of its own)
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        # then the child notices its parent is gone and exits within moments
        deadline = time.monotonic() + 10
        while alive(runner) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(runner)
