"""The SQLite view store: a batch is one transaction, and other connections see only commits."""
from __future__ import annotations

import sqlite3
import threading

import pytest

from domain.engine.errors import InvalidInput
from projections.ops import HSet, RPush, SetKey, ZAdd
from projections.sqlite_views import SqliteViewStore
from tests.storage.helpers import at_once


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "views.db")


def test_a_batch_commits_its_ops_and_positions_together(path):
    # given a writer and a second store on the same file (another process's reader)
    writer, reader = SqliteViewStore(path, prefix="t"), SqliteViewStore(path, prefix="t")
    key = writer.key("battles", "b1", "spectator")
    # when two events are applied inside one batch
    with writer.batch():
        writer.apply("battles", [SetKey(key, {"seq": 1})], 1)
        writer.apply("battles", [SetKey(key, {"seq": 2})], 2)
        # then the writer's thread reads its own writes, and the other store sees nothing yet
        assert writer.get(key) == {"seq": 2} and writer.position("battles") == 2
        assert reader.get(key) is None and reader.position("battles") is None
    # and once the batch ends, both see the last event's view at its position
    assert reader.get(key) == {"seq": 2} and reader.position("battles") == 2
    writer.close()
    reader.close()


def test_a_failure_inside_a_batch_applies_none_of_it(path):
    # given a view at position 3
    store = SqliteViewStore(path, prefix="t")
    key = store.key("memory", "b1", "p1", "actions")
    store.apply("memory", [RPush(key, "first")], 3)
    # when a page applies two more events and then fails
    with pytest.raises(RuntimeError), store.batch():
        store.apply("memory", [RPush(key, "second")], 4)
        store.apply("memory", [RPush(key, "third")], 5)
        raise RuntimeError("the projection failed mid-page")
    # then neither event's ops nor positions were kept: a restart re-applies both once
    assert store.lrange(key) == ["first"] and store.position("memory") == 3
    store.close()


def test_readers_in_other_threads_see_the_last_commit_during_a_batch(path):
    # given a batch in progress on the writer's thread
    store = SqliteViewStore(path, prefix="t")
    key = store.key("leaderboards", "ring", "ranking")
    store.apply("leaderboards", [ZAdd(key, "alice", 25.0)], 1)
    seen = []
    with store.batch():
        store.apply("leaderboards", [ZAdd(key, "bob", 30.0)], 2)
        # when another thread (an HTTP route) reads the ranking
        thread = threading.Thread(target=lambda: seen.append(store.ztop(key, 10)))
        thread.start()
        thread.join()
    # then it read the committed ranking, without bob, and without waiting for the batch
    assert seen == [[("alice", 25.0)]]
    assert store.ztop(key, 10) == [("bob", 30.0), ("alice", 25.0)]
    store.close()


def test_drop_removes_only_keys_under_the_view(path):
    # given views "a" and "ab", whose key prefixes share "t:v:a"
    store = SqliteViewStore(path, prefix="t")
    store.apply("a", [SetKey(store.key("a", "x"), 1), HSet(store.key("a", "h"), "f", 2)], 1)
    store.apply("ab", [SetKey(store.key("ab", "x"), 3)], 2)
    # when "a" is dropped
    store.drop("a")
    # then "ab" keeps its key and position
    assert store.get(store.key("a", "x")) is None and store.hgetall(store.key("a", "h")) == {}
    assert store.get(store.key("ab", "x")) == 3 and store.positions() == {"ab": 2}
    store.close()


def test_stores_opened_at_once_on_a_new_file_all_open(tmp_path):
    # given a new views file that four connections open at the same moment (the server, its
    # runner child, a CLI, a test), fifty times over
    failures = []
    for round_ in range(50):
        path = str(tmp_path / f"views{round_}.db")
        failures += at_once(4, lambda: SqliteViewStore(path, prefix="t").close())
    # then every one opened: none was refused with "database is locked" while another
    # switched the new file to WAL
    assert failures == []


@pytest.mark.parametrize("where", ["missing/views.db", "not-sqlite.db"])
def test_a_file_that_cannot_be_opened_is_a_clear_error(tmp_path, where, monkeypatch):
    # given a folder that does not exist, or a file that is not SQLite
    (tmp_path / "not-sqlite.db").write_bytes(b"not a database, " * 64)
    path = str(tmp_path / where)
    opened: list[sqlite3.Connection] = []
    connect = sqlite3.connect

    def counted(*args, **kwargs):
        opened.append(connect(*args, **kwargs))
        return opened[-1]
    monkeypatch.setattr(sqlite3, "connect", counted)
    # then the store names the file and why, as an input error (one line on the command line)
    with pytest.raises(InvalidInput) as raised:
        SqliteViewStore(path)
    assert raised.value.message.startswith(f"views: cannot open the SQLite file {path}: ")
    # and leaves no connection open behind it
    for conn in opened:
        with pytest.raises(sqlite3.ProgrammingError, match="closed"):
            conn.execute("SELECT 1")
