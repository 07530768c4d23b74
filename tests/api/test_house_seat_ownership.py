"""A house seat belongs to the service: creating a battle or a set hands out tokens for the
human seats only, no token ever opens a house seat, and no player id may pass for a house id."""
from __future__ import annotations

import uuid

import pytest

from domain.battles import token_hash, utc_now
from domain.engine.battle import open_battle
from domain.engine.ruleset import get_ruleset

from .helpers import auth, create
from .test_errors import error, stored

HOUSE = {"p1": "alice", "p2": {"bot": "greedy"}}


def test_a_battle_with_a_house_seat_hands_out_a_token_for_the_human_seat_only(client, app):
    made = create(client, "skirmish", HOUSE)
    assert list(made["seat_tokens"]) == ["p1"]
    created = app.state.services.battles.load(made["battle_id"]).created
    assert created.seat_token_hashes == {"p1": token_hash(made["seat_tokens"]["p1"])}


def test_a_battle_of_house_seats_only_hands_out_no_token(client, app):
    made = create(client, "deckduel", {"p1": {"bot": "random"}, "p2": {"bot": "greedy"}})
    assert made["seat_tokens"] == {}
    assert app.state.services.battles.load(made["battle_id"]).created.seat_token_hashes is None


def test_a_set_with_a_house_seat_hands_out_a_token_for_the_human_seat_only(client, app):
    made = client.post("/sets", json={"ruleset": "skirmish", "players": HOUSE, "games": 1, "mode": "all"})
    assert made.status_code == 201, made.text
    body = made.json()
    assert list(body["seat_tokens"]) == ["p1"]
    services = app.state.services
    assert services.sets.records(body["set_id"])[0].event.seat_token_hashes == {"p1": token_hash(body["seat_tokens"]["p1"])}
    assert services.battles.load(body["battle_id"]).created.seat_token_hashes == {"p1": token_hash(body["seat_tokens"]["p1"])}


def test_no_token_reads_acts_or_forfeits_for_a_house_seat(client, app):
    # given a battle stored with a token hash for its house seat, as battles were once created
    ruleset, bid = get_ruleset("skirmish"), str(uuid.uuid4())
    tokens = {"p1": "p1-" + "a" * 40, "p2": "p2-" + "b" * 40}
    state, records = open_battle(ruleset, battle_id=bid, setup=ruleset.fresh_setup(), players=HOUSE,
                                 revealed=b"r" * 32, token_hashes={s: token_hash(t) for s, t in tokens.items()},
                                 created_at=utc_now())
    app.state.services.battles.append_batch(uuid.UUID(bid), records, state, previous_seq=0)
    # when anyone bears that token, then it opens nothing
    house = auth(tokens["p2"])
    for answer in (client.get(f"/battles/{bid}", headers=house), client.get(f"/battles/{bid}/legal", headers=house),
                   client.get(f"/battles/{bid}/events", headers=house),
                   client.get(f"/battles/{bid}/memory", headers=house),
                   client.post(f"/battles/{bid}/commands", headers=house, json={"command": {"type": "forfeit"}})):
        assert error(answer, 403) == {"code": "forbidden", "details": {},
                                      "message": "this token is not a seat token of this battle"}
    # and the human seat's token views and acts as that seat only
    assert error(client.get(f"/battles/{bid}?as=p2", headers=auth(tokens["p1"])), 403)["code"] == "forbidden"
    assert client.get(f"/battles/{bid}/legal", headers=auth(tokens["p1"])).json()["seat"] == "p1"
    assert client.get(f"/battles/{bid}").json()["outcome"] is None


HOUSE_LIKE = ["house:greedy", "HOUSE:greedy", "House:alice", "house:", "\uff48\uff4f\uff55\uff53\uff45:greedy",
              "house\uff1agreedy", "\u210eouse:greedy"]


@pytest.mark.parametrize("path", ["/battles", "/sets"])
@pytest.mark.parametrize("player", HOUSE_LIKE)
def test_a_player_id_in_the_house_namespace_is_refused(client, app, path, player):
    before = stored(app)
    refused = error(client.post(path, json={"ruleset": "skirmish", "players": {"p1": "alice", "p2": player}}), 422)
    assert refused == {"code": "invalid", "details": {"field": "players.p2"},
                       "message": 'players.p2: a player id may not start with "house:" (in any letter case or '
                                  "Unicode form): it names the service's house bots"}
    assert stored(app) == before


@pytest.mark.parametrize("player", ["house", "housemate:bo", "the house:bo", "bot:greedy"])
def test_ids_merely_like_the_house_prefix_are_players(client, player):
    made = create(client, "skirmish", {"p1": "alice", "p2": player})
    assert client.get(f"/battles/{made['battle_id']}").json()["players"] == {"p1": "alice", "p2": player}
