"""A battle played to the end through HTTP: events, views, time travel, replay, leaderboard."""
from __future__ import annotations

import orjson

from domain.engine.chain import GENESIS, chain_of
from replays.format import loads
from replays.verify import verify

from .helpers import PLAYERS, auth, create, play_to_end


def test_rulesets_list_setup_schema_default_setup_and_content(client):
    rulesets = {r["id"]: r for r in client.get("/rulesets").json()["rulesets"]}
    duel = rulesets["deckduel"]
    assert duel["seats"] == ["p1", "p2"] and duel["default_setup"] and duel["content"]["cards"]
    assert set(duel["setup_schema"]) >= {"seats", "params"}


def test_a_battle_played_to_the_end_over_http(client, app):
    battle = create(client)
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    assert len(tokens["p1"]) >= 43 and tokens["p1"] != tokens["p2"]     # 256-bit, URL-safe
    answers = play_to_end(client, battle, seed=3)
    view = client.get(f"/battles/{bid}").json()
    assert view["outcome"]["winner"] in ("p1", "p2", None) and view["players"] == PLAYERS
    # Each answer lists the caller's events of that command, in order.
    assert [a["seq"] for a in answers] == sorted(a["seq"] for a in answers)
    assert all(a["events"][-1]["seq"] == a["seq"] for a in answers)
    # Once ended, the whole log is public: every event whole, and its chain recomputes.
    events = client.get(f"/battles/{bid}/events").json()["events"]
    assert [e["seq"] for e in events] == list(range(1, view["seq"] + 1))
    chain = GENESIS
    for e in events:
        chain = chain_of(chain, e["seq"], e["type"], e["data"])
        assert e["chain"] == chain
    assert client.get(f"/battles/{bid}/events?from=5").json()["events"][0]["seq"] == 5
    # The replay verifies, and the upload audit says so too.
    replay = client.get(f"/battles/{bid}/replay")
    assert replay.headers["content-type"].startswith("application/x-ndjson")
    report = verify(loads(replay.content))
    assert report.ok and report.head == chain
    uploaded = client.post("/replays/verify", content=replay.content).json()
    assert uploaded["status"] == "ok" and uploaded["head"] == chain
    # The leaderboard rates the finished battle as a set of one.
    services = app.state.services
    services.projections.wait(services.projections.head())
    board = client.get("/leaderboards/deckduel").json()["players"]
    winner = view["outcome"]["winner"]
    assert sorted(row["player"] for row in board) == ["alice", "bob"]
    assert all(row["games"] == 1 for row in board)
    if winner is not None:
        assert board[0]["player"] == PLAYERS[winner] and board[0]["wins"] == 1 and board[0]["rank"] == 1
    page = client.get("/players/alice").json()
    assert page["battles"][0]["battle_id"] == bid
    assert page["battles"][0]["result"] == ("draw" if winner is None else ("win" if winner == "p1" else "loss"))
    assert page["battles"][0]["reason"] == view["outcome"]["reason"]       # why it ended, beside the result


def test_time_travel_matches_the_view_at_each_point(client):
    battle = create(client)
    bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
    first = client.get(f"/battles/{bid}", headers=auth(token)).json()
    play_to_end(client, battle, seed=5)
    at = client.get(f"/battles/{bid}/at/{first['seq']}", headers=auth(token)).json()
    assert at["seq"] == first["seq"]
    # After the end everything is public, so the seat's past view now also shows what was hidden.
    assert at["state"]["seats"]["p1"]["hand"] == first["state"]["seats"]["p1"]["hand"]
    last = client.get(f"/battles/{bid}").json()["seq"]
    assert client.get(f"/battles/{bid}/at/{last + 1}").status_code == 404


def test_a_tampered_replay_is_refused_with_its_seq(client):
    battle = create(client)
    play_to_end(client, battle, seed=8)
    lines = client.get(f"/battles/{battle['battle_id']}/replay").content.splitlines()
    event = orjson.loads(lines[9])
    event["data"] = {**event["data"], "forged": 1}
    lines[9] = orjson.dumps(event)
    report = client.post("/replays/verify", content=b"\n".join(lines)).json()
    assert report["status"] == "fail" and report["seq"] == 9
    bad = client.post("/replays/verify", content=b"not json")
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_replay"


def test_a_set_over_http_advances_and_audits(client):
    made = client.post("/sets", json={"ruleset": "deckduel", "players": PLAYERS, "games": 3, "mode": "all"})
    assert made.status_code == 201, made.text
    body = made.json()
    for i in range(3):
        found = client.get(f"/sets/{body['set_id']}").json()
        play_to_end(client, {"battle_id": found["current_battle"], "seat_tokens": body["seat_tokens"]}, seed=i)
    found = client.get(f"/sets/{body['set_id']}").json()
    assert found["finished"] and len(found["battles"]) == 3
    audit = client.get(f"/sets/{body['set_id']}/audit").json()
    assert audit["status"] == "ok" and audit["digest"] == found["head"], audit
    assert [b["head"] for b in audit["battles"]] == [b["head"] for b in found["battles"]]
