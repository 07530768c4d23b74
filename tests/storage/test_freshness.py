"""The state cache follows the log (domain/freshness.py): a process decides commands and
answers reads from its cache without reading each battle's tail, and still never acts on a
state another process has moved on.

Two `Battles` on one store stand for two worker processes.
"""
from __future__ import annotations

import time
import uuid

import pytest
from eventsourcing.persistence import OperationalError

from domain.adapters.eventsourcing import file_pool
from domain.battles import Battles
from domain.committer import IDLE_SYNC_SECONDS
from domain.engine.errors import StaleState
from domain.freshness import LogFollower
from domain.store import StateCache
from tests.storage.helpers import PLAYERS

MULLIGAN = {"type": "mulligan", "cards": []}


@pytest.fixture
def pair(db_url):
    a, b = Battles(db_url), Battles(db_url)
    yield a, b
    a.close()
    b.close()


def assert_latest_is_the_log(url: str, battles: Battles, bid: str, seq: int) -> None:
    """`battles`' synced read of the battle is at `seq` and equals a fresh load from the store."""
    latest = battles.latest_later(bid).result(10)
    assert latest is not None and latest.seq == seq
    with Battles(url) as cold:
        assert latest == cold.load(bid)


def test_a_sole_writer_decides_from_its_cache_and_its_syncs_pass_nothing(sqlite_url):
    # Given one process creating battles and acting in them
    with Battles(sqlite_url) as battles:
        made = [battles.create("deckduel", PLAYERS, revealed=bytes([n]) * 32) for n in range(3)]
        for created in made:
            for seat in ("p1", "p2"):
                battles.submit(created.battle_id, seat, MULLIGAN)
        # then every sync of its writer found the log where its own writes left it
        assert battles.follower.syncs >= 1
        assert battles.follower.passed == 0
        assert battles.follower.head == battles.store.recorder.max_notification_id()


def test_on_a_sqlite_file_a_sync_reads_the_notifications_only_once_another_process_wrote(sqlite_url):
    # Given two processes on one SQLite file, A having written a battle of its own
    with Battles(sqlite_url) as a, Battles(sqlite_url) as b:
        a.create("deckduel", PLAYERS, revealed=b"\x0c" * 32)
        reads: list[int] = []
        select = a.store.recorder.select_notifications

        def counted(start, *args, **kwargs):
            reads.append(start)
            return select(start, *args, **kwargs)

        a.store.recorder.select_notifications = counted
        # when A syncs with nothing new in the log
        a.follower.sync()
        # then it read only the last id (Pool.last_id), which was its own head
        assert reads == [] and a.follower.last_id() == a.follower.head
        # and when B writes a battle, A's next sync reads the notifications past its head, once
        head = a.follower.head
        made = b.create("deckduel", PLAYERS, revealed=b"\x0d" * 32)
        a.follower.sync()
        assert reads == [head]
        assert a.follower.head == a.follower.last_id() == head + made.seq
        assert a.cache.get(made.battle_id).seq == made.seq


def test_a_command_after_another_process_moved_the_battle_on_is_decided_on_the_new_state(pair):
    a, b = pair
    # Given a battle that process A created and holds in its cache at the creation's seq
    created = a.create("deckduel", PLAYERS, revealed=b"\x07" * 32)
    bid = created.battle_id
    assert a.cache.get(bid).seq == created.seq
    # When process B acts in it
    moved = b.submit(bid, "p1", MULLIGAN)
    # Then A, acting for the other seat with the seq B left, is decided on B's state
    answer = a.submit(bid, "p2", MULLIGAN, expected_seq=moved.seq)
    assert answer.records[0].seq == moved.seq + 1
    assert a.follower.passed >= len(moved.records)
    # and A's latest state, as a synced read sees it, is the log's
    assert a.latest_later(bid).result(10).seq == answer.seq == b.load(bid).seq


def test_a_stale_expected_seq_is_still_refused_after_a_sync(pair):
    a, b = pair
    created = a.create("deckduel", PLAYERS, revealed=b"\x08" * 32)
    b.submit(created.battle_id, "p1", MULLIGAN)
    # The client saw only the creation: B's command makes that stale, in A too
    with pytest.raises(StaleState):
        a.submit(created.battle_id, "p2", MULLIGAN, expected_seq=created.seq)


def test_a_synced_read_sees_another_process_s_write_fast_forwarded(db_url, pair):
    a, b = pair
    created = a.create("deckduel", PLAYERS, revealed=b"\x09" * 32)
    moved = b.submit(created.battle_id, "p1", MULLIGAN)
    # A's cache held the creation; the read syncs first, which folds B's events into it
    assert_latest_is_the_log(db_url, a, created.battle_id, moved.seq)


def test_a_battle_not_in_the_cache_reads_as_none():
    with Battles("sqlite:///:memory:") as battles:
        assert battles.latest_later(str(uuid.uuid4())).result(10) is None


class FakeState:
    def __init__(self, seq: int):
        self.seq = seq


class FakeNote:
    def __init__(self, note_id: int, battle: uuid.UUID, version: int):
        self.id, self.originator_id, self.originator_version = note_id, battle, version


