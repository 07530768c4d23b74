"""Bad input gets a JSON error with the right status, never a 500."""
from __future__ import annotations

import pytest

from .helpers import PLAYERS, auth, create

MISSING = "00000000-0000-4000-8000-000000000000"


def error(answer, status):
    assert answer.status_code == status, answer.text
    body = answer.json()["error"]
    assert set(body) == {"code", "message", "details"} and body["message"]
    return body


def test_unknown_things_are_404(client):
    assert error(client.get(f"/battles/{MISSING}"), 404)["code"] == "not_found"
    assert error(client.get("/battles/not-a-uuid"), 404)["code"] == "not_found"
    assert error(client.get(f"/sets/{MISSING}"), 404)["code"] == "not_found"
    assert error(client.get("/leaderboards/no_such_game"), 404)["code"] == "unknown_ruleset"
    assert error(client.get("/players/nobody"), 404)["code"] == "not_found"
    assert error(client.get("/no/such/route"), 404)["code"] == "not_found"
    assert error(client.post("/battles", json={"ruleset": "no_such_game", "players": PLAYERS}), 404)


@pytest.mark.parametrize("body, where", [
    ({"ruleset": "deckduel"}, "players"),
    ({"ruleset": "deckduel", "players": PLAYERS, "extra": 1}, "extra"),
    ({"ruleset": "deckduel", "players": "alice"}, "players"),
    ({"ruleset": "deckduel", "players": PLAYERS, "private": "maybe"}, "private"),
])
def test_malformed_bodies_are_422(client, body, where):
    assert where in error(client.post("/battles", json=body), 422)["message"]


def test_bad_json_and_bad_setups_are_refused(client):
    assert error(client.post("/battles", content=b"{", headers={"content-type": "application/json"}), 422)
    bad = error(client.post("/battles", json={"ruleset": "deckduel", "players": PLAYERS,
                                              "setup": {"first_player": "p9"}}), 422)
    assert bad["code"] == "bad_setup" and "first_player" in bad["details"]["field"]
    delay = error(client.post("/battles", json={"ruleset": "deckduel", "players": PLAYERS,
                                                "setup": {"spectator_delay": -1}}), 422)
    assert delay["details"]["field"] == "spectator_delay"
    assert error(client.post("/battles", json={"ruleset": "deckduel", "players": {"p1": "a"}}), 422)


def test_bad_commands_are_400_and_append_nothing(client):
    battle = create(client)
    bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
    before = client.get(f"/battles/{bid}").json()["seq"]
    for command in ({"type": "no_such"}, {"type": "mulligan", "cards": ["not_a_card"]}, {"cards": []}):
        assert error(client.post(f"/battles/{bid}/commands", json={"command": command}, headers=auth(token)),
                     400)["code"] == "rule_violation"
    assert error(client.post(f"/battles/{bid}/commands", json={"command": "pass"}, headers=auth(token)), 422)
    assert error(client.post(f"/battles/{bid}/commands", json={"command": {}, "expected_seq": -1},
                             headers=auth(token)), 422)
    assert client.get(f"/battles/{bid}").json()["seq"] == before


def test_query_and_path_limits(client):
    battle = create(client)
    bid = battle["battle_id"]
    assert error(client.get(f"/battles/{bid}/events?from=0"), 422)
    assert error(client.get(f"/battles/{bid}/at/0"), 422)
    assert error(client.get(f"/battles/{bid}/at/99999"), 404)["code"] == "seq_out_of_range"
    assert error(client.get("/battles?status=weird"), 422)
    assert error(client.post("/sets", json={"ruleset": "deckduel", "players": PLAYERS, "games": 0}), 422)
    assert error(client.post("/sets", json={"ruleset": "deckduel", "players": PLAYERS, "mode": "x"}), 422)
