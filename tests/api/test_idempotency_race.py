"""One Idempotency-Key, one command, many concurrent requests over a real server: every answer
is the first answer, byte for byte, whether it arrives before, during or after the first
commit; and the command is appended once."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import httpx

from .helpers import auth, create
from .server import uvicorn_server

BATTLES = 20
CONCURRENT = 40


def fire(clients: list[httpx.Client], pool: ThreadPoolExecutor, bid: str, token: str, command: dict,
         key: str) -> list[tuple[int, bytes]]:
    """CONCURRENT identical requests released together, one a client (each on a connection of
    its own, kept open from battle to battle), plus one after they all answered."""
    gate = threading.Barrier(CONCURRENT)

    def send(client: httpx.Client) -> tuple[int, bytes]:
        gate.wait()
        answer = client.post(f"/battles/{bid}/commands", json={"command": command},
                             headers={**auth(token), "Idempotency-Key": key})
        return answer.status_code, answer.content

    answers = list(pool.map(send, clients))
    gate = threading.Barrier(1)
    answers.append(send(clients[0]))
    return answers


def test_every_repeat_of_a_key_gets_the_first_answer_under_concurrency(sqlite_url):
    with uvicorn_server(sqlite_url) as url, httpx.Client(base_url=url, timeout=30) as http, \
            ThreadPoolExecutor(CONCURRENT) as pool, ExitStack() as stack:
        clients = [stack.enter_context(httpx.Client(base_url=url, timeout=30)) for _ in range(CONCURRENT)]
        for i in range(BATTLES):
            battle = create(http, "deckduel")
            bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
            before = http.get(f"/battles/{bid}/events", params={"as": "spectator"}).json()["events"]
            # The opening mulligan awaits both seats: once p1's has landed, p1 is no longer
            # awaited, so a repeat decided afresh would be refused with 403 not_your_turn.
            answers = fire(clients, pool, bid, token, {"type": "mulligan", "cards": []}, f"key-{i}")
            statuses = {status for status, _ in answers}
            assert statuses == {200}, (i, [a for a in answers if a[0] != 200][:1])
            assert len({body for _, body in answers}) == 1, f"battle {i}: answers differ"
            after = http.get(f"/battles/{bid}/events", params={"as": "spectator"}).json()["events"]
            mulligans = [e for e in after[len(before):] if e["type"] == "engine.ChoiceLocked"]
            assert len(mulligans) == 1, f"battle {i}: {len(mulligans)} locks appended"
