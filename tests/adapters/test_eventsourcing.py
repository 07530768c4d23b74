"""The eventsourcing internals domain/adapters/eventsourcing.py relies on, checked on real stores.

Each check names the internal it covers: when an upgrade of the library changes one, the
failure says which, and the adapter is the one place to change.
"""
from __future__ import annotations

import inspect
import sqlite3
import uuid
from collections.abc import Iterator

import pytest
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteConnection, SQLiteConnectionPool
from eventsourcing.utils import retry

from domain.adapters.eventsourcing import (LockedInsertRecorder, Pool, file_pool, last_id_probe, listening, record,
                                           sqlite_connection)
from domain.store import SNAPSHOT_TOPIC, BattleStore, StoredBlob, store_env

POOL_SETTINGS = ("db_name", "lock_timeout", "pool_size", "max_overflow", "pool_timeout", "max_age", "pre_ping")


def changed(internal: str, how: str) -> str:
    return f"eventsourcing internal changed: {internal} {how}; update domain/adapters/eventsourcing.py"


@pytest.fixture
def sqlite_store(sqlite_url: str) -> Iterator[BattleStore]:
    store = BattleStore(env=store_env(sqlite_url))
    yield store
    store.close()


def blobs(count: int) -> list[StoredBlob]:
    return [StoredBlob(uuid.uuid4(), 1, SNAPSHOT_TOPIC, {"n": n}) for n in range(count)]


def test_insert_events_returns_the_notification_ids_in_the_order_given(sqlite_store: BattleStore) -> None:
    first = record(sqlite_store, blobs(2))
    then = record(sqlite_store, blobs(3))
    logged = [n.id for n in sqlite_store.recorder.select_notifications(None, 10)]
    assert first is not None and then is not None, changed("ApplicationRecorder.insert_events", "returns no ids")
    assert [*first, *then] == logged == list(range(1, 6)), \
        changed("ApplicationRecorder.insert_events", f"returned {first}, {then} for notifications {logged}")


def test_the_sqlite_factory_pool_is_replaced_with_the_same_settings(sqlite_store: BattleStore) -> None:
    pool = file_pool(sqlite_store)
    assert isinstance(pool, Pool), changed("SQLiteApplicationRecorder.datastore.pool", "is not the factory's pool")
    accepted = inspect.signature(SQLiteConnectionPool.__init__).parameters
    for name in POOL_SETTINGS:
        assert name in accepted, changed(f"SQLiteConnectionPool({name}=...)", "is no longer accepted")
        assert hasattr(pool, name), changed(f"SQLiteConnectionPool.{name}", "is no longer kept")
    assert pool.db_name == sqlite_store.env["SQLITE_DBNAME"], changed("SQLiteConnectionPool.db_name", "moved")
    assert pool.is_sqlite_memory_mode is False, changed("SQLiteConnectionPool.is_sqlite_memory_mode", "is wrong")
    memory = BattleStore(env=store_env("sqlite:///:memory:"))
    try:
        assert file_pool(memory) is None, changed("SQLiteConnectionPool.is_sqlite_memory_mode", "misses memory")
    finally:
        memory.close()


def test_pooled_connections_take_the_autocheckpoint_setting(sqlite_store: BattleStore) -> None:
    pool = file_pool(sqlite_store)
    assert pool is not None
    parameters = inspect.signature(SQLiteConnectionPool.get_connection).parameters
    assert list(parameters)[:2] == ["self", "timeout"] and "is_writer" in parameters, \
        changed("SQLiteConnectionPool.get_connection", f"takes {list(parameters)}")
    pool.autocheckpoint = 0
    conn = pool.get_connection()
    try:
        assert isinstance(conn, SQLiteConnection)
        raw = sqlite_connection(conn)
        assert isinstance(raw, sqlite3.Connection), changed("SQLiteConnection._sqlite_conn", "is not sqlite3's")
        assert raw.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0, \
            changed("SQLiteConnectionPool.get_connection", "no longer hands out the pooled connection")
    finally:
        pool.put_connection(conn)


def test_the_last_id_probe_reads_the_recorders_events_table(sqlite_store: BattleStore) -> None:
    recorder = sqlite_store.recorder
    assert isinstance(recorder, SQLiteApplicationRecorder), changed("SQLiteFactory", "makes another recorder")
    table = recorder.events_table_name
    with sqlite3.connect(sqlite_store.env["SQLITE_DBNAME"]) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert table in tables, changed("SQLiteApplicationRecorder.events_table_name", f"{table!r} is not in {tables}")
    probe = last_id_probe(sqlite_store)
    assert probe is not None and probe() == 0
    record(sqlite_store, blobs(4))
    assert probe() == sqlite_store.recorder.max_notification_id() == 4


def test_the_postgres_recorder_parts_it_builds_on_are_there() -> None:
    init = inspect.signature(PostgresApplicationRecorder.__init__).parameters
    assert list(init)[:3] == ["self", "datastore", "events_table_name"], \
        changed("PostgresApplicationRecorder.__init__", f"takes {list(init)}")
    assert list(inspect.signature(retry).parameters)[:3] == ["exc", "max_attempts", "wait"], \
        changed("eventsourcing.utils.retry", "takes other arguments")


@pytest.mark.postgres
def test_the_postgres_recorder_inserts_and_notifies(postgres_url: str) -> None:
    store = BattleStore(env=store_env(postgres_url))
    try:
        recorder = store.recorder
        assert isinstance(recorder, LockedInsertRecorder)
        datastore = recorder.datastore
        for name in ("schema", "originator_id_type", "lock_timeout"):
            assert hasattr(datastore, name), changed(f"PostgresDatastore.{name}", "is gone")
        assert isinstance(recorder.sql_create_statements, list), \
            changed("PostgresApplicationRecorder.sql_create_statements", "is not a list")
        assert recorder.channel_name == recorder.events_table_name.replace(".", "_"), \
            changed("PostgresApplicationRecorder.channel_name", f"is {recorder.channel_name!r}")
        with listening(store) as conn:
            ids = record(store, blobs(2))
            woken = list(conn.notifies(timeout=5, stop_after=1))
        assert ids == [n.id for n in recorder.select_notifications(None, 10)] and len(ids) == 2
        assert [n.channel for n in woken] == [recorder.channel_name], \
            changed("PostgresApplicationRecorder.channel_name", "is not the channel inserts NOTIFY")
    finally:
        store.close()
