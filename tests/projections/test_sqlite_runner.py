"""The runner over SQLite views, as `ringside serve` runs it on a SQLite file: killed mid-page
and restarted, every view equals a rebuild from scratch (each event applied exactly once);
`ringside projections rebuild` works on it without Redis."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess

from domain.battles import Battles
from domain.sets import Sets
from projections.runner import Views
from projections.sqlite_views import KEYED_TABLES, SqliteViewStore
from projections.views import PROJECTIONS
from tests.api.server import ROOT, stop, wait_until
from tests.cli.helpers import RINGSIDE, run

from .test_exactly_once import BOTS, add_battles


def dump(path: str) -> dict[str, list[tuple]]:
    """Every view's rows, but the runner's mark of the log it follows."""
    with sqlite3.connect(path) as conn:
        return {table: conn.execute(f"SELECT * FROM {table} WHERE key NOT LIKE '%:v:log:%' ORDER BY 1, 2").fetchall()
                for table in KEYED_TABLES}


def runner(db: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}
    return subprocess.Popen([RINGSIDE, "projections", "run", "--db", db], env={**env, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def test_a_killed_runner_resumes_exactly_once_over_sqlite_views(tmp_path):
    db = f"sqlite:///{tmp_path / 'log.db'}"
    beside = str(tmp_path / "log.views.db")         # where the runner keeps them by default
    with Battles(db) as battles:
        # given a log of 30 battles and a set, and a runner following it into log.views.db
        add_battles(battles, 0, 30)
        Sets(battles).simulate("deckduel", BOTS, games=3, mode="all", seed="x",
                               players={"p1": "player0", "p2": "player1"})
        head = Views(battles, SqliteViewStore(":memory:")).head()
        first = runner(db)
        wait_until(lambda: os.path.exists(beside) and (SqliteViewStore(beside).position("memory") or 0) > head // 3,
                   timeout=60, what="the runner to start")
        # when it is killed mid-stream, wherever it is, and the log grows while it is down
        stop(first, signal.SIGKILL)
        live = SqliteViewStore(beside)
        assert min(live.position(name) or 0 for name in PROJECTIONS) < head, "the runner finished before the kill"
        add_battles(battles, 30, 5)
        head = Views(battles, live).head()
        second = runner(db)
        try:
            wait_until(lambda: all((live.position(n) or 0) >= head for n in PROJECTIONS), timeout=120,
                       what="the restarted runner to catch up")
        finally:
            stop(second)
        # then its views equal those built from scratch in one go
        fresh = str(tmp_path / "fresh.views.db")
        Views(battles, SqliteViewStore(fresh)).catch_up()
    assert dump(beside) == dump(fresh)
    assert sum(len(rows) for rows in dump(fresh).values()) > 50


def test_rebuild_drops_a_sqlite_view_and_rebuilds_it_from_the_log(tmp_path):
    db = f"sqlite:///{tmp_path / 'log.db'}"
    views = str(tmp_path / "log.views.db")
    with Battles(db) as battles:
        add_battles(battles, 0, 4)
        Views(battles, SqliteViewStore(views)).catch_up()
    before = dump(views)
    with sqlite3.connect(views) as conn:        # a damaged view
        conn.execute("DELETE FROM view_rankings WHERE key LIKE ?", ("%:leaderboards:%",))
    done = run("projections", "rebuild", "leaderboards", "--db", db, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "rebuilt leaderboards from" in done.stdout
    assert dump(views) == before


def started(battles: Battles, views: str) -> Views:
    """What a runner does as it starts: check the views' log, then catch up."""
    found = Views(battles, SqliteViewStore(views))
    found.check_log()
    found.catch_up()
    return found


def test_views_beside_a_replaced_store_are_rebuilt_from_the_new_one(tmp_path):
    views = str(tmp_path / "log.views.db")
    fresh = str(tmp_path / "fresh.views.db")
    # given views built from a log of 6 battles
    with Battles(f"sqlite:///{tmp_path / 'log.db'}") as battles:
        add_battles(battles, 0, 6)
        started(battles, views)
    # when that store is deleted and a new one holds 2 other battles (fewer events, another first)
    for leftover in tmp_path.glob("log.db*"):
        leftover.unlink()
    with Battles(f"sqlite:///{tmp_path / 'log.db'}") as battles:
        add_battles(battles, 100, 2)
        started(battles, views)
        Views(battles, SqliteViewStore(fresh)).catch_up()
    # then the views hold the new log's battles only, as if built from scratch
    assert dump(views) == dump(fresh)


def test_views_of_the_same_store_are_kept_across_restarts(tmp_path):
    views = str(tmp_path / "log.views.db")
    with Battles(f"sqlite:///{tmp_path / 'log.db'}") as battles:
        add_battles(battles, 0, 3)
        started(battles, views)
        before = SqliteViewStore(views).positions()
        # when the runner starts again over the same log
        again = Views(battles, SqliteViewStore(views))
        again.check_log()
        # then nothing was dropped: it resumes where it was
        assert SqliteViewStore(views).positions() == before and again.catch_up() == 0
