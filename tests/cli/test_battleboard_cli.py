"""`ringside simulate --ruleset battleboard` end to end, against real SQLite files: every battle
of random bots ends and exports a replay that verifies, the memory bots play three hero seats
against a greedy boss side, and a bad battleboard setup is one clean error."""
from __future__ import annotations

import json

import pytest

import domain.rulesets  # noqa: F401 - registers event topics for in-process reads

from domain.battles import Battles

from .helpers import assert_clean_error, assert_every_replay_verifies, run, run_json
from .helpers import simulated as simulated_battles

N = 50
SIDES = ("heroes", "foes")


@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    work = tmp_path_factory.mktemp("battleboard-sim")
    return work, simulated_battles(work, "battleboard", N, "3")


def test_every_simulated_battleboard_battle_ends(simulated):
    work, out = simulated
    assert out["battles"] == N == len(set(out["battle_ids"]))
    with Battles(f"sqlite:///{work / 'sim.db'}") as store:
        states = [store.load(bid) for bid in out["battle_ids"]]
    assert all(s.outcome is not None for s in states)
    assert all(s.outcome.winner in (*SIDES, None) for s in states)
    assert all(s.table.seats == ("h1", "h2", "gm") for s in states)
    assert out["events"] == sum(s.seq for s in states)


def test_every_exported_battleboard_replay_verifies(simulated):
    work, out = simulated
    assert_every_replay_verifies(work, out["battle_ids"], ".jsonl")


def test_memory_heroes_take_on_a_greedy_boss_side(tmp_path):
    db = f"sqlite:///{tmp_path / 'boss.db'}"
    setup = {"heroes": ["aria", "bram", "cass"], "encounter": "drake_lair"}
    out = run_json("simulate", "--ruleset", "battleboard", "--battles", "2", "--seed", "3", "--bots",
                   "memory,memory,memory,greedy", "--setup", json.dumps(setup), "--db", db, "--json", cwd=tmp_path)
    with Battles(db) as store:
        states = [store.load(bid) for bid in out["battle_ids"]]
    for state in states:
        assert state.outcome is not None
        assert state.created.players["gm"] == {"bot": "greedy"} and state.created.players["h3"] == {"bot": "memory"}
        assert any(u.rank == "boss" for u in state.game.units.values())


@pytest.mark.parametrize(("setup", "field"), [
    ('{"heroes": ["aria", "nobody"], "encounter": "drake_lair"}', "heroes[1]"),
    ('{"heroes": ["aria"], "encounter": "nowhere"}', "encounter"),
])
def test_a_bad_battleboard_setup_is_one_clean_error(tmp_path, setup, field):
    done = run("simulate", "--ruleset", "battleboard", "--setup", setup, "--db", "sqlite:///x.db", cwd=tmp_path)
    assert_clean_error(done, field)
