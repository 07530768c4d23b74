"""Seat auth and the admin token: every refusal answers in JSON and appends nothing."""
from __future__ import annotations

import pytest

from api.app import create_app
from api.services import Settings

from .helpers import PLAYERS, auth, create, seq_of


def first_command(client, battle, seat):
    legal = client.get(f"/battles/{battle['battle_id']}/legal", headers=auth(battle["seat_tokens"][seat])).json()
    return legal["legal"][0] if legal["legal"] else {"type": "pass"}


def test_commands_need_a_token_of_an_awaited_seat(client):
    battle = create(client)
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    command = first_command(client, battle, "p1")
    before = seq_of(client, bid)
    cases = [({}, 401, "unauthorized"), (auth("not-a-token"), 403, "forbidden"),
             ({"Authorization": "Basic abc"}, 401, "unauthorized")]
    for headers, status, code in cases:
        answer = client.post(f"/battles/{bid}/commands", json={"command": command}, headers=headers)
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code)
    other = create(client)
    answer = client.post(f"/battles/{bid}/commands", json={"command": command},
                         headers=auth(other["seat_tokens"]["p1"]))
    assert answer.status_code == 403
    assert seq_of(client, bid) == before
    # p1 acts in the mulligan; then only p2 is awaited, and p1 acting again is refused.
    assert client.post(f"/battles/{bid}/commands", json={"command": command}, headers=auth(tokens["p1"])).status_code == 200
    again = client.post(f"/battles/{bid}/commands", json={"command": command}, headers=auth(tokens["p1"]))
    assert again.status_code == 403 and again.json()["error"]["code"] == "not_your_turn"
    assert seq_of(client, bid) == before + 1


def test_the_legal_route_is_per_seat(client):
    battle = create(client)
    bid = battle["battle_id"]
    assert client.get(f"/battles/{bid}/legal").status_code == 401
    assert client.get(f"/battles/{bid}/legal", headers=auth("x")).status_code == 403
    mine = client.get(f"/battles/{bid}/legal", headers=auth(battle["seat_tokens"]["p2"])).json()
    assert mine["seat"] == "p2" and mine["awaiting"] == ["p1", "p2"] and mine["legal"]


def test_a_stale_expected_seq_is_refused(client):
    battle = create(client)
    bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
    command = first_command(client, battle, "p1")
    stale = client.post(f"/battles/{bid}/commands", json={"command": command, "expected_seq": 1},
                        headers=auth(token))
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale"
    assert stale.json()["error"]["details"]["seq"] == seq_of(client, bid)


def test_an_idempotency_key_answers_once_and_appends_once(client):
    battle = create(client)
    bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
    command = first_command(client, battle, "p1")
    before = seq_of(client, bid)
    headers = {**auth(token), "Idempotency-Key": "k-1"}
    first = client.post(f"/battles/{bid}/commands", json={"command": command}, headers=headers)
    again = client.post(f"/battles/{bid}/commands", json={"command": command}, headers=headers)
    assert first.status_code == again.status_code == 200
    assert first.content == again.content
    assert seq_of(client, bid) == before + 1
    different = client.post(f"/battles/{bid}/commands", json={"command": {"type": "mulligan", "cards": ["zz"]}},
                            headers=headers)
    assert different.status_code == 409 and different.json()["error"]["code"] == "idempotency_conflict"
    too_long = client.post(f"/battles/{bid}/commands", json={"command": command},
                           headers={**auth(token), "Idempotency-Key": "k" * 201})
    assert too_long.status_code == 400
    assert seq_of(client, bid) == before + 1


@pytest.fixture
def guarded(sqlite_url):
    from fastapi.testclient import TestClient
    with TestClient(create_app(Settings(database_url=sqlite_url, admin_token="s3cret"))) as test_client:
        yield test_client


def test_the_admin_token_guards_creating_battles_and_sets(guarded):
    body = {"ruleset": "deckduel", "players": PLAYERS}
    assert guarded.post("/battles", json=body).status_code == 401
    assert guarded.post("/battles", json=body, headers=auth("wrong")).status_code == 403
    assert guarded.post("/sets", json=body).status_code == 401
    assert guarded.post("/battles", json=body, headers=auth("s3cret")).status_code == 201
    assert guarded.post("/sets", json=body, headers=auth("s3cret")).status_code == 201
