"""A full battle played through `Battles.submit`, then rebuilt cold, seeked and snapshotted.

Every test runs on SQLite and PostgreSQL (`db_url`).
"""
from __future__ import annotations

import random
import uuid

import pytest

from domain.battles import Battles
from domain.engine.battle import BattleCreated, BattleEnded
from domain.engine.errors import SeqOutOfRange
from tests.storage.helpers import PLAYERS, fold_records, play_out

SNAP = 10


@pytest.fixture
def played(db_url):
    """(url, battle id, live state, every Submitted, create seq) for one finished battle."""
    with Battles(db_url, snapshot_every=SNAP) as live:
        created = live.create("deckduel", PLAYERS, revealed=bytes(range(32)))
        submitted = play_out(live, created.battle_id, random.Random(7))
        state = live.load(created.battle_id)
    return db_url, created.battle_id, state, submitted, created.seq


def test_battle_plays_to_the_end_and_a_cold_instance_loads_the_same_state(played):
    url, bid, live_state, submitted, _ = played
    assert live_state.outcome is not None
    assert submitted[-1].seq == live_state.seq
    assert isinstance(submitted[-1].records[-1].event, BattleEnded)
    with Battles(url, snapshot_every=SNAP) as cold:
        assert cold.cache.get(bid) is None
        assert cold.load(bid) == live_state
        records = cold.records(bid)
    assert [r.seq for r in records] == list(range(1, live_state.seq + 1))
    assert isinstance(records[0].event, BattleCreated)
    assert fold_records(records) == live_state
    assert records[-1].chain == live_state.chain


def test_stored_records_are_exactly_the_submitted_batches(played):
    url, bid, _, submitted, create_seq = played
    with Battles(url) as cold:
        records = cold.records(bid)
    by_seq = {r.seq: r for r in records}
    expected_next = create_seq + 1
    for result in submitted:
        seqs = [r.seq for r in result.records]
        assert seqs == list(range(expected_next, expected_next + len(seqs)))
        assert result.seq == seqs[-1]
        for rec in result.records:
            assert by_seq[rec.seq] == rec
        expected_next = seqs[-1] + 1
    assert expected_next - 1 == records[-1].seq


def test_every_batch_is_contiguous_and_starts_with_an_action_event(played):
    _, _, _, submitted, _ = played
    assert submitted
    for result in submitted:
        seqs = [r.seq for r in result.records]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        assert result.records[0].event.starts_batch(), result.records[0].event.TOPIC
        assert not any(r.event.starts_batch() for r in result.records[1:]
                       if r.event.TOPIC != "engine.ChoiceLocked")


@pytest.mark.parametrize("cold", [False, True])
def test_load_at_n_equals_folding_the_first_n_records(played, cold):
    url, bid, live_state, _, _ = played
    with Battles(url, snapshot_every=SNAP) as battles:
        if not cold:
            battles.load(bid)  # warm cache at the head: load(at=N) must not use it
        records = battles.records(bid)
        last = live_state.seq
        points = sorted({1, 2, 6, 7, 9, 10, 11, 19, 20, 21, last // 2, last - 1, last,
                         *random.Random(3).sample(range(1, last + 1), 10)})
        for n in points:
            state = battles.load(bid, at=n)
            assert state.seq == n
            assert state == fold_records(records[:n]), f"load(at={n}) differs from a fold"
        assert battles.load(bid) == live_state


def test_snapshots_are_taken_when_a_batch_crosses_each_multiple_of_k(played):
    url, bid, live_state, submitted, create_seq = played
    expected, previous = [], create_seq
    for result in submitted:
        if result.seq // SNAP > previous // SNAP:
            expected.append(result.seq)
        previous = result.seq
    with Battles(url, snapshot_every=SNAP) as cold:
        snaps = list(cold.store.snapshots.get(uuid.UUID(bid)))
    assert snaps, "no snapshot was taken"
    assert [s.originator_version for s in snaps] == expected
    assert len(expected) >= live_state.seq // SNAP - 3


def test_state_from_each_snapshot_equals_a_full_fold(played):
    url, bid, _, _, _ = played
    with Battles(url, snapshot_every=SNAP) as cold:
        records = cold.records(bid)
        versions = [s.originator_version for s in cold.store.snapshots.get(uuid.UUID(bid))]
        assert versions
        for v in versions:
            from_snapshot = cold.loader._from_snapshot(uuid.UUID(bid), v)
            assert from_snapshot is not None and from_snapshot.seq == v
            assert from_snapshot == fold_records(records[:v])
            if v < len(records):  # between snapshots: the snapshot before plus the tail
                assert cold.load(bid, at=v + 1) == fold_records(records[:v + 1])


def test_load_outside_the_battle_raises_seq_out_of_range(played):
    url, bid, live_state, _, _ = played
    with Battles(url, snapshot_every=SNAP) as battles:
        for bad in (0, -1, live_state.seq + 1, live_state.seq + 100):
            with pytest.raises(SeqOutOfRange):
                battles.load(bid, at=bad)
        assert battles.load(bid, at=live_state.seq) == live_state


def test_cold_load_uses_the_latest_snapshot_and_equals_a_full_fold(played, monkeypatch):
    url, bid, live_state, _, _ = played
    with Battles(url, snapshot_every=SNAP) as cold:
        seen = []
        real = cold.loader._from_snapshot

        def spy(b, at):
            state = real(b, at)
            seen.append(state.seq if state else None)
            return state

        monkeypatch.setattr(cold.loader, "_from_snapshot", spy)
        assert cold.load(bid) == fold_records(cold.records(bid)) == live_state
        latest = list(cold.store.snapshots.get(uuid.UUID(bid), desc=True, limit=1))[0]
        assert seen == [latest.originator_version]


def test_no_snapshots_with_snapshot_every_zero_and_rebuild_still_equals_fold(db_url):
    with Battles(db_url, snapshot_every=0) as plain:
        created = plain.create("deckduel", PLAYERS, revealed=bytes(range(32)))
        play_out(plain, created.battle_id, random.Random(7))
        live_state = plain.load(created.battle_id)
        assert list(plain.store.snapshots.get(uuid.UUID(created.battle_id))) == []
    with Battles(db_url, snapshot_every=0) as cold:
        assert cold.load(created.battle_id) == fold_records(cold.records(created.battle_id)) == live_state


def test_same_seed_and_commands_give_the_same_history_with_and_without_snapshots(db_url, played):
    """A battle replayed command by command in a snapshot_every=0 store ends in the same game state."""
    url, bid, live_state, _, create_seq = played
    with Battles(url) as source:
        records = source.records(bid)
    with Battles(db_url, snapshot_every=0) as plain:
        other = plain.create("deckduel", PLAYERS, revealed=bytes(range(32)))
        for rec in records:
            if rec.seq > create_seq and rec.event.starts_batch():
                plain.submit(other.battle_id, rec.event.seat, rec.event.command_wire())
        mine = plain.load(other.battle_id)
    assert mine.seq == live_state.seq
    assert mine.game == live_state.game
    assert mine.outcome == live_state.outcome
