"""Every use of eventsourcing (9.5.6) beyond its documented `Application` and recorder API.

The rest of the tree uses the library only through what it documents: `Application` (its
`env`, `recorder`, `mapper`, `events`, `snapshots`, `save` and `construct_*` methods), the
recorders' `insert_events`, `select_notifications` and `max_notification_id`, `Mapper`,
`StoredEvent`, `Notification` and the persistence errors. What Ringside needs beyond that is
here, so that an upgrade of the library is checked against this file and its test
(tests/adapters/test_eventsourcing.py), not against the whole tree:

- `record`: a write straight to the recorder, whose `insert_events` returns the new
  notification ids in the order the events were given (the docs say only that it "writes
  stored events"). The log follower (domain/freshness.py) moves its head on with those ids.
- `Pool` and `Factory`: the SQLite infrastructure factory's `datastore.pool`, replaced by a
  subclass of `SQLiteConnectionPool` built from the same settings (`db_name`,
  `lock_timeout`, `pool_size`, `max_overflow`, `pool_timeout`, `max_age`, `pre_ping`). Its
  `get_connection(timeout, is_writer=)` sets `PRAGMA wal_autocheckpoint` on each pooled
  `SQLiteConnection` through its private `_sqlite_conn`, so that a server can take
  checkpoints out of its commits (domain/sqlite_store.py).
- `file_pool`, `last_id_probe`: a recorder's `datastore.pool`, the pool's
  `is_sqlite_memory_mode` and the recorder's `events_table_name`, to read the log's last id
  in one statement.
- `LockedInsertRecorder`: a `PostgresApplicationRecorder` whose insert is one server-side
  function, built from the recorder's `sql_create_statements`, `events_table_name`,
  `channel_name` and its datastore's `schema`, `originator_id_type`, `lock_timeout` and
  `get_connection()`, and retried as the library's is (`eventsourcing.utils.retry`).
- `listening`: a connection of the PostgreSQL recorder's datastore, LISTENing on the
  recorder's `channel_name`, which every insert NOTIFYs (the projection runner's wake-up).
"""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.sqlite import SQLITE3_DEFAULT_LOCK_TIMEOUT, SQLiteConnection, SQLiteConnectionPool, SQLiteFactory
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier

AUTOCHECKPOINT_PAGES = 1000     # SQLite's default: a commit past this many log pages checkpoints


def record(store: Any, items: Sequence[Any]) -> Sequence[int] | None:
    """Save `items` in one transaction through the store's recorder; the notification ids of
    the new events, in the order given (IntegrityError on a conflict, and nothing saved).

    Not `Application.save`, which checks every item against the library's runtime protocols
    first (a quarter of the writer's time, for items that are always our own two record
    classes), nor the event store's `put`, which wraps each stored event in two more objects
    to hand back its notification id."""
    mapper = store.mapper
    ids: Sequence[int] | None = store.recorder.insert_events([mapper.to_stored_event(item) for item in items])
    return ids


class Pool(SQLiteConnectionPool):
    """The library's pool, whose connections checkpoint at commit or not, as `autocheckpoint`
    says (log pages; 0: never). A connection takes the setting when it is handed out, so one
    in use when it changes takes it at its next use.

    `last_id(table)` is the largest rowid a table has committed, read on a connection of its
    own in one statement: the log follower's check, before every command group, that no other
    process has written (domain/freshness.py). Through the library (a pooled connection,
    `BEGIN`, a select, `ROLLBACK`) the same check took a quarter of a millisecond of the
    writer's CPU, in three calls that each gave up the interpreter lock."""

    autocheckpoint = AUTOCHECKPOINT_PAGES

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._probe: sqlite3.Connection | None = None
        self._probe_lock = threading.Lock()

    def last_id(self, table: str) -> int:
        """As the library's reads do, a failure is its `OperationalError`: the store is away.
        The connection is dropped with it, to be opened again at the next call."""
        with self._probe_lock:
            try:
                if self._probe is None:
                    self._probe = self.connect_plain()
                found: int | None = self._probe.execute(f"SELECT MAX(rowid) FROM {table}").fetchone()[0]
            except sqlite3.Error as error:
                self._close_probe()
                raise OperationalError(error) from error
        return found or 0

    def connect_plain(self) -> sqlite3.Connection:
        """A connection of the pool's file outside the pool, in autocommit."""
        return sqlite3.connect(self.db_name, uri=True, isolation_level=None, check_same_thread=False,
                               timeout=self.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT)

    def _close_probe(self) -> None:
        if self._probe is not None:
            self._probe.close()
            self._probe = None

    def close(self) -> None:
        with self._probe_lock:
            self._close_probe()
        super().close()

    def get_connection(self, timeout: float | None = None, *, is_writer: bool | None = None) -> SQLiteConnection:
        conn = super().get_connection(timeout, is_writer=is_writer)
        wanted = self.autocheckpoint
        if getattr(conn, "autocheckpoint", AUTOCHECKPOINT_PAGES) != wanted:
            sqlite_connection(conn).execute(f"PRAGMA wal_autocheckpoint = {int(wanted)}")
            conn.autocheckpoint = wanted        # type: ignore[attr-defined]
        return conn


