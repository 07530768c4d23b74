"""Queues over HTTP: register, queue, get matched by the server's own waves, play."""
from __future__ import annotations

import time

import orjson
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Settings, bootstrap

QUEUE = "deckduel-blitz"


@pytest.fixture
def client(sqlite_url, clock):
    services = bootstrap(Settings(database_url=sqlite_url, wave_check_seconds=0.05), now_ms=clock)
    with TestClient(create_app(services=services)) as client:
        client.services = services
        yield client


def register(client: TestClient, name: str) -> dict[str, str]:
    made = client.post("/players", json={"player_id": name})
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['player_token']}"}


def paired(client: TestClient, ticket: str, auth: dict[str, str]) -> dict:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        shown = client.get(f"/tickets/{ticket}", headers=auth).json()
        if shown["status"] == "paired":
            return shown
        time.sleep(0.05)
    raise AssertionError(f"ticket {ticket} was not paired")


def test_two_players_queue_are_paired_by_the_server_and_play_with_their_seat_tokens(client):
    alice, bob = register(client, "alice"), register(client, "bob")
    opened = [client.post(f"/queues/{QUEUE}/tickets", headers=auth, json={}) for auth in (alice, bob)]
    assert [o.status_code for o in opened] == [201, 201]
    tickets = [o.json()["ticket"] for o in opened]
    shown = [paired(client, t, auth) for t, auth in zip(tickets, (alice, bob))]
    assert shown[0]["battle_id"] == shown[1]["battle_id"] and {s["seat"] for s in shown} == {"p1", "p2"}
    # the seat token acts in the battle, which runs the queue's clock
    for found in shown:
        seat_auth = {"Authorization": f"Bearer {found['seat_token']}"}
        view = client.get(f"/battles/{found['battle_id']}", headers=seat_auth).json()
        assert view["clock_spec"]["bank_ms"] == 180_000 and view["players"][found["seat"]] in ("alice", "bob")
        move = client.post(f"/battles/{found['battle_id']}/commands", headers=seat_auth,
                           json={"command": {"type": "mulligan", "cards": []}})
        assert move.status_code == 200, move.text
    listed = client.get("/queues").json()["queues"]
    assert {q["queue"] for q in listed} >= {QUEUE} and next(q for q in listed if q["queue"] == QUEUE)["waiting"] == 0


def test_the_ticket_stream_tells_its_owner_when_it_is_paired(client):
    alice, bob = register(client, "alice"), register(client, "bob")
    ticket = client.post(f"/queues/{QUEUE}/tickets", headers=alice).json()["ticket"]
    with client.stream("GET", f"/tickets/{ticket}/stream.sse", headers=alice) as stream:
        lines = stream.iter_lines()
        assert next(lines) == "event: ticket"
        assert orjson.loads(next(lines).removeprefix("data: "))["status"] == "waiting"
        client.post(f"/queues/{QUEUE}/tickets", headers=bob)
        rest = [line for line in lines if line.startswith("data: ")]
    assert orjson.loads(rest[-1].removeprefix("data: "))["status"] == "paired"


def test_refusals_are_clear_and_store_nothing(client):
    alice, bob = register(client, "alice"), register(client, "bob")
    queues = client.services.queues
    unknown = client.post("/queues/chess-bullet/tickets", headers=alice)
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"
    assert client.post(f"/queues/{QUEUE}/tickets").status_code == 401
    assert client.post(f"/queues/{QUEUE}/tickets", headers={"Authorization": "Bearer forged"}).status_code == 401
    bad = client.post(f"/queues/{QUEUE}/tickets", headers=alice, json={"setup": {"character": "nobody"}})
    assert bad.status_code == 422 and bad.json()["error"]["details"]["field"] == "character"
    assert queues.records(QUEUE) == []
    ticket = client.post(f"/queues/{QUEUE}/tickets", headers=alice).json()["ticket"]
    again = client.post(f"/queues/{QUEUE}/tickets", headers=alice)
    assert again.status_code == 409 and again.json()["error"]["code"] == "ticket_exists"
    assert client.get(f"/tickets/{ticket}", headers=bob).status_code == 404         # not bob's to see
    assert client.delete(f"/tickets/{ticket}", headers=bob).status_code == 404
    assert client.get("/tickets/not-a-ticket", headers=alice).status_code == 404
    assert len(queues.records(QUEUE)) == 1
    assert client.delete(f"/tickets/{ticket}", headers=alice).json()["status"] == "cancelled"
