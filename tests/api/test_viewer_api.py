"""The viewer's API: the `as` perspective on the battle routes, the timeline marks, seeking
in an uploaded replay, and the static page (nothing loaded from elsewhere)."""
from __future__ import annotations

import gzip
import random
import re
import uuid

import orjson
import pytest

from api.routes.viewer import ASSETS
from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.engine.ruleset import get_ruleset

from .helpers import PLAYERS, auth, create, step


def finished(app, ruleset_id: str = "ring", seed: int = 1) -> str:
    """A battle played to its end by greedy bots, saved in the app's store."""
    ruleset = get_ruleset(ruleset_id)
    battle_id = str(uuid.uuid4())
    match = play(ruleset, {seat: get_policy("greedy", ruleset_id) for seat in ruleset.default_table().seats}, battle_id=battle_id,
                 revealed=seeded_bytes(seed, "r"), bot_seed=seeded_bytes(seed, "b"), players=PLAYERS)
    app.state.services.battles.save_battle(match.records, match.state)
    return battle_id


def test_as_needs_the_seats_token_until_a_public_end(client):
    battle = create(client, "ring")
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    for path in (f"/battles/{bid}", f"/battles/{bid}/at/9", f"/battles/{bid}/events"):
        assert client.get(path, params={"as": "spectator"}).status_code == 200
        for view_as in ("p1", "all"):
            refused = client.get(path, params={"as": view_as})
            assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
        assert client.get(path, params={"as": "p1"}, headers=auth(tokens["p1"])).status_code == 200
        assert client.get(path, params={"as": "p2"}, headers=auth(tokens["p1"])).status_code == 403
        assert client.get(path, params={"as": "spectator"}, headers=auth(tokens["p1"])).status_code == 403
        assert client.get(path, params={"as": "p9"}).json()["error"]["details"]["field"] == "as"
        assert client.get(path, params={"as": "p1!"}).status_code == 422
    mine = client.get(f"/battles/{bid}", params={"as": "p1"}, headers=auth(tokens["p1"])).json()
    assert mine == client.get(f"/battles/{bid}", headers=auth(tokens["p1"])).json()


def test_as_opens_every_view_of_a_public_battle_at_any_seq(client, app):
    bid = finished(app)
    first_turn = client.get(f"/viewer/api/battles/{bid}/timeline").json()["turns"][0]["seq"]
    seats = {view_as: client.get(f"/battles/{bid}/at/{first_turn}", params={"as": view_as}).json()["state"]["seats"]
             for view_as in ("spectator", "p1", "p2", "all")}
    assert [seats["spectator"][s]["items"] for s in ("p1", "p2")] == [None, None]
    assert seats["p1"]["p1"]["items"] and seats["p1"]["p2"]["items"] is None
    assert seats["p2"]["p1"]["items"] is None and seats["p2"]["p2"]["items"]
    assert seats["all"]["p1"]["items"] and seats["all"]["p2"]["items"]
    assert client.get(f"/battles/{bid}/at/1").json()["state"] is None     # before the game starts


def test_a_private_battle_stays_closed_after_its_end(client):
    battle = create(client, "deckduel", private=True)
    rng = random.Random(1)
    while step(client, battle, rng) is not None:
        pass
    bid = battle["battle_id"]
    assert client.get(f"/battles/{bid}", params={"as": "all"}).status_code == 403
    timeline = client.get(f"/viewer/api/battles/{bid}/timeline", headers=auth(battle["seat_tokens"]["p2"])).json()
    assert timeline["ended"] and not timeline["public"]
    assert timeline["seat"] == "p2" and timeline["perspectives"] == ["spectator", "p2"]


def test_timeline_marks_actions_and_turn_starts(client, app):
    bid = finished(app)
    timeline = client.get(f"/viewer/api/battles/{bid}/timeline").json()
    events = client.get(f"/battles/{bid}/events").json()["events"]
    assert timeline["ended"] and timeline["perspectives"] == ["spectator", "p1", "p2", "all"]
    assert timeline["seq"] == len(events) and timeline["seat"] is None
    records = app.state.services.battles.records(bid)
    assert timeline["actions"] == [r.seq for r in records if r.event.starts_batch()]
    assert [t["turn"] for t in timeline["turns"]] == list(range(1, len(timeline["turns"]) + 1))
    assert {events[t["seq"] - 1]["type"] for t in timeline["turns"]} == {"ring.TurnStarted"}
    duel = finished(app, "deckduel")
    marks = client.get(f"/viewer/api/battles/{duel}/timeline").json()
    duel_events = client.get(f"/battles/{duel}/events").json()["events"]
    assert {duel_events[t["seq"] - 1]["type"] for t in marks["turns"]} == {"deckduel.RoundStarted"}


