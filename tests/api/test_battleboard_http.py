"""A battleboard battle over HTTP: three hero seats and a game master, the arrangement hidden
from the other side while teammates see each other's, hero seats acting in any order, a house
bot playing the foes, and bad input as JSON errors."""
from __future__ import annotations

import random

from .helpers import auth, create, hidden_leaks, play_to_end

PLAYERS = {"h1": "ann", "h2": "bob", "h3": "cy", "gm": "gwen"}
SETUP = {"heroes": ["aria", "bram", "cass"], "encounter": "drake_lair"}


def post(client, bid, token, command):
    return client.post(f"/battles/{bid}/commands", headers=auth(token), json={"command": command})


def legal(client, bid, token):
    return client.get(f"/battles/{bid}/legal", headers=auth(token)).json()["legal"]


def test_three_hero_seats_and_a_game_master_play_to_the_end(client):
    battle = create(client, "battleboard", PLAYERS, setup={**SETUP, "params": {"round_limit": 6}})
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    assert set(tokens) == set(PLAYERS)
    answers = play_to_end(client, battle, seed=5)
    assert answers
    public = client.get(f"/battles/{bid}").json()
    assert public["outcome"]["winner"] in ("heroes", "foes", None)


def test_the_arrangement_is_seen_by_the_placing_side_only(client):
    battle = create(client, "battleboard", PLAYERS, setup=SETUP)
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    # Whoever won the initiative chooses to go first: the other side arranges first.
    chooser = next(seat for seat, token in tokens.items() if legal(client, bid, token))
    assert post(client, bid, tokens[chooser], {"type": "choose", "go": "first"}).status_code == 200
    arranging = next(seat for seat, token in tokens.items() if legal(client, bid, token))
    if arranging == "gm":
        placed = post(client, bid, tokens["gm"], legal(client, bid, tokens["gm"])[0]).json()
        seers, blind = {"gm"}, ["h1", "h2", "h3", None]
    else:
        placed = post(client, bid, tokens["h2"], legal(client, bid, tokens["h2"])[0]).json()
        seers, blind = {"h1", "h2", "h3"}, ["gm", None]
    event = next(e for e in placed["events"] if e["type"] == "battleboard.Placed")
    for seat in sorted(seers):
        mine = client.get(f"/battles/{bid}/events", headers=auth(tokens[seat]), params={"from": event["seq"]})
        assert mine.json()["events"][0]["data"]["cell"] is not None
    for seat in blind:
        headers = auth(tokens[seat]) if seat else {}
        seen = client.get(f"/battles/{bid}/events", headers=headers, params={"from": event["seq"]}).json()["events"]
        assert hidden_leaks(seen[0], seat) == [] and seen[0]["data"]["cell"] is None
        view = client.get(f"/battles/{bid}", headers=headers).json()["state"]
        assert all(u["cell"] is None for u in view["combatants"])


def test_hero_seats_act_in_any_order_during_their_turn(client):
    battle = create(client, "battleboard", PLAYERS, setup=SETUP)
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    rng = random.Random(3)
    while not (legal(client, bid, tokens["h1"]) and legal(client, bid, tokens["h3"])
               and client.get(f"/battles/{bid}").json()["state"]["phase"] == "turn"):
        seat = next(s for s, t in sorted(tokens.items()) if legal(client, bid, t))
        assert post(client, bid, tokens[seat], rng.choice(legal(client, bid, tokens[seat]))).status_code == 200
    # h3 ends first, then h2 acts, then h1: each applies at once; the turn ends with the last.
    assert post(client, bid, tokens["h3"], {"type": "end_turn"}).status_code == 200
    assert legal(client, bid, tokens["h3"]) == [] and legal(client, bid, tokens["h1"])
    assert post(client, bid, tokens["h2"], {"type": "end_turn"}).status_code == 200
    assert client.get(f"/battles/{bid}").json()["state"]["active"] == "heroes"
    assert post(client, bid, tokens["h1"], {"type": "end_turn"}).status_code == 200
    state = client.get(f"/battles/{bid}").json()["state"]
    assert state["active"] == "foes" or state["waiting_defense"] or state["result"]


def test_a_house_bot_plays_the_foes(client):
    battle = create(client, "battleboard", {"h1": "ann", "h2": "bob", "gm": {"bot": "memory"}},
                    setup={"heroes": ["aria", "bram"], "encounter": "goblin_ambush", "params": {"round_limit": 6}})
    bid = battle["battle_id"]
    tokens = {seat: token for seat, token in battle["seat_tokens"].items() if seat != "gm"}
    rng = random.Random(9)
    for _ in range(3000):
        state = client.get(f"/battles/{bid}").json()
        if state["outcome"] is not None:
            break
        seat = next((s for s, t in sorted(tokens.items()) if legal(client, bid, t)), None)
        if seat is not None:
            assert post(client, bid, tokens[seat], rng.choice(legal(client, bid, tokens[seat]))).status_code == 200
    events = client.get(f"/battles/{bid}/events").json()["events"]
    assert any(e["type"] == "battleboard.ActionTaken" and e["data"]["seat"] == "gm" for e in events)


def test_bad_commands_and_setups_are_json_errors(client):
    battle = create(client, "battleboard", PLAYERS, setup=SETUP)
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    seq = client.get(f"/battles/{bid}").json()["seq"]
    for seat, command in [("h1", {"type": "place", "unit": "h1", "cell": [2**70, 0]}),
                          ("h1", {"type": "act", "unit": "h1", "action": "no_such"}),
                          ("gm", {"type": "defend", "lose": "everything"}),
                          ("gm", {"type": "move", "unit": "f1", "to": [0, 2**64]})]:
        answer = post(client, bid, tokens[seat], command)
        assert answer.status_code in (400, 403, 409, 422) and "error" in answer.json(), (command, answer.text)
    surrogate = b'{"command": {"type": "move", "unit": "\\udc00", "to": [0, 0]}}'
    answer = client.post(f"/battles/{bid}/commands", content=surrogate,
                         headers={**auth(tokens["h1"]), "Content-Type": "application/json"})
    assert answer.status_code in (400, 422) and "error" in answer.json(), answer.text
    assert client.get(f"/battles/{bid}").json()["seq"] == seq     # nothing appended
    for setup, field in [({"heroes": []}, "heroes"),
                         ({"heroes": [{"class": ["vanguard", "nobody"]}], "encounter": "drake_lair"}, "heroes[0].class[1]"),
                         ({"heroes": ["aria"], "foes": ["dragon"], "map": "thornwood"}, "foes[0]")]:
        bad = client.post("/battles", json={"ruleset": "battleboard", "players": {"h1": "a", "gm": "g"}, "setup": setup})
        assert bad.status_code in (400, 422) and field in bad.text, bad.text
