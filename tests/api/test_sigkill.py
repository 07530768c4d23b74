"""`ringside serve` is SIGKILLed while 16 clients submit commands; after a restart, every
command that was answered 200 is in the log, exactly as answered: an answer is sent only
once its group's transaction has committed."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from .helpers import auth
from .server import free_port, stop, wait_until

CLIENTS = 16
BATTLES = 32
ANSWERS_BEFORE_KILL = 200


@contextmanager
def ringside_serve(db_url: str, port: int) -> Iterator[subprocess.Popen]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}
    proc = subprocess.Popen([str(Path(sys.executable).parent / "ringside"), "serve", "--port", str(port),
                             "--db", db_url], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        wait_until(lambda: proc.poll() is None and httpx.get(f"http://127.0.0.1:{port}/rulesets",
                                                             timeout=1).status_code == 200, what="ringside serve")
        yield proc
    finally:
        stop(proc, signal.SIGKILL)


def submitter(url: str, battles: list[dict], number: int, answered: list[tuple[str, str, dict]],
              enough: threading.Event) -> None:
    """Random legal commands on random battles until the server goes away."""
    rng = random.Random(number)
    with httpx.Client(base_url=url, timeout=10) as http:
        try:
            while True:
                battle = rng.choice(battles)
                bid = battle["battle_id"]
                for token in battle["seat_tokens"].values():
                    legal = http.get(f"/battles/{bid}/legal", headers=auth(token)).json()
                    if legal.get("legal"):
                        answer = http.post(f"/battles/{bid}/commands", headers=auth(token),
                                           json={"command": rng.choice(legal["legal"])})
                        if answer.status_code == 200:
                            answered.append((bid, token, answer.json()))
                            if len(answered) >= ANSWERS_BEFORE_KILL:
                                enough.set()
                        break
        except (httpx.HTTPError, ValueError):
            return          # the server was killed


def check_answers_survived(url: str, answered: list[tuple[str, str, dict]]) -> None:
    """Each answer's events, read back by the seat that was answered."""
    logs: dict[tuple[str, str], dict[int, dict]] = {}
    with httpx.Client(base_url=url, timeout=10) as http:
        for bid, token, _ in answered:
            if (bid, token) not in logs:
                events = http.get(f"/battles/{bid}/events", headers=auth(token)).json()["events"]
                logs[bid, token] = {e["seq"]: e for e in events}
    for bid, token, answer in answered:
        for event in answer["events"]:
            stored = logs[bid, token].get(event["seq"])
            assert stored is not None, f"answered seq {event['seq']} of {bid} is not in the log"
            assert stored["type"] == event["type"]
            if stored["chain"] is not None and event["chain"] is not None:
                assert stored["chain"] == event["chain"]


def test_every_answered_command_survives_a_sigkill(db_url):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    answered: list[tuple[str, str, dict]] = []
    with ringside_serve(db_url, port) as server:
        with httpx.Client(base_url=url, timeout=10) as http:
            battles = [http.post("/battles", json={"ruleset": "deckduel", "players": {"p1": "a", "p2": "b"}}).json()
                       for _ in range(BATTLES)]
        enough = threading.Event()
        threads = [threading.Thread(target=submitter, args=(url, battles, i, answered, enough))
                   for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        assert enough.wait(120), "the clients got too few answers"
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
        for thread in threads:
            thread.join(30)
    with ringside_serve(db_url, port):
        check_answers_survived(url, answered)
    assert len(answered) >= ANSWERS_BEFORE_KILL
