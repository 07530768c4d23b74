"""Seat tokens (only hashes stored) and the committed seed, on both stores (`db_url`)."""
from __future__ import annotations

import random
import uuid
from hashlib import blake2b

import orjson
import pytest

from domain.battles import Battles, token_hash
from domain.engine.battle import BattleCreated, BattleEnded, effective_seed
from tests.storage.helpers import PLAYERS, play_out, raw_bodies

REVEALED = bytes(range(100, 132))


@pytest.fixture
def battles(db_url):
    with Battles(db_url) as b:
        yield b


def test_seat_for_token_finds_each_seat_and_rejects_wrong_tokens(battles, db_url):
    created = battles.create("deckduel", PLAYERS)
    assert set(created.seat_tokens) == {"p1", "p2"}
    assert created.seat_tokens["p1"] != created.seat_tokens["p2"]
    for seat, token in created.seat_tokens.items():
        assert battles.seat_for_token(created.battle_id, token) == seat
    assert battles.seat_for_token(created.battle_id, "not-a-token") is None
    assert battles.seat_for_token(created.battle_id, "") is None
    assert battles.seat_for_token(created.battle_id, created.seat_tokens["p1"] + "x") is None
    assert battles.seat_for_token(created.battle_id, token_hash(created.seat_tokens["p1"])) is None
    other = battles.create("deckduel", PLAYERS)
    assert battles.seat_for_token(other.battle_id, created.seat_tokens["p1"]) is None
    with Battles(db_url) as cold:  # from the store, not from memory
        assert cold.seat_for_token(created.battle_id, created.seat_tokens["p2"]) == "p2"


def test_only_token_hashes_are_stored(db_url):
    with Battles(db_url, snapshot_every=10) as battles:
        created = battles.create("deckduel", PLAYERS)
        play_out(battles, created.battle_id, random.Random(2))
        check_no_raw_tokens(battles, created)


def check_no_raw_tokens(battles, created):
    first = battles.records(created.battle_id)[0].event
    assert isinstance(first, BattleCreated)
    assert first.seat_token_hashes == {s: token_hash(t) for s, t in created.seat_tokens.items()}
    assert first.seat_token_hashes["p1"] == blake2b(created.seat_tokens["p1"].encode(), digest_size=32).hexdigest()
    stored = b"".join(raw_bodies(battles, created.battle_id))
    for token in created.seat_tokens.values():
        assert token.encode() not in stored
    snapshots = list(battles.store.snapshots.get(uuid.UUID(created.battle_id)))
    assert snapshots
    snaps = b"".join(orjson.dumps(s.body) for s in snapshots)
    for token in created.seat_tokens.values():
        assert token.encode() not in snaps


def test_seed_commitment_is_blake2b_of_the_revealed_seed_and_ended_reveals_it(battles):
    created = battles.create("deckduel", PLAYERS, revealed=REVEALED)
    assert created.seed_commitment == blake2b(REVEALED, digest_size=32).hexdigest()
    play_out(battles, created.battle_id, random.Random(5))
    records = battles.records(created.battle_id)
    start, end = records[0].event, records[-1].event
    assert isinstance(start, BattleCreated) and isinstance(end, BattleEnded)
    assert start.seed == REVEALED.hex()
    assert end.seed == start.seed
    assert start.seed_commitment == created.seed_commitment
    assert blake2b(bytes.fromhex(end.seed), digest_size=32).hexdigest() == start.seed_commitment
    assert battles.load(created.battle_id).seed == effective_seed(REVEALED, {})


def test_random_revealed_seeds_differ_and_match_their_commitment(battles):
    one = battles.create("deckduel", PLAYERS)
    two = battles.create("deckduel", PLAYERS)
    assert one.seed_commitment != two.seed_commitment
    for created in (one, two):
        ev = battles.records(created.battle_id)[0].event
        assert blake2b(bytes.fromhex(ev.seed), digest_size=32).hexdigest() == created.seed_commitment
        assert len(bytes.fromhex(ev.seed)) == 32


def deck_orders(battles: Battles, battle_id: str) -> dict[str, tuple[str, ...]]:
    return {r.event.seat: r.event.order for r in battles.records(battle_id)
            if r.event.TOPIC == "deckduel.DeckPrepared"}


def test_nonces_change_the_effective_seed_and_so_the_deck_order(battles):
    a = battles.create("deckduel", PLAYERS, revealed=REVEALED, seed_nonces={"p1": "aa", "p2": "bb"})
    a2 = battles.create("deckduel", PLAYERS, revealed=REVEALED, seed_nonces={"p2": "bb", "p1": "aa"})
    b = battles.create("deckduel", PLAYERS, revealed=REVEALED, seed_nonces={"p1": "aa", "p2": "bc"})
    c = battles.create("deckduel", PLAYERS, revealed=REVEALED)
    # the commitment covers only the revealed bytes
    assert a.seed_commitment == b.seed_commitment == c.seed_commitment
    oa, oa2, ob, oc = (deck_orders(battles, x.battle_id) for x in (a, a2, b, c))
    assert oa == oa2, "same revealed seed and nonces must give the same shuffle"
    assert oa["p1"] != ob["p1"] and oa["p2"] != ob["p2"]
    assert oa != oc and ob != oc
    state = battles.load(a.battle_id)
    assert state.created.seed_nonces == {"p1": "aa", "p2": "bb"}
    expected = blake2b(REVEALED + b'{"p1":"aa","p2":"bb"}', digest_size=32).digest()
    assert state.seed == expected
    assert battles.load(c.battle_id).seed == blake2b(REVEALED + b"{}", digest_size=32).digest()
