"""The SQLite event store as Ringside runs it: the library's, with checkpoints that a server can
take out of its commits, and a one-statement read of the log's last id (`Pool.last_id`).

In WAL mode every commit appends pages to the write-ahead log, and by default the commit that
takes the log past 1,000 pages also copies them back into the database file and syncs it
(an "autocheckpoint"): about 4 MB of writes and an extra fsync, inside one command group's
transaction, every few dozen groups. Every caller in that group, and in the group queued
behind it, waits for it: that was the service's slowest 1% of commands.

A server therefore runs a `Checkpointer`: its connections stop checkpointing at commit
(`wal_autocheckpoint = 0`), and a thread of its own copies the log back every
`CHECKPOINT_SECONDS`, on a connection of its own, with SQLite's PASSIVE checkpoint, which
never blocks the writer or the readers. Other processes on the same file (the CLI, the
projection runner) keep SQLite's default. When the server stops, its connections checkpoint
at commit again, and one last checkpoint runs.

`use_wal` is shared with the SQLite view store: switching a new file to WAL while another
connection does the same is refused at once, not after the busy timeout.
"""
from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

from eventsourcing.persistence import OperationalError
from eventsourcing.sqlite import SQLITE3_DEFAULT_LOCK_TIMEOUT, SQLiteConnection, SQLiteConnectionPool, SQLiteFactory

log = logging.getLogger(__name__)
AUTOCHECKPOINT_PAGES = 1000     # SQLite's default: a commit past this many log pages checkpoints
CHECKPOINT_SECONDS = 0.05
WAL_RETRY_SECONDS = 0.005


def use_wal(conn: sqlite3.Connection, busy_ms: int) -> None:
    """Put the file in WAL mode. On a new file that another connection is switching or
    creating at the same moment, SQLite refuses at once ("database is locked") rather than
    waiting for the busy timeout, to avoid a deadlock; so wait here, as long as that timeout."""
    deadline = time.monotonic() + busy_ms / 1000
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(WAL_RETRY_SECONDS)


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
                found = self._probe.execute(f"SELECT MAX(rowid) FROM {table}").fetchone()[0]
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
            conn._sqlite_conn.execute(f"PRAGMA wal_autocheckpoint = {int(wanted)}")
            conn.autocheckpoint = wanted        # type: ignore[attr-defined]
        return conn


class Factory(SQLiteFactory):
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


def checkpointer(store: Any) -> "Checkpointer | None":
    """A checkpointer for an event store (`BattleStore`) on a SQLite file; None for others."""
    pool = file_pool(store)
    return None if pool is None else Checkpointer(pool)


class Checkpointer:
    """Checkpoints a SQLite file's log in the background while it runs (see above)."""

    def __init__(self, pool: Pool, every: float = CHECKPOINT_SECONDS):
        self.pool = pool
        self.every = every
        self.checkpoints = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.pool.autocheckpoint = 0
        self._thread = threading.Thread(target=self._run, name="wal-checkpoints", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.pool.autocheckpoint = AUTOCHECKPOINT_PAGES
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def _run(self) -> None:
        conn = self.pool.connect_plain()
        try:
            while not self._stop.wait(self.every):
                self.checkpoint(conn)
            self.checkpoint(conn)
        finally:
            conn.close()

    def checkpoint(self, conn: sqlite3.Connection) -> None:
        """Copy what the log holds back into the file, as far as the readers allow."""
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            self.checkpoints += 1
        except sqlite3.Error:           # another process's checkpoint, or the file is away
            log.debug("checkpoint failed", exc_info=True)
