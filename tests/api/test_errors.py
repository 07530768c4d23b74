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


def stored(app) -> int:
    """How many events the store holds, every battle's and set's together."""
    return app.state.services.battles.store.recorder.max_notification_id() or 0


def post_raw(client, path: str, body: str, headers: dict[str, str] | None = None):
    """A body exactly as written: JSON escapes such as a lone surrogate `\\ud800` reach the server."""
    return client.post(path, content=body.encode(), headers={"content-type": "application/json", **(headers or {})})


def battle_body(players: str = '{"p1": "alice", "p2": "bob"}', **extra: str) -> str:
    return '{"ruleset": "deckduel", "players": %s%s}' % (players, "".join(f', "{k}": {v}' for k, v in extra.items()))


@pytest.mark.parametrize("path, body, field", [
    ("/battles", battle_body('{"p1": "\\ud800", "p2": "bob"}'), "players.p1"),
    ("/battles", battle_body(seed_nonces='{"p1": "\\udfff"}'), "seed_nonces.p1"),
    ("/battles", battle_body(setup='{"p1": {"character": "kira"}, "p2": {"character": "brom"}, '
                                   '"params": {"hand_size": 18446744073709551616}}'), "setup.params.hand_size"),
    ("/battles", battle_body(setup='{"p1": {"character": "\\ud800"}}'), "setup.p1.character"),
    ("/battles", battle_body(setup='{"note": 1e999}'), "setup.note"),
    ("/sets", battle_body('{"p1": "alice", "p2": "\\ud800"}'), "players.p2"),
])
def test_unstorable_create_bodies_are_422_and_store_nothing(client, app, path, body, field):
    before = stored(app)
    refused = error(post_raw(client, path, body), 422)
    assert refused["code"] == "invalid" and refused["details"]["field"] == field
    assert refused["message"].startswith(field)
    assert stored(app) == before


def test_params_past_their_range_are_422_naming_the_param(client, app):
    before = stored(app)
    body = battle_body(setup='{"p1": {"character": "kira"}, "p2": {"character": "brom"}, '
                             '"params": {"hand_size": 9223372036854775807}}')
    refused = error(post_raw(client, "/battles", body), 422)
    assert refused["code"] == "bad_setup" and refused["details"]["field"] == "params.hand_size"
    assert refused["message"] == "setup.params.hand_size: must be between 0 and 20, not 9223372036854775807"
    assert stored(app) == before


@pytest.mark.parametrize("body, field, code", [
    ('{"command": {"type": "pass"}, "expected_seq": 18446744073709551616}', "expected_seq", "invalid"),
    ('{"command": {"type": "pass"}, "expected_seq": 9223372036854775808}', "expected_seq", "invalid"),
    ('{"command": {"type": "\\ud800"}}', "command.type", "invalid"),
    ('{"command": {"type": "mulligan", "cards": ["\\udc00"]}}', "command.cards[0]", "invalid"),
    ('{"command": {"type": "mulligan", "cards": [NaN]}}', "command.cards[0]", "invalid"),
])
def test_unstorable_commands_are_422_and_append_nothing(client, app, body, field, code):
    battle = create(client)
    bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
    before = stored(app)
    refused = error(post_raw(client, f"/battles/{bid}/commands", body, auth(token)), 422)
    assert refused["code"] == code and refused["details"]["field"] == field
    assert field in refused["message"]
    assert stored(app) == before


def test_the_largest_expected_seq_is_merely_stale(client):
    battle = create(client)
    bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
    body = '{"command": {"type": "pass"}, "expected_seq": 9223372036854775807}'
    assert error(post_raw(client, f"/battles/{bid}/commands", body, auth(token)), 409)["code"] == "stale"


@pytest.mark.parametrize("players, field", [
    ({"p1": "a" * 65, "p2": "bob"}, "players.p1"),
    ({"p1": "", "p2": "bob"}, "players.p1"),
    ({"p" * 33: "a", "p2": "bob"}, "players"),
])
def test_player_ids_and_seat_keys_are_capped(client, app, players, field):
    before = stored(app)
    refused = error(client.post("/battles", json={"ruleset": "deckduel", "players": players}), 422)
    assert refused["details"]["field"].startswith(field)
    assert stored(app) == before


def test_seed_nonces_are_capped(client):
    long_nonce = error(client.post("/battles", json={"ruleset": "deckduel", "players": PLAYERS,
                                                     "seed_nonces": {"p1": "n" * 129}}), 422)
    assert long_nonce["details"]["field"] == "seed_nonces.p1" and "128" in long_nonce["message"]
    many = {f"s{i}": "n" for i in range(17)}
    too_many = error(client.post("/battles", json={"ruleset": "deckduel", "players": PLAYERS,
                                                   "seed_nonces": many}), 422)
    assert too_many["details"]["field"] == "seed_nonces" and "16" in too_many["message"]


def test_idempotency_keys_are_capped_naming_the_header(client):
    battle = create(client)
    bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
    refused = error(client.post(f"/battles/{bid}/commands", json={"command": {"type": "pass"}},
                                headers={**auth(token), "Idempotency-Key": "k" * 201}), 400)
    assert refused["details"] == {"field": "Idempotency-Key", "max_length": 200}


def test_error_messages_and_details_are_capped(client, app):
    battle = create(client)
    bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
    before = stored(app)
    answer = client.post(f"/battles/{bid}/commands", headers=auth(token),
                         json={"command": {"type": "x" * 500_000, "cards": ["jab"] * 50_000}})
    refused = error(answer, 400)
    assert refused["code"] == "rule_violation"
    assert len(answer.content) < 2_000
    assert "'xxxxxxxx" in refused["message"] and "…" in refused["message"]
    assert stored(app) == before
