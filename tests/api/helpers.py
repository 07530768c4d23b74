"""Playing battles through the HTTP API, with either a TestClient or a real server's client."""
from __future__ import annotations

import random
from typing import Any

import httpx

from domain.engine.events import hidden_fields, owned_by, topic_class

PLAYERS = {"p1": "alice", "p2": "bob"}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: Any, ruleset: str = "deckduel", players: dict[str, str] = PLAYERS, **body: Any) -> dict[str, Any]:
    response = client.post("/battles", json={"ruleset": ruleset, "players": players, **body})
    assert response.status_code == 201, response.text
    return response.json()


def step(client: Any, battle: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """One random legal command by whichever seat is awaited; None once the battle has ended."""
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    for seat, token in sorted(tokens.items()):
        legal = client.get(f"/battles/{bid}/legal", headers=auth(token)).json()
        if legal["ended"]:
            return None
        if legal["legal"]:
            response = client.post(f"/battles/{bid}/commands", headers=auth(token),
                                   json={"command": rng.choice(legal["legal"]), "expected_seq": legal["seq"]})
            assert response.status_code == 200, response.text
            return response.json()
    raise AssertionError("no seat can act but the battle has not ended")


def play_to_end(client: Any, battle: dict[str, Any], seed: int = 0, limit: int = 3000) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    answers = []
    for _ in range(limit):
        answer = step(client, battle, rng)
        if answer is None:
            return answers
        answers.append(answer)
    raise AssertionError("the battle did not end")


def hidden_leaks(wire: dict[str, Any], seat: str | None) -> list[str]:
    """Hidden fields of `wire` that a viewer sitting at `seat` (None: spectator) can see."""
    leaks = []
    for name, mark in hidden_fields(topic_class(wire["type"])):
        owner_field = getattr(mark, "owner", None)
        if owner_field is not None and owned_by(wire["data"].get(owner_field), seat):
            continue
        if wire["data"].get(name) is not None:
            leaks.append(f"{wire['type']}.{name} at seq {wire['seq']}")
    return leaks


def seq_of(client: Any, battle_id: str) -> int:
    return client.get(f"/battles/{battle_id}").json()["seq"]


def http(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=10)
