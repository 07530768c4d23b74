"""A scripted deck order (`shuffle: false`) is as secret as a shuffle: no channel shows it to a
player or a spectator before the battle is public, and everyone may read it after."""
from __future__ import annotations

import orjson

from domain.rulesets.deckduel.content import CONTENT

from .helpers import PLAYERS, auth, create, play_to_end

DECK = list(CONTENT.characters["brom"].deck_list())
ORDER = DECK[1::2] + DECK[0::2]         # scripted: not the listed order, not sorted
SETUP = {"p1": {"character": "kira"}, "p2": {"character": "brom", "deck": ORDER, "shuffle": False}}


def setups_seen(client, bid: str, headers: dict[str, str]) -> list[object]:
    """The setup as each channel shows it: the log, the replay header and its first line."""
    created = client.get(f"/battles/{bid}/events", headers=headers).json()["events"][0]
    replay = client.get(f"/battles/{bid}/replay", headers=headers).content.splitlines()
    return [created["data"]["setup"], orjson.loads(replay[0])["setup"], orjson.loads(replay[1])["data"]["setup"]]


def test_a_scripted_deck_order_reaches_nobody_before_the_end(client):
    battle = create(client, "deckduel", setup=SETUP)
    bid = battle["battle_id"]
    for seat in (None, "p1", "p2"):
        headers = auth(battle["seat_tokens"][seat]) if seat else {}
        for shown in setups_seen(client, bid, headers):
            # The deck shows what it holds (as a shuffled deck's list does), never its order.
            assert shown["p2"] == {"character": "brom", "deck": sorted(ORDER), "shuffle": False}, seat
    created = client.get(f"/battles/{bid}/events").json()["events"][0]
    assert created["chain"] is None and created["redacted"] is True

    play_to_end(client, battle)
    for shown in setups_seen(client, bid, {}):
        assert shown["p2"]["deck"] == ORDER


def test_a_set_with_a_scripted_deck_order_shows_only_what_the_deck_holds(client):
    made = client.post("/sets", json={"ruleset": "deckduel", "players": PLAYERS, "setup": SETUP, "games": 1})
    assert made.status_code == 201, made.text
    shown = client.get(f"/sets/{made.json()['set_id']}").json()["setup"]
    assert shown["p2"]["deck"] == sorted(ORDER)
    assert shown["p1"] == {"character": "kira"}
