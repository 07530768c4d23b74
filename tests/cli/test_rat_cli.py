"""`ringside simulate --ruleset rat` end to end, against real SQLite files: with no `--bots`
the one party seat plays random against the rules' enemy AI, every battle ends and exports a
replay that verifies, and a set along a route of formations audits ok and carries HP and
consumables over."""
from __future__ import annotations

import pytest

import domain.rulesets  # noqa: F401 - registers event topics for in-process reads

from domain.battles import Battles
from domain.rulesets.rat.events import PartyShown
from domain.sets import Sets
from replays.audit import audit_set

from .helpers import assert_clean_error, assert_every_replay_verifies, run, run_json
from .helpers import simulated as simulated_battles

N = 50


@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    work = tmp_path_factory.mktemp("rat-sim")
    return work, simulated_battles(work, "rat", N, "3")


def test_every_simulated_rat_battle_ends(simulated):
    work, out = simulated
    assert out["battles"] == N == len(set(out["battle_ids"]))
    with Battles(f"sqlite:///{work / 'sim.db'}") as store:
        states = [store.load(bid) for bid in out["battle_ids"]]
    assert all(s.outcome is not None for s in states)
    assert all(s.outcome.winner in ("party", "enemies", None) for s in states)
    assert all(s.table.seats == ("p1",) for s in states)


@pytest.mark.slow
def test_every_exported_rat_replay_verifies(simulated):
    work, out = simulated
    assert_every_replay_verifies(work, out["battle_ids"], ".jsonl")


def test_a_simulated_rat_set_audits_ok_and_walks_its_route(tmp_path):
    db = f"sqlite:///{tmp_path / 's.db'}"
    setup = '{"formation": ["sewer_ambush", "back_alley", "clockwork_vault"]}'
    out = run_json("simulate", "--ruleset", "rat", "--set", "3", "--mode", "all", "--seed", "5", "--setup", setup,
                   "--db", db, "--json", cwd=tmp_path)
    with Battles(db) as store:
        sets = Sets(store)
        report = audit_set(store, sets, out["set_ids"][0])
        state = sets.load(out["set_ids"][0])
        games = [store.load(b.battle_id) for b in state.battles]
        shown = [next(r.event for r in store.records(b.battle_id) if isinstance(r.event, PartyShown))
                 for b in state.battles]
    assert (report["status"], report["problems"]) == ("ok", [])
    assert [g.game.formation for g in games] == ["sewer_ambush", "back_alley", "clockwork_vault"]
    # Each battle starts with the HP the one before ended with (1 for a member down).
    for before, after in zip(games, shown[1:]):
        carried = {m.id: (m.hp if m.standing else 1) for m in before.game.side("party")}
        assert {m["id"]: m["hp"] for m in after.members} == carried


def test_a_bad_rat_setup_is_one_clean_error(tmp_path):
    bad = '{"party": [{"member": "girl", "equipment": ["long_night_knife"]}]}'
    assert_clean_error(run("simulate", "--ruleset", "rat", "--setup", bad, "--db", "sqlite:///x.db", cwd=tmp_path),
                       "party[0].equipment[0]")
