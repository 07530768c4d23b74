"""`ringside simulate --ruleset skirmish` end to end, against real SQLite files: every battle of
random bots ends and exports a replay that verifies, the greedy and memory bots play a raid
against the boss side, and a bad skirmish setup is one clean error."""
from __future__ import annotations

import json

import pytest

import domain.rulesets  # noqa: F401 - registers event topics for in-process reads

from domain.battles import Battles
from domain.rulesets.skirmish.setup import RAID_SETUP

from .helpers import assert_clean_error, assert_every_replay_verifies, run, run_json
from .helpers import simulated as simulated_battles

N = 50
SEATS = ("p1", "p2")


@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    work = tmp_path_factory.mktemp("skirmish-sim")
    return work, simulated_battles(work, "skirmish", N, "3")


def test_every_simulated_skirmish_battle_ends(simulated):
    work, out = simulated
    assert out["battles"] == N == len(set(out["battle_ids"]))
    with Battles(f"sqlite:///{work / 'sim.db'}") as store:
        states = [store.load(bid) for bid in out["battle_ids"]]
    assert all(s.outcome is not None for s in states)
    assert all(s.outcome.winner in (*SEATS, None) for s in states)
    assert {s.outcome.winner for s in states} >= set(SEATS), "50 random battles all won by the same seat"
    assert all(s.game.phase == "combat" and s.table.seats == SEATS for s in states)
    assert out["events"] == sum(s.seq for s in states)


def test_every_exported_skirmish_replay_verifies(simulated):
    work, out = simulated
    assert_every_replay_verifies(work, out["battle_ids"], ".jsonl")


def test_the_memory_bot_plays_a_raid_of_five_against_a_greedy_boss(tmp_path):
    db = f"sqlite:///{tmp_path / 'raid.db'}"
    out = run_json("simulate", "--ruleset", "skirmish", "--battles", "2", "--seed", "3", "--bots", "memory,greedy",
                   "--setup", json.dumps(RAID_SETUP), "--db", db, "--json", cwd=tmp_path)
    with Battles(db) as store:
        states = [store.load(bid) for bid in out["battle_ids"]]
    for state in states:
        assert state.outcome is not None
        assert state.created.players == {"p1": {"bot": "memory"}, "p2": {"bot": "greedy"}}
        assert len(state.game.fielded("p1")) == 5
        assert any(u.boss and u.character == "tempest_wyrm" for u in state.game.fielded("p2"))


@pytest.mark.parametrize(("setup", "field"), [
    ('{"p1": {"team": ["ember", "cinder", "wisp"]}}', "p1.team"),
    ('{"mode": "raid", "p1": {"team": ["sigil", "quill", "fang"]}, "p2": {"boss": "kraken"}}', "p2.boss"),
])
def test_a_bad_skirmish_setup_is_one_clean_error(tmp_path, setup, field):
    done = run("simulate", "--ruleset", "skirmish", "--setup", setup, "--db", "sqlite:///x.db", cwd=tmp_path)
    assert_clean_error(done, field)
