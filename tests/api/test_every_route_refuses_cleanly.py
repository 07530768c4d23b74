"""Every route of the app, sent a body nested 1,000 levels deep, with real ids in its path and
with a path segment of 300 characters, answers without a 500, and any refusal is the JSON
error. A route that reads a JSON body refuses the nesting itself, before parsing it."""
from __future__ import annotations

import itertools
import re
import uuid

import pytest
from fastapi.routing import APIRoute
from starlette.routing import Route
from starlette.websockets import WebSocketDisconnect

from api.app import ROUTED
from api.bodies import JsonBodyRoute
from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.engine.ruleset import get_ruleset

from .helpers import PLAYERS
from .test_deep_bodies import TOO_DEEP

DEEP = b"[" * 1000 + b"]" * 1000
# Bare, and where a parser reads a value of any shape (a command, a setup) before anything else.
BODIES = [DEEP, b'{"command": {"a": %s}}' % DEEP, b'{"setup": {"a": %s}}' % DEEP]
LONG = "x" * 300 + ".js"
PARAM = re.compile(r"{(\w+)}")


def ended_battle(app) -> str:
    """A deckduel battle played to its end in memory and saved: its stream ends, so every read of it does."""
    ruleset, battle_id = get_ruleset("deckduel"), str(uuid.uuid4())
    match = play(ruleset, {seat: get_policy("random", "deckduel") for seat in PLAYERS}, battle_id=battle_id,
                 revealed=seeded_bytes(1, "r"), bot_seed=seeded_bytes(1, "b"), players=PLAYERS)
    app.state.services.battles.save_battle(match.records, match.state)
    return battle_id


def operations(app) -> list[tuple[str, str, Route]]:
    """Every (method, path, route) the app serves over HTTP: its own (the API docs), then each
    router's; all that its OpenAPI schema lists are among them."""
    routes = [*app.routes, *(route for module in ROUTED for route in module.router.routes)]
    found = [(method, route.path, route) for route in routes if isinstance(route, Route)
             for method in sorted(route.methods - {"HEAD"})]
    documented = {(method.upper(), path) for path, ops in app.openapi()["paths"].items() for method in ops}
    assert documented <= {(method, path) for method, path, _ in found}
    assert len(found) > len(documented) >= 20
    return found


def test_every_route_that_reads_json_checks_its_depth_first(app):
    reading = [route for _, _, route in operations(app) if isinstance(route, APIRoute) and route.body_field]
    assert {route.path for route in reading} == {"/battles", "/battles/{battle_id}/commands", "/sets", "/players",
                                                 "/queues/{queue_id}/tickets", "/tournaments",
                                                 "/tournaments/{tournament_id}/entrants"}
    assert all(isinstance(route, JsonBodyRoute) for route in reading)


@pytest.mark.parametrize("long_segments", [False, True])
def test_every_route_answers_a_deep_body_without_a_500(client, app, long_segments):
    made = client.post("/sets", json={"ruleset": "deckduel", "players": PLAYERS, "games": 1}).json()
    real = {"battle_id": ended_battle(app), "set_id": made["set_id"], "seq": "1", "ruleset": "deckduel",
            "player_id": "alice", "name": "viewer.js", "queue_id": "deckduel-blitz", "ticket_id": str(uuid.uuid4()),
            "tournament_id": str(uuid.uuid4())}
    for (method, path, route), body in itertools.product(operations(app), BODIES):
        url = PARAM.sub(lambda m: LONG if long_segments else real[m.group(1)], path)
        answer = client.request(method, url, content=body, headers={"content-type": "application/json"},
                                follow_redirects=False)
        assert answer.status_code < 500, (method, url[:80], answer.text[:300])
        if answer.status_code >= 400:
            assert set(answer.json()["error"]) == {"code", "message", "details"}, (method, url[:80])
        if isinstance(route, APIRoute) and route.body_field and not long_segments:
            assert (answer.status_code, answer.json()) == (422, {"error": TOO_DEEP}), (method, url)


def test_a_long_segment_anywhere_is_a_json_404(client):
    for url in (f"/{LONG}", f"/battles/{'0' * 64}/{LONG}", f"/viewer/assets/{LONG}", f"/viewer/{LONG}/{LONG}"):
        answer = client.get(url)
        assert (answer.status_code, answer.json()["error"]["code"]) == (404, "not_found"), url


def test_the_stream_of_a_long_battle_id_closes_as_not_found(client):
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(f"/battles/{LONG}/stream") as ws:
        ws.receive_bytes()
    assert closed.value.code == 4404
