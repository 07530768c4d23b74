"""What reaches the hash chain can always be encoded: the domain itself refuses values that are
not storable JSON, whoever calls it (the API, the CLI, a Python caller), and appends nothing."""
from __future__ import annotations

import pytest

from domain.battles import Battles
from domain.engine.errors import InvalidInput, SetupError
from domain.sets import Sets

PLAYERS = {"p1": "alice", "p2": "bob"}


@pytest.fixture
def battles(sqlite_url):
    with Battles(sqlite_url) as store:
        yield store


def stored(battles: Battles) -> int:
    return len(list(battles.battle_ids()))


@pytest.mark.parametrize(("players", "nonces", "setup", "field"), [
    ({"p1": "\ud800", "p2": "bob"}, None, None, "players.p1"),
    (PLAYERS, {"p1": "\udfff"}, None, "seed_nonces.p1"),
    (PLAYERS, None, {"p1": {"character": "kira"}, "p2": {"character": "brom"}, "params": {"hand_size": 2**64}},
     "setup.params.hand_size"),
])
def test_a_battle_is_not_created_from_values_the_chain_cannot_encode(battles, players, nonces, setup, field):
    with pytest.raises(InvalidInput) as refused:
        battles.create("deckduel", players, setup, seed_nonces=nonces)
    assert refused.value.details["field"] == field
    assert stored(battles) == 0


def test_player_ids_and_nonces_have_limits(battles):
    with pytest.raises(InvalidInput, match="players.p1: a player id must be a non-empty string of at most 64"):
        battles.create("deckduel", {"p1": "a" * 65, "p2": "bob"})
    with pytest.raises(InvalidInput, match="at most 128 characters"):
        battles.create("deckduel", PLAYERS, seed_nonces={"p1": "n" * 129})
    assert stored(battles) == 0
    battles.create("deckduel", {"p1": "a" * 64, "p2": "bob"}, seed_nonces={"p1": "n" * 128})
    assert stored(battles) == 1


@pytest.mark.parametrize(("command", "field"), [
    ({"type": "\ud800"}, "command.type"),
    ({"type": "mulligan", "cards": ["\udc00"]}, "command.cards[0]"),
    ({"type": "mulligan", "cards": [], "n": 2**64}, "command.n"),
])
def test_a_command_the_chain_cannot_encode_is_refused_and_appends_nothing(battles, command, field):
    made = battles.create("deckduel", PLAYERS)
    with pytest.raises(InvalidInput) as refused:
        battles.submit(made.battle_id, "p1", command, idempotency_key="k")
    assert refused.value.details["field"] == field
    assert battles.load(made.battle_id).seq == made.seq


def test_a_set_is_not_created_from_a_lone_surrogate(battles):
    with pytest.raises(InvalidInput) as refused:
        Sets(battles).create("deckduel", {"p1": "alice", "p2": "\udc00"})
    assert refused.value.details["field"] == "players.p2"
    assert stored(battles) == 0


def test_seats_that_are_not_the_rulesets_are_named_as_players_not_as_setup(battles):
    with pytest.raises(InvalidInput, match="^players: deckduel needs exactly the seats p1, p2$"):
        battles.create("deckduel", {"p1": "alice", "p3": "bob"})
    with pytest.raises(SetupError, match="^setup: the setup must be a JSON object$"):
        battles.create("deckduel", PLAYERS, [1, 2])  # type: ignore[arg-type]
