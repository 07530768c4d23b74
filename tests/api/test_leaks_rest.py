"""Hidden information never reaches the other seat or spectators over REST: the view, the
event log, time travel, the replay of an unfinished battle, the command answers, AI memory."""
from __future__ import annotations

import random

import orjson

from domain.engine.events import OMNISCIENT, Viewer

from .helpers import auth, create, hidden_leaks, step


def test_no_rest_channel_shows_another_seats_secrets(client, app):
    battle = create(client)
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    rng = random.Random(2)
    for _ in range(25):
        answer = step(client, battle, rng)
        for wire in answer["events"]:
            actor = answer["events"][0]["data"].get("seat")
            assert hidden_leaks(wire, actor) == [], wire
    battles = app.state.services.battles
    for seat in (None, "p1", "p2"):
        headers = auth(tokens[seat]) if seat else {}
        events = client.get(f"/battles/{bid}/events", headers=headers).json()["events"]
        assert events and all(hidden_leaks(e, seat) == [] for e in events)
        # No chain hash before the end (each commits to the hidden events before it); an event
        # the viewer does not see whole says so.
        full = {e["seq"]: orjson.loads(orjson.dumps(e)) for e in battles.events(bid, OMNISCIENT)}
        for e in events:
            assert e["chain"] is None
            assert e.get("redacted", False) == (e["data"] != full[e["seq"]]["data"])
        replay = client.get(f"/battles/{bid}/replay", headers=headers).content.splitlines()
        header = orjson.loads(replay[0])
        assert header["seed"]["revealed"] is None
        assert all(hidden_leaks(orjson.loads(line), seat) == [] for line in replay[1:])
        # The view and time travel equal what the battle service renders for that viewer.
        viewer = Viewer(seat=seat)
        now = client.get(f"/battles/{bid}", headers=headers).json()
        assert set(now.pop("presence")) == {"p1", "p2"}     # who is connected: the live answer's own
        assert now == battles.view(bid, viewer)
        assert client.get(f"/battles/{bid}/at/8", headers=headers).json() == battles.view(bid, viewer, at=8)
    spectator = client.get(f"/battles/{bid}").json()["state"]["seats"]
    assert spectator["p1"]["hand"] is None and spectator["p2"]["hand"] is None
    mine = client.get(f"/battles/{bid}", headers=auth(tokens["p1"])).json()["state"]["seats"]
    assert mine["p1"]["hand"] and mine["p2"]["hand"] is None


def test_ai_memory_holds_only_what_the_seat_saw(client, app):
    # A fixed seed, so the battle is certainly still running after these commands: once it
    # ends its whole log is public, and the log would no longer be what the seat saw then.
    made = app.state.services.battles.create("deckduel", {"p1": "ann", "p2": "ben"}, revealed=b"memory".ljust(32))
    battle = {"battle_id": made.battle_id, "seat_tokens": made.seat_tokens}
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    rng = random.Random(6)
    for _ in range(30):
        assert step(client, battle, rng) is not None
    assert client.get(f"/battles/{bid}/memory").status_code == 401
    for seat in ("p1", "p2"):
        memory = client.get(f"/battles/{bid}/memory", headers=auth(tokens[seat])).json()
        assert memory["seat"] == seat and memory["seq"] == client.get(f"/battles/{bid}").json()["seq"]
        seen = app.state.services.battles.events(bid, Viewer(seat=seat))
        actions = [e for e in seen if e["type"] in {a["type"] for a in memory["actions"]}]
        assert [a["seq"] for a in memory["actions"]] == [e["seq"] for e in actions if e["data"].get("seat")]
        for action, wire in zip(memory["actions"], actions):
            assert action["data"] == wire["data"] and action["actor"] == wire["data"]["seat"]
        other = "p2" if seat == "p1" else "p1"
        for turn in memory["turns"]:
            assert turn["view"]["seats"][other]["hand"] is None
        assert all(hidden_leaks({**a, "seq": a["seq"]}, seat) == [] for a in memory["actions"])