def test_timeline_of_a_live_battle_grows_and_holds_spectators_back(client):
    battle = create(client, "deckduel", spectator_delay=1)
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    rng = random.Random(2)
    for _ in range(4):
        step(client, battle, rng)
    seat = client.get(f"/viewer/api/battles/{bid}/timeline", headers=auth(tokens["p1"])).json()
    spectator = client.get(f"/viewer/api/battles/{bid}/timeline").json()
    head = client.get(f"/battles/{bid}", headers=auth(tokens["p1"])).json()["seq"]
    assert seat["seq"] == head and seat["perspectives"] == ["spectator", "p1"]
    assert spectator["seq"] < head and spectator["perspectives"] == ["spectator"]
    assert spectator["actions"] == [a for a in seat["actions"] if a <= spectator["seq"]]
    step(client, battle, rng)
    grown = client.get(f"/viewer/api/battles/{bid}/timeline", headers=auth(tokens["p1"])).json()
    assert grown["seq"] > head and grown["actions"][:len(seat["actions"])] == seat["actions"]


def test_an_uploaded_replay_seeks_like_the_stored_battle(client, app):
    bid = finished(app)
    replay = client.get(f"/battles/{bid}/replay").content
    for body in (replay, gzip.compress(replay)):
        for seq, view_as in ((40, "all"), (120, "p1"), (200, "spectator")):
            found = client.post("/replays/at", params={"seq": seq, "as": view_as}, content=body)
            assert found.json() == client.get(f"/battles/{bid}/at/{seq}", params={"as": view_as}).json()
    last = client.post("/replays/at", content=replay).json()
    live = client.get(f"/battles/{bid}").json()
    live.pop("presence")            # who is connected now: not in any replay
    assert last == live
    marks = client.post("/replays/timeline", content=replay).json()
    assert marks == client.get(f"/viewer/api/battles/{bid}/timeline").json()


@pytest.mark.parametrize("change, status, code", [
    (lambda lines: lines[:1], 422, "bad_replay"),
    (lambda lines: [b"{not json"], 422, "bad_replay"),
    (lambda lines: lines[:1] + lines[2:], 422, "bad_replay"),
    (lambda lines: [re.sub(rb'"version":"[0-9.]+"', b'"version":"0.0.1"', lines[0], count=1)] + lines[1:], 422,
     "ruleset_not_installed"),
])
def test_a_replay_that_cannot_be_played_back_is_refused(client, app, change, status, code):
    replay = client.get(f"/battles/{finished(app, 'deckduel')}/replay").content
    body = b"\n".join(change(replay.splitlines()))
    for path in ("/replays/at", "/replays/timeline"):
        refused = client.post(path, content=body)
        assert (refused.status_code, refused.json()["error"]["code"]) == (status, code), refused.text


def test_seeking_past_the_end_or_as_a_stranger_is_refused(client, app):
    replay = client.get(f"/battles/{finished(app, 'deckduel')}/replay").content
    last = len(replay.splitlines()) - 1
    assert client.post("/replays/at", params={"seq": last + 1}, content=replay).status_code == 404
    assert client.post("/replays/at", params={"as": "p7"}, content=replay).status_code == 422


def test_a_redacted_replay_says_why_it_cannot_be_played_back(client):
    battle = create(client, "deckduel")
    rng = random.Random(3)
    for _ in range(5):
        step(client, battle, rng)
    replay = client.get(f"/battles/{battle['battle_id']}/replay").content
    refused = client.post("/replays/timeline", content=replay).json()["error"]
    assert refused["code"] == "bad_replay" and refused["details"]["redacted"] is True


def test_the_page_and_its_assets(client):
    page = client.get("/viewer/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/viewer/battles/anything").text == page.text
    assert client.get("/viewer", follow_redirects=False).status_code in (307, 308)
    script = client.get("/viewer/assets/viewer.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    for name in ("nope.js", "index.html", "..%2Fapp.py", "x" * 300 + ".js", "x" * 5000 + ".css"):
        missing = client.get(f"/viewer/assets/{name}")
        assert missing.status_code == 404 and orjson.loads(missing.content)["error"]["code"] == "not_found"


def test_the_root_address_leads_to_the_battle_list(client):
    root = client.get("/", follow_redirects=False)
    assert (root.status_code, root.headers["location"]) == (307, "/viewer/")
    listing = client.get("/")
    assert listing.url.path == "/viewer/" and listing.text == client.get("/viewer/").text
    for linked in ("/docs", "/openapi.json"):
        assert f'href="{linked}"' in listing.text and client.get(linked).status_code == 200
    assert "/" not in client.get("/openapi.json").json()["paths"]


def test_the_viewer_loads_nothing_from_elsewhere():
    for path in (p for p in ASSETS.rglob("*") if p.is_file()):
        text = path.read_text()
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.I), path.name
        assert "@import" not in text and "innerHTML" not in text, path.name