def sqlite_connection(conn: SQLiteConnection) -> sqlite3.Connection:
    """The `sqlite3` connection a pooled connection wraps."""
    raw: sqlite3.Connection = conn._sqlite_conn
    return raw


class Factory(SQLiteFactory):
    """The library's SQLite factory, with its pool replaced by a `Pool` of the same settings."""

    def __init__(self, env: Any):
        super().__init__(env)
        made = self.datastore.pool          # lazy: no connection is open yet
        self.datastore.pool = Pool(db_name=made.db_name, lock_timeout=made.lock_timeout, pool_size=made.pool_size,
                                   max_overflow=made.max_overflow, pool_timeout=made.pool_timeout,
                                   max_age=made.max_age, pre_ping=made.pre_ping)


def file_pool(store: Any) -> Pool | None:
    """The pool of an event store (`BattleStore`) on a SQLite file; None for other stores."""
    pool = getattr(getattr(store.recorder, "datastore", None), "pool", None)
    return pool if isinstance(pool, Pool) and not pool.is_sqlite_memory_mode else None


def last_id_probe(store: Any) -> Callable[[], int] | None:
    """A cheap read of an event store's last notification id on a SQLite file (`Pool.last_id`);
    None for other stores, which read their notifications."""
    pool = file_pool(store)
    if pool is None:
        return None
    table = store.recorder.events_table_name
    return lambda: pool.last_id(table)


class LockedInsertRecorder(PostgresApplicationRecorder):
    """The PostgreSQL event recorder: a batch of events is one statement, one round trip.

    The library's recorder inserts a batch in a transaction of its own: it locks the events
    table (so that notification ids commit in the order they are given, and every reader of
    the log sees them without gaps), notifies the table's channel, inserts, waits for the
    result, and commits. The lock is held across each of those round trips to the client, and
    a client that is slow to be scheduled (a busy worker) holds up every other writer meanwhile.

    This recorder does the same work in one server-side function, called as a single
    statement (its own transaction, prepared once per connection): the lock is taken, the
    events inserted and the channel notified on the server, and the lock is released at the
    commit that ends the statement, with no round trip in between. Reads, the schema and the
    notification log are the library's own."""

    def __init__(self, datastore: PostgresDatastore, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        function = Identifier(f"ringside_insert_{events_table_name}"[:63])
        schema, table = Identifier(datastore.schema), Identifier(self.events_table_name)
        self.sql_create_statements.append(SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}("
            "ids {id_type}[], versions bigint[], topics text[], states bytea[]) "
            "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ "
            "BEGIN "
            "  SET LOCAL lock_timeout = '{lock_timeout}s'; "
            "  LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
            "  NOTIFY {channel}; "
            "  RETURN QUERY INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
            "    SELECT * FROM unnest(ids, versions, topics, states) "
            "    RETURNING notification_id; "
            "END $BODY$"
        ).format(schema=schema, function=function, table=table, id_type=SQL(datastore.originator_id_type),
                 lock_timeout=datastore.lock_timeout, channel=Identifier(self.channel_name)))
        self.insert_call = SQL("SELECT * FROM {schema}.{function}("
                               "%s::{id_type}[], %s::bigint[], %s::text[], %s::bytea[]) AS id").format(
            schema=schema, function=function, id_type=SQL(datastore.originator_id_type))

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)      # as the library's
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """Insert the events in one statement; their notification ids, in the order given. A
        clash with a stored (originator id, version) raises the library's IntegrityError, and
        nothing of the batch is stored."""
        if not stored_events:
            return []
        columns = ([e.originator_id for e in stored_events], [e.originator_version for e in stored_events],
                   [e.topic for e in stored_events], [e.state for e in stored_events])
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self.insert_call, columns, prepare=True)
            return [row["id"] for row in curs.fetchall()]


@contextmanager
def listening(store: Any) -> Iterator[Any]:
    """A connection to a PostgreSQL event store that LISTENs on the channel its recorder
    NOTIFYs at every insert; read wake-ups with its `notifies()`."""
    recorder = store.recorder
    with recorder.datastore.get_connection() as conn:
        conn.execute(SQL("LISTEN {0}").format(Identifier(recorder.channel_name)))
        yield conn
