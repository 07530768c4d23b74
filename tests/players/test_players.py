"""Registered players: ids kept once, tokens kept only as hashes."""
from __future__ import annotations

import sqlite3

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Settings, bootstrap
from domain.access import token_hash
from domain.battles import Battles
from domain.engine.errors import InvalidInput
from domain.players import PlayerTaken, Players, UnknownPlayerToken


@pytest.fixture
def players(sqlite_url):
    with Battles(sqlite_url) as battles:
        yield Players(battles.store)


def test_a_registered_players_token_finds_it_and_only_its_hash_is_kept(players, sqlite_url):
    # given alice registered
    made = players.register("alice")
    # then her token names her, and the store holds its hash, never the token
    assert players.player_of(made.player_token) == "alice"
    assert players.registered("alice") and not players.registered("bob")
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as db:
        kept = b"".join(bytes(state) for (state,) in db.execute("SELECT state FROM stored_events"))
    assert made.player_token.encode() not in kept and token_hash(made.player_token).encode() in kept


@pytest.mark.parametrize("again", ["alice", "ALICE", "Ａｌｉｃｅ"])
def test_an_id_or_a_look_alike_registers_once(players, again):
    # given alice registered
    players.register("alice")
    # when the same id, another case of it, or its fullwidth look-alike registers
    with pytest.raises(PlayerTaken):
        players.register(again)
    # then nothing more was kept: a token of the refused call could not exist, and alice's stands
    assert players.registered("alice")


@pytest.mark.parametrize("bad", ["", "   ", "x" * 65, 7, None, "house:greedy", "HOUSE:greedy", "a\ud800b"])
def test_a_bad_id_is_refused_naming_player_id(players, bad):
    with pytest.raises(InvalidInput) as refused:
        players.register(bad)
    assert refused.value.field == "player_id"


@pytest.mark.parametrize("token", [None, "", "not-a-token"])
def test_a_missing_or_unknown_token_opens_no_player(players, token):
    players.register("alice")
    with pytest.raises(UnknownPlayerToken):
        players.player_of(token)


def test_post_players_answers_the_token_once_and_refuses_a_second_registration(sqlite_url):
    with TestClient(create_app(services=bootstrap(Settings(database_url=sqlite_url)))) as client:
        made = client.post("/players", json={"player_id": "alice"})
        assert made.status_code == 201 and made.json()["player_id"] == "alice"
        assert len(made.json()["player_token"]) >= 40
        again = client.post("/players", json={"player_id": "Alice"})
        assert again.status_code == 409 and again.json()["error"]["code"] == "player_taken"
        bad = client.post("/players", json={"player_id": "house:x"})
        assert bad.status_code == 422 and bad.json()["error"]["details"]["field"] == "player_id"
        assert client.post("/players", json={"player_id": 2 ** 70}).status_code == 422
        assert client.post("/players", json={}).status_code == 422


def test_with_an_admin_token_only_the_game_server_registers_players(sqlite_url):
    services = bootstrap(Settings(database_url=sqlite_url, admin_token="s3cret"))
    with TestClient(create_app(services=services)) as client:
        assert client.post("/players", json={"player_id": "alice"}).status_code == 401
        made = client.post("/players", json={"player_id": "alice"}, headers={"Authorization": "Bearer s3cret"})
        assert made.status_code == 201
