"""The PostgreSQL recorder inserts a batch in one statement: in the order given, all or nothing,
and in the notification log's commit order, so a reader following the log never skips an id."""
from __future__ import annotations

import threading
import uuid

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent

from domain.adapters.eventsourcing import LockedInsertRecorder
from domain.store import BattleStore, store_env


@pytest.fixture
def store(postgres_url):
    with BattleStore(env=store_env(postgres_url)) as opened:
        yield opened


def events(originator: uuid.UUID, first: int, count: int) -> list[StoredEvent]:
    return [StoredEvent(originator, v, f"t.E{v}", f'{{"v":{v}}}'.encode()) for v in range(first, first + count)]


def test_a_postgresql_store_inserts_through_the_locked_insert_recorder(store):
    assert isinstance(store.recorder, LockedInsertRecorder)


def test_a_batch_gets_consecutive_ids_in_the_order_given(store):
    # Given two battles' events in one batch
    a, b = uuid.uuid4(), uuid.uuid4()
    batch = events(a, 1, 3) + events(b, 1, 2)
    # When they are inserted
    ids = store.recorder.insert_events(batch)
    # Then ids follow one another in the batch's order, and the log holds them so
    assert ids == list(range(ids[0], ids[0] + 5))
    logged = store.recorder.select_notifications(ids[0], 5)
    assert [(n.id, n.originator_id, n.originator_version, n.topic, n.state) for n in logged] == [
        (i, e.originator_id, e.originator_version, e.topic, e.state) for i, e in zip(ids, batch)]


def test_a_batch_that_clashes_with_a_stored_version_stores_nothing(store):
    # Given a battle with versions 1..2 stored
    a, b = uuid.uuid4(), uuid.uuid4()
    store.recorder.insert_events(events(a, 1, 2))
    head = store.recorder.max_notification_id()
    # When a batch holds a new battle's events and a clashing version 2 of the first
    with pytest.raises(IntegrityError):
        store.recorder.insert_events(events(b, 1, 2) + events(a, 2, 1))
    # Then none of it is stored
    assert store.recorder.select_events(b) == []
    assert store.recorder.max_notification_id() == head


def test_a_reader_following_the_log_while_writers_race_never_skips_an_id(store):
    # Given 6 writers inserting batches at once, and a reader following the log meanwhile
    writers, batches, per_batch = 6, 40, 3
    written: list[int] = []
    done = threading.Event()
    seen: list[int] = []

    def write() -> None:
        originator = uuid.uuid4()
        for n in range(batches):
            written.extend(store.recorder.insert_events(events(originator, 1 + n * per_batch, per_batch)) or [])

    def follow() -> None:
        last = store.recorder.max_notification_id() or 0
        while True:
            finished = done.is_set()
            page = store.recorder.select_notifications(last, 100, inclusive_of_start=False)
            seen.extend(n.id for n in page)
            last = page[-1].id if page else last
            if finished and not page:
                return

    reader = threading.Thread(target=follow)
    reader.start()
    threads = [threading.Thread(target=write) for _ in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    reader.join()
    # Then the reader saw every id, once each, in order: no id committed behind one it had passed
    assert len(written) == writers * batches * per_batch
    assert seen == sorted(written)
