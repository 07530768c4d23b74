"""The service's heartbeat: the last time (ms since the epoch) some worker was up and could take commands.

Every worker writes it about once a second into a one-row table of its own beside the event
store's tables, in the same database (a SQLite file, or PostgreSQL), so it outlives every
process. A worker that starts and finds it older than `OUTAGE_BEATS` beats knows that no
server could take a command from then until now: the clock keeper (domain/timers.py) credits
that outage to every running clock before it decides any timeout. A fresh store has no
heartbeat, and so no outage.

The value only moves forward (the greatest of the beats), so a worker whose clock runs a little
behind another's never makes the service look older than it is.
"""
from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Protocol

from domain.store import pg_connect, schema_lock

log = logging.getLogger("ringside.heartbeat")
HEARTBEAT_SECONDS = 1.0
OUTAGE_BEATS = 3            # a heartbeat this many beats old: every worker was down meanwhile
OUTAGE_MS = int(OUTAGE_BEATS * HEARTBEAT_SECONDS * 1000)
TABLE = "ringside_heartbeat"


class HeartbeatStore(Protocol):
    def last(self) -> int | None:
        """The latest beat, or None if no worker ever beat in this store."""
        ...

    def beat(self, at_ms: int) -> None: ...

    def close(self) -> None: ...


def heartbeat_store(env: Mapping[str, str], write_lock: AbstractContextManager[Any] | None = None) -> HeartbeatStore:
    """The heartbeat of the store `env` describes (domain/store.py `store_env`). On SQLite a
    beat takes `write_lock` (the writer's), so it never waits in SQLite's busy handler behind
    this process's own commits."""
    if "SQLITE_DBNAME" in env:
        return SqliteHeartbeat(env["SQLITE_DBNAME"], write_lock or nullcontext())
    return PostgresHeartbeat(env)


class SqliteHeartbeat:
    """The heartbeat row in the store's SQLite file (or its shared in-memory database)."""

    def __init__(self, path: str, write_lock: AbstractContextManager[Any]):
        self._path = path
        self._write_lock = write_lock
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(self._path, uri=self._path.startswith("file:"), isolation_level=None,
                                   check_same_thread=False, timeout=5)
            # The store's own connections checkpoint the log (domain/sqlite_store.py): a beat never does.
            conn.execute("PRAGMA wal_autocheckpoint = 0")
            with self._write_lock:
                conn.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} "
                             "(id INTEGER PRIMARY KEY CHECK (id = 1), at_ms INTEGER NOT NULL)")
            self._conn = conn
        return self._conn

    def last(self) -> int | None:
        with self._lock:
            row = self._connection().execute(f"SELECT at_ms FROM {TABLE} WHERE id = 1").fetchone()
        return None if row is None else int(row[0])

    def beat(self, at_ms: int) -> None:
        with self._lock, self._write_lock:
            self._connection().execute(f"INSERT INTO {TABLE} (id, at_ms) VALUES (1, ?) "
                                       "ON CONFLICT (id) DO UPDATE SET at_ms = max(at_ms, excluded.at_ms)", (at_ms,))

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


class PostgresHeartbeat:
    """The heartbeat row in the store's PostgreSQL schema, on a connection of its own."""

    def __init__(self, env: Mapping[str, str]):
        from psycopg.sql import SQL, Identifier

        self._env = dict(env)
        schema = env.get("POSTGRES_SCHEMA")
        table = Identifier(schema, TABLE) if schema else Identifier(TABLE)
        self._create = SQL("CREATE TABLE IF NOT EXISTS {} (id integer PRIMARY KEY CHECK (id = 1), "
                           "at_ms bigint NOT NULL)").format(table)
        self._select = SQL("SELECT at_ms FROM {} WHERE id = 1").format(table)
        self._upsert = SQL("INSERT INTO {t} AS h (id, at_ms) VALUES (1, %s) ON CONFLICT (id) "
                           "DO UPDATE SET at_ms = GREATEST(h.at_ms, EXCLUDED.at_ms) RETURNING h.at_ms").format(t=table)
        self._conn: Any = None
        self._lock = threading.Lock()

    def _connection(self) -> Any:
        if self._conn is None or self._conn.closed:
            env = self._env
            conn = pg_connect(env)
            with schema_lock(env):      # workers starting together create it one at a time
                conn.execute(self._create)
            self._conn = conn
        return self._conn

    def _run(self, statement: Any, params: tuple[Any, ...] = ()) -> Any:
        """The row one statement returns; a broken connection is dropped, to be opened again next time."""
        import psycopg

        with self._lock:
            try:
                return self._connection().execute(statement, params).fetchone()
            except psycopg.OperationalError:
                self._drop()
                raise

    def last(self) -> int | None:
        row = self._run(self._select)
        return None if row is None else int(row[0])

    def beat(self, at_ms: int) -> None:
        self._run(self._upsert, (at_ms,))

    def _drop(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def close(self) -> None:
        with self._lock:
            self._drop()


class Heartbeat:
    """Beats every `every` seconds at `now_ms()` until closed, and once more as it closes."""

    def __init__(self, store: HeartbeatStore, now_ms: Callable[[], int], every: float = HEARTBEAT_SECONDS):
        self.store = store
        self.now_ms = now_ms
        self.every = every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.beat()
        self._thread = threading.Thread(target=self._run, name="heartbeat", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None
            self.beat()
        self.store.close()

    def beat(self) -> None:
        try:
            self.store.beat(self.now_ms())
        except Exception:   # the store is away: the next beat tries again
            log.warning("heartbeat: a beat failed", exc_info=True)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.beat()