class FakeRecorder:
    def __init__(self) -> None:
        self.notes: list[FakeNote] = []

    def max_notification_id(self) -> int:
        return self.notes[-1].id if self.notes else 0

    def select_notifications(self, start, limit, inclusive_of_start=True):
        return [n for n in self.notes if n.id > (start or 0)][:limit]


class FakeStore:
    def __init__(self) -> None:
        self.recorder = FakeRecorder()


def test_a_state_read_before_a_sync_passed_another_writer_is_not_cached():
    store, cache = FakeStore(), StateCache(16)
    follower = LogFollower(store, cache)
    battle = uuid.uuid4()
    # Given a load that began while the follower was at generation 0
    began = follower.generation
    # When another writer appends to that battle and a sync passes it (nothing was cached)
    store.recorder.notes.append(FakeNote(1, battle, 5))
    follower.sync()
    # Then the loaded state (read before the append, at seq 4) is refused
    follower.cache(str(battle), FakeState(4), began)
    assert cache.get(str(battle)) is None
    # while one read after the sync is kept
    follower.cache(str(battle), FakeState(5), follower.generation)
    assert cache.get(str(battle)).seq == 5


def test_a_sync_drops_only_the_states_older_than_the_log():
    store, cache = FakeStore(), StateCache(16)
    follower = LogFollower(store, cache)
    moved, level = uuid.uuid4(), uuid.uuid4()
    cache.put(str(moved), FakeState(3))
    cache.put(str(level), FakeState(7))
    # Another writer appended seq 4 of one, and this process's own seq 7 of the other shows up
    store.recorder.notes += [FakeNote(1, moved, 4), FakeNote(2, level, 7)]
    follower.sync()
    assert cache.get(str(moved)) is None
    assert cache.get(str(level)).seq == 7
    assert follower.head == 2


def test_own_writes_that_follow_the_head_move_it_and_others_do_not():
    store, cache = FakeStore(), StateCache(16)
    follower = LogFollower(store, cache)
    follower.wrote([1, 2, 3])
    assert follower.head == 3
    follower.wrote([5, 6])          # 4 is someone else's: the next sync must read it
    assert follower.head == 3


def test_a_sync_fast_forwards_a_state_the_next_event_follows_and_drops_one_further_behind():
    store, cache = FakeStore(), StateCache(16)
    follower = LogFollower(store, cache, advance=lambda state, note: FakeState(note.originator_version))
    next_one, behind = uuid.uuid4(), uuid.uuid4()
    cache.put(str(next_one), FakeState(3))
    cache.put(str(behind), FakeState(3))
    # Another writer appended seqs 4 and 5 of the one, and seq 5 (not 4) shows for the other
    store.recorder.notes += [FakeNote(1, next_one, 4), FakeNote(2, next_one, 5), FakeNote(3, behind, 5)]
    follower.sync()
    assert cache.get(str(next_one)).seq == 5
    assert cache.get(str(behind)) is None


def test_a_battle_another_process_creates_is_cached_here_from_its_first_event(db_url, pair):
    a, b = pair
    a.create("deckduel", PLAYERS, revealed=b"\x0a" * 32)          # A's own, to start its log
    created = b.create("deckduel", PLAYERS, revealed=b"\x0b" * 32)
    moved = b.submit(created.battle_id, "p1", MULLIGAN)
    # A never loaded it: its synced read folds it from B's events, creation included
    assert_latest_is_the_log(db_url, a, created.battle_id, moved.seq)


def test_an_idle_writer_follows_what_other_processes_write(pair):
    a, b = pair
    # Given process A's writer, started and idle (a server's is started with the server)
    a.committer.start()
    head = a.follower.head
    # When process B creates battles, and A gets no command at all
    made = [b.create("deckduel", PLAYERS, revealed=bytes([n]) * 32) for n in range(3)]
    # Then A's idle syncs pass B's events (3 battles' opening batches) within moments, and
    # A holds each new battle at its latest seq, so its next command reads nothing more
    written = b.follower.head
    deadline = time.monotonic() + 10
    while a.follower.head < written and time.monotonic() < deadline:
        time.sleep(IDLE_SYNC_SECONDS / 4)
    assert a.follower.head == written
    assert a.follower.passed == written - head == sum(m.seq for m in made)
    assert [a.cache.get(m.battle_id).seq for m in made] == [m.seq for m in made]


def test_a_failed_read_of_the_last_id_is_the_store_s_error_and_the_next_read_reconnects(sqlite_url):
    # Given a SQLite store whose last-id connection has broken (closed under it)
    with Battles(sqlite_url) as battles:
        created = battles.create("deckduel", PLAYERS, revealed=b"\x0e" * 32)
        pool = file_pool(battles.store)
        assert battles.follower.last_id() == created.seq
        pool._probe.close()
        # when the follower syncs, then it fails as the library's reads fail: the store is away
        with pytest.raises(OperationalError):
            battles.follower.sync()
        # and the next sync opens a new connection and finds the log where it was
        battles.follower.sync()
        assert battles.follower.last_id() == battles.follower.head == created.seq
