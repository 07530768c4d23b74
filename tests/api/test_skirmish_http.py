"""A skirmish battle over HTTP: a duel played to the end with no hidden field reaching the
other seat or spectators while it runs, a forfeit from the seat that is not awaited, a raid
against a house bot on the boss side, and bad input as JSON errors."""
from __future__ import annotations

import random

from domain.rulesets.skirmish.setup import DEFAULT_SETUP

from .helpers import auth, create, hidden_leaks, step


def test_a_duel_hides_the_selection_placements_and_hands_until_they_are_revealed(client):
    battle = create(client, "skirmish")
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    rng = random.Random(11)
    phases = set()
    while (answer := step(client, battle, rng)) is not None:
        public = client.get(f"/battles/{bid}").json()
        if public["outcome"] is not None:
            break
        phases.add(public["state"]["phase"])
        assert all(part["hand"] is None and part["placements"] is None for part in public["state"]["seats"].values())
        for seat, token in tokens.items():
            mine = client.get(f"/battles/{bid}", headers=auth(token)).json()["state"]["seats"]
            assert mine[seat]["hand"] is not None and mine["p2" if seat == "p1" else "p1"]["hand"] is None
        for wire in client.get(f"/battles/{bid}/events", params={"from": answer["seq"]}).json()["events"]:
            assert hidden_leaks(wire, None) == [], wire
    assert {"select", "place", "mulligan", "combat"} <= phases
    assert client.get(f"/battles/{bid}").json()["outcome"]["winner"] in ("p1", "p2", None)


def test_the_seat_that_is_not_awaited_may_forfeit(client):
    battle = create(client, "skirmish", setup={**DEFAULT_SETUP, "first_player": "p1"})
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    rng = random.Random(2)
    while client.get(f"/battles/{bid}").json()["state"]["phase"] != "combat":
        step(client, battle, rng)
    legal = client.get(f"/battles/{bid}/legal", headers=auth(tokens["p2"])).json()
    assert legal["legal"] == []         # p1's turn: p2 has no move, yet may forfeit
    answer = client.post(f"/battles/{bid}/commands", headers=auth(tokens["p2"]), json={"command": {"type": "forfeit"}})
    assert answer.status_code == 200, answer.text
    assert [e["type"] for e in answer.json()["events"]][:2] == ["skirmish.Forfeited", "skirmish.PlayerDefeated"]
    outcome = client.get(f"/battles/{bid}").json()["outcome"]
    assert outcome == {"winner": "p1", "reason": "p2 forfeited"}


def test_a_raid_against_a_house_bot_boss(client):
    setup = {"mode": "raid", "p1": {"team": ["sigil", "quill", "fang", "brick", "wisp"]}, "p2": {"boss": "tempest_wyrm"}}
    battle = create(client, "skirmish", {"p1": "alice", "p2": {"bot": "greedy"}}, setup=setup)
    bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
    fielded = {"type": "field", "characters": ["sigil", "quill", "fang", "brick", "wisp"]}
    answer = client.post(f"/battles/{bid}/commands", headers=auth(token), json={"command": fielded})
    assert answer.status_code == 200, answer.text
    state = client.get(f"/battles/{bid}", headers=auth(token)).json()["state"]
    assert state["units"]["p2.tempest_wyrm"]["boss"] and state["units"]["p2.tempest_wyrm"]["armor"] == 300


def test_bad_commands_and_setups_are_json_errors(client):
    battle = create(client, "skirmish")
    bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
    for command in ({"type": "field", "characters": ["nobody"]}, {"type": "place", "character": "ember", "cell": [2**70, 0]},
                    {"type": "end_turn"}):
        answer = client.post(f"/battles/{bid}/commands", headers=auth(token), json={"command": command})
        assert answer.status_code in (400, 409, 422) and "error" in answer.json(), (command, answer.text)
    surrogate = b'{"command": {"type": "move", "character": "\\udc00", "to": [0, 0]}}'
    answer = client.post(f"/battles/{bid}/commands", content=surrogate,
                         headers={**auth(token), "Content-Type": "application/json"})
    assert answer.status_code in (400, 422) and "error" in answer.json(), answer.text
    assert client.get(f"/battles/{bid}").json()["seq"] == 2     # nothing appended
    bad = client.post("/battles", json={"ruleset": "skirmish", "players": {"p1": "a", "p2": "b"},
                                        "setup": {"p1": {"team": ["ember", "cinder", "tempest_wyrm"]}, "p2": {"team": []}}})
    assert bad.status_code in (400, 422) and "p1.team[2]" in bad.text
