"""Competitive sets: live sets advance as battles end, simulated sets are stored whole, and a
set's log is hash-chained and keeps its setup's secrets."""
from __future__ import annotations

import random

import pytest

from domain.battles import Battles
from domain.engine.battle import BattleCreated
from domain.engine.chain import GENESIS, chain_of
from domain.engine.errors import InvalidInput, SetupError
from domain.engine.events import SPECTATOR, event_data, wire_event
from domain.sets import SetBattleFinished, SetBattleStarted, SetCreated, SetEnded, Sets, UnknownSet
from domain.ai import get_policy
from tests.cli.helpers import run_json
from tests.storage.helpers import play_out

PLAYERS = {"p1": "alice", "p2": "bob"}


@pytest.fixture
def sets(sqlite_url):
    with Battles(sqlite_url) as battles:
        yield Sets(battles)


def play_set(sets: Sets, set_id: str, rng: random.Random) -> dict:
    """Play every battle of a live set with random legal commands until the set ends."""
    for _ in range(10):
        found = sets.get(set_id)
        if found["finished"]:
            return found
        play_out(sets.battles, found["current_battle"], rng)
    raise AssertionError("the set did not end")


def test_a_live_set_moves_on_when_each_battle_ends(sets):
    made = sets.create("deckduel", PLAYERS, games=3, mode="all")
    assert sets.set_of(made.battle_id) == made.set_id
    first = sets.battles.load(made.battle_id)
    assert sets.battles.seat_for_token(made.battle_id, made.seat_tokens["p2"]) == "p2"
    done = play_set(sets, made.set_id, random.Random(4))
    assert [b["index"] for b in done["battles"]] == [0, 1, 2]
    assert done["battles"][0]["battle_id"] == made.battle_id
    winners = [sets.battles.load(b["battle_id"]).outcome.winner for b in done["battles"]]
    assert [b["winner"] for b in done["battles"]] == winners
    assert done["score"] == {seat: winners.count(seat) for seat in PLAYERS}
    expected = max(done["score"], key=done["score"].get) if len(set(done["score"].values())) == 2 else None
    assert done["winner"] == expected and done["finished"] and done["current_battle"] is None
    for b in done["battles"]:
        assert b["head"] == sets.battles.load(b["battle_id"]).chain
        assert sets.set_of(b["battle_id"]) == made.set_id
        # Every battle of the set takes the set's seat tokens.
        assert sets.battles.seat_for_token(b["battle_id"], made.seat_tokens["p1"]) == "p1"
    assert first.created.seed_commitment == made.seed_commitment


def test_best_of_stops_at_a_majority(sets):
    made = sets.create("deckduel", PLAYERS, games=3, mode="best_of")
    done = play_set(sets, made.set_id, random.Random(11))
    decided = [b["winner"] for b in done["battles"]]
    assert max(done["score"].values()) >= 2 or len(decided) == 3
    if len(decided) == 2:
        assert decided[0] == decided[1] == done["winner"]
    assert len(decided) <= 3


def test_the_set_log_is_hash_chained_and_ordered(sets):
    made = sets.create("deckduel", PLAYERS, games=1)
    play_set(sets, made.set_id, random.Random(2))
    records = sets.records(made.set_id)
    assert [type(r.event) for r in records] == [SetCreated, SetBattleStarted, SetBattleFinished, SetEnded]
    chain = GENESIS
    for rec in records:
        chain = chain_of(chain, rec.seq, rec.event.TOPIC, event_data(rec.event))
        assert rec.chain == chain
    assert sets.get(made.set_id)["head"] == chain
    # In the notification log, the set's SetBattleStarted comes just before the battle's BattleCreated.
    notes = sets.battles.store.recorder.select_notifications(None, 50, inclusive_of_start=True)
    topics = [n.topic for n in notes]
    at = topics.index(SetBattleStarted.TOPIC)
    assert topics[at + 1] == BattleCreated.TOPIC


def test_the_set_setup_and_tokens_are_server_only(sets):
    made = sets.create("deckduel", PLAYERS, games=1)
    created = sets.records(made.set_id)[0]
    shown = wire_event(created, SPECTATOR, False)
    assert shown["data"]["setup"] is None and shown["data"]["seat_token_hashes"] is None
    assert shown["chain"] is None
    assert shown["data"]["public_setup"] == created.event.setup    # deckduel seals nothing


def test_a_simulated_set_is_stored_with_its_battles(sets):
    bots = {seat: get_policy("random", "deckduel") for seat in PLAYERS}
    state = sets.simulate("deckduel", bots, games=3, mode="all", seed="s", players=PLAYERS)
    found = sets.get(state.set_id)
    assert found["finished"] and len(found["battles"]) == 3
    for b in found["battles"]:
        battle = sets.battles.load(b["battle_id"])
        assert battle.outcome is not None and b["head"] == battle.chain
        assert battle.created.players == PLAYERS
    again = Sets(sets.battles).simulate("deckduel", bots, games=3, mode="all", seed="s", players=PLAYERS)
    assert [sets.battles.load(b.battle_id).chain for b in again.battles] != [b["head"] for b in found["battles"]]
    assert [b.winner for b in again.battles] == [b["winner"] for b in found["battles"]]


@pytest.mark.parametrize("kwargs, field", [({"games": 0}, "games"), ({"games": 100}, "games"),
                                           ({"mode": "first_to"}, "mode")])
def test_bad_set_options_name_the_field(sets, kwargs, field):
    with pytest.raises(SetupError) as err:
        sets.create("deckduel", PLAYERS, **kwargs)
    assert err.value.field == field


def test_bad_players_and_unknown_sets_are_refused(sets):
    with pytest.raises(InvalidInput, match="^players: deckduel needs exactly the seats p1, p2$"):
        sets.create("deckduel", {"p1": "alice"})
    with pytest.raises(UnknownSet):
        sets.get("00000000-0000-4000-8000-000000000000")
    with pytest.raises(UnknownSet):
        sets.get("not-a-uuid")
    assert sets.set_of("00000000-0000-4000-8000-000000000000") is None


def test_cli_simulates_a_set(tmp_path):
    db = f"sqlite:///{tmp_path / 'sets.db'}"
    out = run_json("simulate", "--ruleset", "deckduel", "--set", "3", "--mode", "all", "--seed", "9",
                   "--db", db, "--json", cwd=tmp_path)
    assert out["battles"] == 3 and len(out["set_ids"]) == 1
    with Battles(db) as battles:
        found = Sets(battles).get(out["set_ids"][0])
    assert [b["battle_id"] for b in found["battles"]] == out["battle_ids"]
    assert found["finished"]
