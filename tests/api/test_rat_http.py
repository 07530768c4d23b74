"""A rat battle over HTTP: one seat against the rules' enemy AI, and a player-versus-player
battle where seat p2 plays the enemies. Enemy HP and the turn's plans never reach the party
or spectators while the battle runs, nor does the ruleset listing give enemy HP to anyone;
the party's build never reaches the enemy seat."""
from __future__ import annotations

import random

from .helpers import auth, create, hidden_leaks, step


def test_a_party_plays_alone_against_the_rules_ai(client):
    battle = create(client, "rat", {"p1": "alice"}, setup={"formation": "back_alley"})
    assert set(battle["seat_tokens"]) == {"p1"}
    bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
    rng = random.Random(3)
    while True:
        answer = step(client, battle, rng)
        if answer is None:
            break
        # The batch that ends the battle makes its log public, enemy HP included (README).
        if not any(wire["type"] == "engine.BattleEnded" for wire in answer["events"]):
            assert [leak for wire in answer["events"] for leak in hidden_leaks(wire, "p1")] == []
        for viewer in ({}, auth(token)):
            view = client.get(f"/battles/{bid}", headers=viewer).json()["state"]
            if view["result"] is None:
                # Enemy HP is hidden: no number, only the ANALYZE bar once analyzed.
                assert all("hp" not in e and (e["hp_pct"] is None) == (not e["analyzed"]) for e in view["enemies"])
    ended = client.get(f"/battles/{bid}").json()
    assert ended["outcome"]["winner"] in ("party", "enemies", None)
    chose = [e for e in client.get(f"/battles/{bid}/events").json()["events"] if e["type"] == "rat.EnemyChose"]
    assert chose and all(e["data"]["ai"] in ("random", "no_memory", "memory") for e in chose)


def test_a_second_seat_can_play_the_enemies(client):
    battle = create(client, "rat", {"p1": "alice", "p2": "bob"}, setup={"enemy_seat": True})
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    assert set(tokens) == {"p1", "p2"}
    p2 = client.get(f"/battles/{bid}", headers=auth(tokens["p2"])).json()["state"]
    # The enemy seat sees its own HP and the party's HP, not the party's stats or consumables.
    assert all("hp" in e for e in p2["enemies"]) and all("hp" in m and "items" not in m for m in p2["party"])
    rng = random.Random(5)
    for _ in range(40):
        if step(client, battle, rng) is None:
            break
        for seat in ("p1", "p2", None):
            headers = auth(tokens[seat]) if seat else {}
            events = client.get(f"/battles/{bid}/events", headers=headers).json()["events"]
            if client.get(f"/battles/{bid}").json()["outcome"] is None:
                assert all(hidden_leaks(e, seat) == [] for e in events)
    refused = client.post(f"/battles/{bid}/commands", headers=auth(tokens["p2"]),
                          json={"command": {"type": "act", "actor": "mc", "action": "strike", "target": "e1"}})
    assert refused.status_code in (400, 409) and "error" in refused.json()


def test_the_ruleset_listing_gives_no_enemy_hp(client):
    # given / when: anyone lists the rulesets
    rat = next(r for r in client.get("/rulesets").json()["rulesets"] if r["id"] == "rat")
    # then: every enemy is listed, none with its HP; rat hides it since 1.1.0, and 1.0.0 still replays
    enemies = rat["content"]["enemies"]
    assert len(enemies) == 14 and [k for k, e in enemies.items() if "hp" in e] == []
    assert (rat["version"], rat["earlier_versions"]) == ("1.4.0", ["1.0.0", "1.1.0", "1.2.0", "1.3.0"])
    assert enemies["sewer_rat"] == {
        "id": "sewer_rat", "name": "Sewer Rat", "atk": 80, "def": 25, "spd": 60, "priority": 0, "boss": False,
        "intrinsic": [], "equipment": [], "ai_value": 100, "immune": [], "text": "Pip's less polite cousins.",
        "moves": {"random": ["bite", "quick_jab"], "no_memory": ["bite", "tail_whip", "quick_jab"],
                  "memory": ["bite", "tail_whip", "quick_jab"]}}
