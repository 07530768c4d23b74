"""Views in a SQLite file beside the event store: the embedded default of a served SQLite store.

The projection runner is then a process of its own (`api/runner_process.py`), so the
service's commands and the projections never queue for one interpreter lock, and every
process reads the same views. The views can always be rebuilt from the log, so commits are
not flushed to disk one by one (WAL, `synchronous=NORMAL`): a crash keeps them consistent with
their tracking positions, and at worst loses the last few, which the runner then re-applies.

Writes go through one connection. `batch()` makes everything written inside it one
transaction: the runner applies a page of events and their positions in one commit, and a
failure anywhere in the page rolls all of it back. Inside a batch its own thread reads what
it has written so far; other threads and processes read the last commit (one connection per
thread).
"""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import orjson

from .store import Op, ViewStore

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS view_values (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS view_lists (key TEXT NOT NULL, idx INTEGER NOT NULL, value BLOB NOT NULL,"
    " PRIMARY KEY (key, idx)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS view_hashes (key TEXT NOT NULL, field TEXT NOT NULL, value BLOB NOT NULL,"
    " PRIMARY KEY (key, field)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS view_rankings (key TEXT NOT NULL, member TEXT NOT NULL, score REAL NOT NULL,"
    " PRIMARY KEY (key, member)) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS view_rankings_by_score ON view_rankings (key, score DESC, member)",
    "CREATE TABLE IF NOT EXISTS view_positions (view TEXT PRIMARY KEY, position INTEGER NOT NULL) WITHOUT ROWID",
)
KEYED_TABLES = ("view_values", "view_lists", "view_hashes", "view_rankings")
WRITES = {
    "set": "INSERT OR REPLACE INTO view_values (key, value) VALUES (?1, ?2)",
    "rpush": "INSERT INTO view_lists (key, idx, value) VALUES "
             "(?1, (SELECT COALESCE(MAX(idx) + 1, 0) FROM view_lists WHERE key = ?1), ?2)",
    "lset_last": "UPDATE view_lists SET value = ?2 WHERE key = ?1 AND "
                 "idx = (SELECT MAX(idx) FROM view_lists WHERE key = ?1)",
    "hset": "INSERT OR REPLACE INTO view_hashes (key, field, value) VALUES (?1, ?2, ?3)",
    "hdel": "DELETE FROM view_hashes WHERE key = ?1 AND field = ?2",
    "zadd": "INSERT OR REPLACE INTO view_rankings (key, member, score) VALUES (?1, ?2, ?3)",
    "zrem": "DELETE FROM view_rankings WHERE key = ?1 AND member = ?2",
}
BUSY_MS = 30_000        # another runner's page may hold the write lock this long


class SqliteViewStore(ViewStore):
    transactional = True

    def __init__(self, path: str, prefix: str = "ringside"):
        super().__init__(prefix)
        self.path = path
        self._lock = threading.RLock()        # the writer, and whose batch is open
        self._opened = threading.Lock()
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._batch_thread: int | None = None
        self._depth = 0
        self._writer = self._connect()
        with self._lock:
            for statement in SCHEMA:
                self._writer.execute(statement)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=BUSY_MS / 1000)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        with self._opened:
            self._connections.append(conn)
        return conn

    def _reader(self) -> sqlite3.Connection:
        """The writer inside this thread's batch (it reads its own writes); else this thread's own."""
        if self._batch_thread == threading.get_ident():
            return self._writer
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
        return conn

    # -- writing --------------------------------------------------------------------------
    @contextmanager
    def batch(self) -> Iterator[None]:
        with self._lock:
            outer = self._depth == 0
            if outer:
                self._writer.execute("BEGIN IMMEDIATE")
                self._batch_thread = threading.get_ident()
            self._depth += 1
            try:
                yield
            except BaseException:
                if outer:
                    self._writer.execute("ROLLBACK")
                raise
            else:
                if outer:
                    self._writer.execute("COMMIT")
            finally:
                self._depth -= 1
                if outer:
                    self._batch_thread = None

    def apply_views(self, changes: Mapping[str, Sequence[Op]], position: int) -> list[str]:
        with self.batch():
            current = self._positions(self._writer)
            applied = []
            for view, ops in changes.items():
                if current.get(view, 0) >= position:
                    continue
                for op in ops:
                    self._apply_one(op)
                self._writer.execute("INSERT OR REPLACE INTO view_positions (view, position) VALUES (?, ?)",
                                     (view, position))
                applied.append(view)
            return applied

    def _apply_one(self, op: Op) -> None:
        kind = op[0]
        sql = WRITES.get(kind)
        if sql is None:
            raise ValueError(f"unknown view operation {kind!r}")
        if kind in ("set", "rpush", "lset_last"):
            args: tuple[Any, ...] = (op[1], orjson.dumps(op[2]))
        elif kind == "hset":
            args = (op[1], op[2], orjson.dumps(op[3]))
        elif kind == "zadd":
            args = (op[1], op[2], float(op[3]))
        else:
            args = (op[1], op[2])
        self._writer.execute(sql, args)

    @staticmethod
    def _positions(conn: sqlite3.Connection) -> dict[str, int]:
        return dict(conn.execute("SELECT view, position FROM view_positions").fetchall())

    def positions(self) -> dict[str, int]:
        return self._positions(self._reader())

    def drop(self, view: str) -> None:
        start = self.key(view) + ":"
        end = start[:-1] + chr(ord(":") + 1)        # every key with the prefix sorts before this
        with self.batch():
            for table in KEYED_TABLES:
                self._writer.execute(f"DELETE FROM {table} WHERE key >= ? AND key < ?", (start, end))
            self._writer.execute("DELETE FROM view_positions WHERE view = ?", (view,))

    # -- reading --------------------------------------------------------------------------
    def get(self, key: str) -> Any | None:
        row = self._reader().execute("SELECT value FROM view_values WHERE key = ?", (key,)).fetchone()
        return None if row is None else orjson.loads(row[0])

    def lrange(self, key: str) -> list[Any]:
        rows = self._reader().execute("SELECT value FROM view_lists WHERE key = ? ORDER BY idx", (key,))
        return [orjson.loads(value) for (value,) in rows.fetchall()]

    def hget(self, key: str, field: str) -> Any | None:
        row = self._reader().execute("SELECT value FROM view_hashes WHERE key = ? AND field = ?",
                                     (key, field)).fetchone()
        return None if row is None else orjson.loads(row[0])

    def hgetall(self, key: str) -> dict[str, Any]:
        rows = self._reader().execute("SELECT field, value FROM view_hashes WHERE key = ?", (key,))
        return {field: orjson.loads(value) for field, value in rows.fetchall()}

    def ztop(self, key: str, limit: int) -> list[tuple[str, float]]:
        rows = self._reader().execute("SELECT member, score FROM view_rankings WHERE key = ? "
                                      "ORDER BY score DESC, member LIMIT ?", (key, limit))
        return [(member, score) for member, score in rows.fetchall()]

    def close(self) -> None:
        with self._lock, self._opened:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
