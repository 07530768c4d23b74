"""A tournament over HTTP: created, entered with player tokens, started, played with the
entrant tokens, moved on by the server's sweep, and audited."""
from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Settings, bootstrap
from tests.api.helpers import play_to_end


@pytest.fixture
def client(sqlite_url):
    services = bootstrap(Settings(database_url=sqlite_url, tournament_sweep_seconds=0.05))
    with TestClient(create_app(services=services)) as client:
        yield client


def finished(client: TestClient, tournament_id: str) -> dict:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        page = client.get(f"/tournaments/{tournament_id}").json()
        if page["finished"]:
            return page
        time.sleep(0.05)
    raise AssertionError("the tournament did not end")


def test_two_players_enter_play_with_their_entrant_tokens_and_the_tournament_ends(client):
    made = client.post("/tournaments", json={"ruleset": "deckduel", "format": "swiss", "rounds": 1, "clock": "rapid"})
    assert made.status_code == 201, made.text
    tid = made.json()["tournament_id"]
    tokens, players = {}, {}
    for name in ("alice", "bob"):
        player = players[name] = client.post("/players", json={"player_id": name}).json()["player_token"]
        entered = client.post(f"/tournaments/{tid}/entrants", headers={"Authorization": f"Bearer {player}"})
        assert entered.status_code == 201, entered.text
        tokens[name] = entered.json()["entrant_token"]
    page = client.post(f"/tournaments/{tid}/start").json()
    [pairing] = page["rounds"][0]["pairings"]
    battle_id = client.get(f"/sets/{pairing['set_id']}").json()["current_battle"]
    # each player finds its place with its player token: the set, the battle, its seat, its token
    for name, player in players.items():
        me = client.get(f"/tournaments/{tid}/me", headers={"Authorization": f"Bearer {player}"}).json()
        assert (me["round"], me["set_id"], me["battle_id"]) == (1, pairing["set_id"], battle_id)
        assert me["seat"] == ("p1" if pairing["a"] == name else "p2") and me["entrant_token"] == tokens[name]
    assert client.get(f"/battles/{battle_id}").json()["clock_spec"]["bank_ms"] == 600_000
    play_to_end(client, {"battle_id": battle_id, "seat_tokens": {"p1": tokens[pairing["a"]],
                                                                 "p2": tokens[pairing["b"]]}})
    ended = finished(client, tid)
    assert ended["champion"] in ("alice", "bob") and len(ended["standings"]) == 2
    assert client.get(f"/tournaments/{tid}/audit").json()["status"] == "ok"
    # and the views list it, finished, and each player's page lists it
    services = client.app.state.services
    services.projections.wait(services.projections.head())
    [listed] = client.get("/tournaments").json()["tournaments"]
    assert (listed["tournament_id"], listed["entrants"], listed["champion"], listed["finished"]) == \
        (tid, 2, ended["champion"], True)
    assert [t["tournament_id"] for t in client.get("/players/alice").json()["tournaments"]] == [tid]


def test_bad_tournaments_are_refused_naming_the_field(client):
    for body, field in (({"ruleset": "deckduel", "format": "swiss", "rounds": 0}, "rounds"),
                        ({"ruleset": "deckduel", "format": "knockout"}, "format"),
                        ({"ruleset": "deckduel", "format": "swiss", "rounds": 2 ** 70}, "rounds")):
        refused = client.post("/tournaments", json=body)
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"]["details"]["field"] == field
    made = client.post("/tournaments", json={"ruleset": "deckduel", "format": "swiss", "rounds": 1})
    tid = made.json()["tournament_id"]
    assert client.post(f"/tournaments/{tid}/entrants").status_code == 401
    assert client.post(f"/tournaments/{tid}/entrants", json={"bot": "nobody"}).status_code == 422
    assert client.post(f"/tournaments/{tid}/start").status_code == 422          # no entrants
    assert client.post("/tournaments/nope/start").status_code == 404
