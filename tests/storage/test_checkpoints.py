"""A served SQLite store checkpoints its write-ahead log in the background, never inside a
commit: the database file grows only when the checkpointer (or, once it has stopped, a commit
past SQLite's 1,000 log pages) copies the log back."""
from __future__ import annotations

import os
import sqlite3

from api.services import Settings, bootstrap
from domain.adapters.eventsourcing import file_pool, sqlite_connection
from domain.battles import Battles
from domain.sqlite_store import AUTOCHECKPOINT_PAGES, Checkpointer, checkpointer
from tests.api.server import wait_until

PAGE = 4096
FRAME = PAGE + 24           # a log frame: the page and its header
NEVER = 3600.0              # a checkpointer period no test lasts


def create(battles: Battles, count: int) -> None:
    for _ in range(count):
        battles.create("deckduel", {"p1": "alice", "p2": "bob"})


def log_frames(path: str) -> int:
    return os.path.getsize(path + "-wal") // FRAME


def test_while_the_checkpointer_runs_no_commit_checkpoints_and_it_copies_back_when_it_stops(tmp_path):
    path = str(tmp_path / "log.db")
    with Battles(f"sqlite:///{path}") as battles:
        # given a store on a file whose checkpointer has started, and never gets its turn
        wal = checkpointer(battles.store)
        assert isinstance(wal, Checkpointer)
        wal.every = NEVER
        wal.start()
        first = os.path.getsize(path)
        # when 300 battles are created, one transaction each (about 5 log pages each)
        create(battles, 300)
        # then no commit copied the log back, past 1,000 pages: the file is as it was
        assert log_frames(path) > AUTOCHECKPOINT_PAGES
        assert os.path.getsize(path) == first
        # when the checkpointer stops, its last checkpoint copies everything back
        wal.close()
        assert os.path.getsize(path) > first + 100 * PAGE
        with sqlite3.connect(path) as other:
            busy, logged, copied = other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert (busy, logged) == (0, copied)
        # and commits checkpoint at SQLite's default again: 300 more grow the file with no checkpointer
        stopped = os.path.getsize(path)
        create(battles, 300)
        assert os.path.getsize(path) > stopped


def test_a_running_checkpointer_copies_the_log_back_as_it_grows(tmp_path):
    path = str(tmp_path / "log.db")
    with Battles(f"sqlite:///{path}") as battles:
        # given a checkpointer every 10 ms
        wal = checkpointer(battles.store)
        assert wal is not None
        wal.every = 0.01
        wal.start()
        first = os.path.getsize(path)
        try:
            # when battles are created
            create(battles, 300)
            # then the file grows while they are, by the checkpointer's hand
            wait_until(lambda: os.path.getsize(path) > first + 100 * PAGE and wal.checkpoints > 0,
                       timeout=10, what="a background checkpoint")
        finally:
            wal.close()


def test_a_pooled_connection_takes_the_setting_at_its_next_use(tmp_path):
    with Battles(f"sqlite:///{tmp_path / 'log.db'}") as battles:
        pool = file_pool(battles.store)
        # given a connection in use when the setting changes
        conn = pool.get_connection()
        pool.autocheckpoint = 0
        pool.put_connection(conn)
        # when it is handed out again (the pool hands its connections out in turn)
        taken = []
        while conn not in taken:
            taken.append(pool.get_connection())
        # then it no longer checkpoints at commit, nor does any other handed out
        try:
            assert [sqlite_connection(c).execute("PRAGMA wal_autocheckpoint").fetchone()[0] for c in taken] == [0] * len(taken)
        finally:
            for c in taken:
                pool.put_connection(c)


def test_only_a_service_on_a_sqlite_file_runs_a_checkpointer(tmp_path):
    on_file = bootstrap(Settings(database_url=f"sqlite:///{tmp_path / 'log.db'}"))
    in_memory = bootstrap(Settings(database_url="sqlite:///:memory:"))
    try:
        assert isinstance(on_file.extras.get("checkpoints"), Checkpointer)
        assert "checkpoints" not in in_memory.extras
    finally:
        on_file.close()
        in_memory.close()
