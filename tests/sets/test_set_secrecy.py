"""A set's page and audit over HTTP carry no hash of a battle that is not public: not the
running battle's head, not the head of any battle of a private set, and no set digest until
the set has ended (it covers the set's server-only setup). The operator's own audit, run on
the database, shows everything."""
from __future__ import annotations

import random
import re

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Settings, bootstrap
from replays.audit import audit_set
from tests.api.helpers import PLAYERS, auth
from tests.storage.helpers import play_out

HASH = re.compile(r"^[0-9a-f]{64}$")


@pytest.fixture
def served(sqlite_url):
    services = bootstrap(Settings(database_url=sqlite_url))
    with TestClient(create_app(services=services)) as client:
        yield client, services


def new_set(client: TestClient, **body) -> dict:
    made = client.post("/sets", json={"ruleset": "deckduel", "players": PLAYERS, "games": 2, "mode": "all", **body})
    assert made.status_code == 201, made.text
    return made.json()


def page_and_audit(client: TestClient, set_id: str) -> tuple[dict, dict]:
    return client.get(f"/sets/{set_id}").json(), client.get(f"/sets/{set_id}/audit").json()


def running_row(index: int, battle_id: str) -> dict:
    return {"index": index, "battle_id": battle_id, "status": "in_progress", "head": None}


def test_a_running_set_shows_no_hash_and_stays_the_same_while_hidden_data_changes(served):
    client, services = served
    made = new_set(client)
    sid, bid = made["set_id"], made["battle_id"]
    page, audit = page_and_audit(client, sid)
    # p1 returns cards to its deck: only p1 (and the seed) knows which
    token = made["seat_tokens"]["p1"]
    legal = client.get(f"/battles/{bid}/legal", headers=auth(token)).json()
    mulligan = next(c for c in legal["legal"] if c["type"] == "mulligan" and c["cards"])
    assert client.post(f"/battles/{bid}/commands", headers=auth(token), json={"command": mulligan}).status_code == 200
    assert client.get(f"/battles/{bid}").json()["seq"] == legal["seq"] + 1
    assert page_and_audit(client, sid) == (page, audit)
    assert page["head"] is None and audit["digest"] is None
    assert page["battles"] == [{"index": 0, "battle_id": bid, "carry": None, "winner": None, "head": None}]
    assert audit["status"] == "in_progress" and audit["problems"] == []
    assert audit["battles"] == [running_row(0, bid)]
    assert audit["summary"][-1] == "  digest withheld until the set has ended"


def test_a_finished_battle_shows_its_head_while_the_next_one_runs(served):
    client, services = served
    made = new_set(client)
    sid, first = made["set_id"], made["battle_id"]
    play_out(services.battles, first, random.Random(1))
    last_chain = client.get(f"/battles/{first}/events").json()["events"][-1]["chain"]
    page, audit = page_and_audit(client, sid)
    second = page["current_battle"]
    assert HASH.match(last_chain) and second != first
    assert [b["head"] for b in page["battles"]] == [last_chain, None]
    assert page["head"] is None and audit["digest"] is None
    assert audit["battles"][0]["head"] == last_chain and audit["battles"][0]["status"] == "ok"
    assert audit["battles"][1] == running_row(1, second)
    # once the set has ended, its digest is shown, and it is the set's head hash
    play_out(services.battles, second, random.Random(2))
    page, audit = page_and_audit(client, sid)
    assert page["finished"] and HASH.match(page["head"]) and audit["digest"] == page["head"]
    assert [b["head"] for b in audit["battles"]] == [b["head"] for b in page["battles"]]
    assert page["head"] == services.sets.records(sid)[-1].chain


def test_a_private_set_shows_no_hash_even_once_it_has_ended(served):
    client, services = served
    made = new_set(client, private=True, games=1)
    sid, bid = made["set_id"], made["battle_id"]
    play_out(services.battles, bid, random.Random(3))
    page, audit = page_and_audit(client, sid)
    assert page["finished"] and page["head"] is None and page["battles"][0]["head"] is None
    assert audit["status"] == "ok" and audit["digest"] is None
    assert audit["battles"][0]["head"] is None and audit["battles"][0]["status"] == "ok"
    assert audit["summary"][-1] == "  digest withheld: the set is private"


def test_the_operators_audit_shows_every_hash(served):
    client, services = served
    made = new_set(client)
    sid, bid = made["set_id"], made["battle_id"]
    report = audit_set(services.battles, services.sets, sid, omniscient=True)
    assert report["digest"] == services.sets.records(sid)[-1].chain
    assert report["battles"] == [{**running_row(0, bid), "head": services.battles.load(bid).chain}]
    assert report["summary"][-1] == f"  digest {report['digest']}"
