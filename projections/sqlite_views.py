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

Inside a batch, what only the commit shows is written once, at the commit: the last value of
each key, hash field, ranking member and position (a page sets a battle's memory meta at every
event, and its positions at every event, but only the page's last values are ever seen). Lists
are written as they come, in order. A read in the batch's own thread sees the pending values.
"""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, assert_never

import orjson

from domain.engine.errors import InvalidInput
from domain.sqlite_store import use_wal

from .ops import HDel, HSet, LSetLast, Op, RPush, SetKey, ZAdd, ZRem
from .store import ViewStore

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
PUSH_ITEM = ("INSERT INTO view_lists (key, idx, value) VALUES "
             "(?1, (SELECT COALESCE(MAX(idx) + 1, 0) FROM view_lists WHERE key = ?1), ?2)")
SET_LAST_ITEM = ("UPDATE view_lists SET value = ?2 WHERE key = ?1 AND "
                 "idx = (SELECT MAX(idx) FROM view_lists WHERE key = ?1)")
SET_VALUES = "INSERT OR REPLACE INTO view_values (key, value) VALUES (?, ?)"
SET_FIELDS = "INSERT OR REPLACE INTO view_hashes (key, field, value) VALUES (?, ?, ?)"
DELETE_FIELDS = "DELETE FROM view_hashes WHERE key = ? AND field = ?"
SET_SCORES = "INSERT OR REPLACE INTO view_rankings (key, member, score) VALUES (?, ?, ?)"
DELETE_MEMBERS = "DELETE FROM view_rankings WHERE key = ? AND member = ?"
SET_POSITIONS = "INSERT OR REPLACE INTO view_positions (view, position) VALUES (?, ?)"
BUSY_MS = 30_000        # another runner's page may hold the write lock this long


class Pending:
    """A batch's writes that only its commit shows, latest last: keys, hash fields (None:
    deleted), ranking members (None: removed), and every view's position."""

    def __init__(self, positions: dict[str, int]):
        self.values: dict[str, bytes] = {}
        self.fields: dict[str, dict[str, bytes | None]] = {}
        self.scores: dict[tuple[str, str], float | None] = {}
        self.positions = positions
        self.moved: set[str] = set()

    def write(self, conn: sqlite3.Connection) -> None:
        """Write them all, and forget them."""
        conn.executemany(SET_VALUES, self.values.items())
        fields = [(key, field, value) for key, found in self.fields.items() for field, value in found.items()]
        conn.executemany(SET_FIELDS, [row for row in fields if row[2] is not None])
        conn.executemany(DELETE_FIELDS, [row[:2] for row in fields if row[2] is None])
        scores = [(key, member, score) for (key, member), score in self.scores.items()]
        conn.executemany(SET_SCORES, [row for row in scores if row[2] is not None])
        conn.executemany(DELETE_MEMBERS, [row[:2] for row in scores if row[2] is None])
        conn.executemany(SET_POSITIONS, [(view, self.positions[view]) for view in self.moved])
        self.values, self.fields, self.scores, self.moved = {}, {}, {}, set()


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
        self._pending: Pending | None = None      # the open batch's writes
        try:
            self._writer = self._connect()
            with self._lock:
                for statement in SCHEMA:
                    self._writer.execute(statement)
        except sqlite3.Error as exc:        # a folder that does not exist, a file that is not SQLite
            self.close()
            raise InvalidInput("views", f"cannot open the SQLite file {path}: {exc}") from None

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=BUSY_MS / 1000)
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            use_wal(conn, BUSY_MS)
            conn.execute("PRAGMA synchronous = NORMAL")
        except BaseException:
            conn.close()
            raise
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

    def _mine(self) -> Pending | None:
        """The open batch's pending writes, in the batch's own thread; else None."""
        return self._pending if self._batch_thread == threading.get_ident() else None

    # -- writing --------------------------------------------------------------------------
    @contextmanager
    def batch(self) -> Iterator[None]:
        with self._lock:
            outer = self._depth == 0
            opened: Pending | None = None       # the batch this call opened; None: an inner one
            if outer:
                self._writer.execute("BEGIN IMMEDIATE")
                self._pending = opened = Pending(self._positions(self._writer))
                self._batch_thread = threading.get_ident()
            self._depth += 1
            try:
                yield
                if opened is not None:
                    opened.write(self._writer)
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
                    self._batch_thread = self._pending = None

    def apply_views(self, changes: Mapping[str, Sequence[Op]], position: int) -> list[str]:
        with self.batch():
            pending = self._pending
            assert pending is not None
            applied = []
            for view, ops in changes.items():
                if pending.positions.get(view, 0) >= position:
                    continue
                for op in ops:
                    self._apply_one(pending, op)
                pending.positions[view] = position
                pending.moved.add(view)
                applied.append(view)
            return applied

    def _apply_one(self, pending: Pending, op: Op) -> None:
        match op:
            case SetKey():
                pending.values[op.key] = orjson.dumps(op.value)
            case HSet():
                pending.fields.setdefault(op.key, {})[op.field] = orjson.dumps(op.value)
            case HDel():
                pending.fields.setdefault(op.key, {})[op.field] = None
            case ZAdd():
                pending.scores[(op.key, op.member)] = float(op.score)
            case ZRem():
                pending.scores[(op.key, op.member)] = None
            case RPush():
                self._writer.execute(PUSH_ITEM, (op.key, orjson.dumps(op.value)))
            case LSetLast():
                self._writer.execute(SET_LAST_ITEM, (op.key, orjson.dumps(op.value)))
            case _:
                assert_never(op)

    @staticmethod
    def _positions(conn: sqlite3.Connection) -> dict[str, int]:
        return dict(conn.execute("SELECT view, position FROM view_positions").fetchall())

    def positions(self) -> dict[str, int]:
        pending = self._mine()
        return dict(pending.positions) if pending is not None else self._positions(self._reader())

    def drop(self, view: str) -> None:
        start = self.key(view) + ":"
        end = start[:-1] + chr(ord(":") + 1)        # every key with the prefix sorts before this
        with self.batch():
            pending = self._pending
            assert pending is not None
            pending.write(self._writer)             # what the batch wrote before goes too
            for table in KEYED_TABLES:
                self._writer.execute(f"DELETE FROM {table} WHERE key >= ? AND key < ?", (start, end))
            self._writer.execute("DELETE FROM view_positions WHERE view = ?", (view,))
            pending.positions.pop(view, None)

    # -- reading --------------------------------------------------------------------------
    def get(self, key: str) -> Any | None:
        pending = self._mine()
        if pending is not None and key in pending.values:
            return orjson.loads(pending.values[key])
        row = self._reader().execute("SELECT value FROM view_values WHERE key = ?", (key,)).fetchone()
        return None if row is None else orjson.loads(row[0])

    def lrange(self, key: str) -> list[Any]:
        rows = self._reader().execute("SELECT value FROM view_lists WHERE key = ? ORDER BY idx", (key,))
        return [orjson.loads(value) for (value,) in rows.fetchall()]

    def hget(self, key: str, field: str) -> Any | None:
        pending = self._mine()
        if pending is not None and field in pending.fields.get(key, ()):
            value = pending.fields[key][field]
            return None if value is None else orjson.loads(value)
        row = self._reader().execute("SELECT value FROM view_hashes WHERE key = ? AND field = ?",
                                     (key, field)).fetchone()
        return None if row is None else orjson.loads(row[0])

    def hgetall(self, key: str) -> dict[str, Any]:
        rows = self._reader().execute("SELECT field, value FROM view_hashes WHERE key = ?", (key,))
        found = dict(rows.fetchall())
        pending = self._mine()
        if pending is not None:
            found.update(pending.fields.get(key, {}))
        return {field: orjson.loads(value) for field, value in found.items() if value is not None}

    def ztop(self, key: str, limit: int) -> list[tuple[str, float]]:
        pending = self._mine()
        if pending is not None:
            pending.write(self._writer)             # a ranking's order is the database's to find
        rows = self._reader().execute("SELECT member, score FROM view_rankings WHERE key = ? "
                                      "ORDER BY score DESC, member LIMIT ?", (key, limit))
        return [(member, score) for member, score in rows.fetchall()]

    def close(self) -> None:
        with self._lock, self._opened:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
