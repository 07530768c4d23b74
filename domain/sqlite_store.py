"""The SQLite event store as Ringside runs it: the library's, with checkpoints that a server can
take out of its commits, and a one-statement read of the log's last id (`Pool.last_id`). The
pool and the factory that installs it (`Factory`, the `PERSISTENCE_MODULE` that `store_env`
names) touch the library's internals, so they live in domain/adapters/eventsourcing.py.

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
from typing import Any

from domain.adapters.eventsourcing import AUTOCHECKPOINT_PAGES, Pool, file_pool
from domain.adapters.eventsourcing import Factory as Factory    # the PERSISTENCE_MODULE `store_env` names

log = logging.getLogger(__name__)
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
