"""`ringside projections status`: where each view stands, and what it set aside."""
from __future__ import annotations

from projections.ratings import PlayerHistory
from tests.cli.helpers import run, run_json


def test_status_shows_each_view_at_the_head_after_a_rat_battle_is_rebuilt(tmp_path):
    # given one finished rat battle (its enemies are a side with no seat) in a store
    db = f"sqlite:///{tmp_path / 'p.db'}"
    run_json("simulate", "--ruleset", "rat", "--battles", "1", "--db", db, "--json", cwd=tmp_path)
    # when the views are rebuilt
    rebuilt = run("projections", "rebuild", "--db", db, cwd=tmp_path)
    assert rebuilt.returncode == 0, rebuilt.stderr
    # then every view reached the log's head and none set anything aside
    status = run_json("projections", "status", "--db", db, "--json", cwd=tmp_path)
    assert set(status["positions"].values()) == {status["head"]} and status["set_aside"] == {}


def test_status_names_the_battle_a_view_set_aside(tmp_path, monkeypatch):
    # given a stored battle and a history view that fails on it
    db = f"sqlite:///{tmp_path / 'p.db'}"
    battle = run_json("simulate", "--ruleset", "deckduel", "--battles", "1", "--db", db, "--json",
                      cwd=tmp_path)["battle_ids"][0]

    def failing(self, owner_id, rec, *args):
        raise ValueError("no history today")

    monkeypatch.setattr(PlayerHistory, "project", failing)
    assert run("projections", "rebuild", "history", "--db", db, cwd=tmp_path).returncode == 0
    # then status names the view, the battle, its first seq and the error
    shown = run("projections", "status", "--db", db, cwd=tmp_path)
    assert shown.returncode == 0
    assert f"set aside: history {battle} seq 1 (engine.BattleCreated): ValueError: no history today" in shown.stdout
