"""A JSON body nested more than 64 levels deep is refused with 422 before any parser recurses
into it, on the fast path and on the framework's routes alike, and stores nothing; a replay
upload's lines have a limit of their own."""
from __future__ import annotations

import orjson
import pytest

from .helpers import PLAYERS, auth, create
from .test_errors import error, stored
from .test_fast_path import both_ways

TOO_DEEP = {"code": "invalid", "message": "body: is nested more than 64 levels deep",
            "details": {"field": "body", "max_depth": 64}}


def arrays(depth: int) -> str:
    return "[" * depth + "]" * depth


def command_body(depth: int) -> bytes:
    """A command body nested `depth` levels deep in all (the body and the command are two)."""
    return ('{"command": {"type": "mulligan", "cards": %s}}' % arrays(depth - 2)).encode()


def create_body(depth: int, **extra: object) -> bytes:
    fields = {"ruleset": "deckduel", "players": PLAYERS, **extra}
    return orjson.dumps(fields)[:-1] + (', "setup": {"deep": %s}}' % arrays(depth - 2)).encode()


@pytest.mark.parametrize("depth", [65, 1000, 100_000])
def test_a_command_nested_too_deep_is_422_on_both_paths(client, app, depth):
    battle = create(client)
    before = stored(app)
    fast, framework = both_ways(client, f"/battles/{battle['battle_id']}/commands", command_body(depth),
                                auth(battle["seat_tokens"]["p1"]))
    assert fast == framework == (422, {"error": TOO_DEEP})
    assert stored(app) == before


@pytest.mark.parametrize("path, extra", [("/battles", {}), ("/sets", {"games": 1})])
@pytest.mark.parametrize("depth", [65, 1000])
def test_a_battle_or_set_nested_too_deep_is_422_on_both_paths(client, app, path, extra, depth):
    before = stored(app)
    fast, framework = both_ways(client, path, create_body(depth, **extra), {})
    assert fast == framework == (422, {"error": TOO_DEEP})
    assert stored(app) == before


def test_a_command_64_levels_deep_is_read_and_decided(client):
    battle = create(client)
    fast, framework = both_ways(client, f"/battles/{battle['battle_id']}/commands", command_body(64),
                                auth(battle["seat_tokens"]["p1"]))
    assert fast == framework and fast[0] == 400 and fast[1]["error"]["code"] == "rule_violation"


def test_brackets_inside_strings_do_not_count(client):
    battle = create(client)
    body = orjson.dumps({"command": {"type": "[{" * 100}})
    fast, framework = both_ways(client, f"/battles/{battle['battle_id']}/commands", body,
                                auth(battle["seat_tokens"]["p1"]))
    assert fast == framework and fast[0] == 400 and fast[1]["error"]["code"] == "rule_violation"


@pytest.mark.parametrize("route", ["/replays/verify", "/replays/at", "/replays/timeline"])
def test_a_replay_line_nested_too_deep_is_422(client, route):
    header = orjson.dumps({"format": "ringside-replay", "version": 1, "battle_id": "b"})
    event = b'{"seq": 1, "type": "engine.BattleCreated", "chain": null, "data": {"deep": %s}}' % arrays(500).encode()
    refused = error(client.post(route, content=header + b"\n" + event + b"\n"), 422)
    assert refused == {"code": "bad_replay", "details": {"max_depth": 128},
                       "message": "upload: a line is nested more than 128 levels deep"}


def test_a_body_nested_too_deep_is_422_however_it_is_encoded(client, app):
    battle = create(client)
    before = stored(app)
    not_utf8 = ('{"command": {"cards": %s, "type": "' % arrays(1000)).encode() + b'\xff"}}'
    utf16 = command_body(1000).decode().encode("utf-16")
    for body in (not_utf8, utf16):
        fast, framework = both_ways(client, f"/battles/{battle['battle_id']}/commands", body,
                                    auth(battle["seat_tokens"]["p1"]))
        assert fast == framework == (422, {"error": TOO_DEEP})
    assert stored(app) == before
