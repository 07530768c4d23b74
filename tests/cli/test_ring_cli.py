"""`ringside simulate --ruleset ring` end to end, against real SQLite files: every battle ends
with a winner and exports a replay that verifies, a set audits ok and carries LP and EXS over
by the ring rules, the memory bot plays, and a bad ring setup is one clean error."""
from __future__ import annotations

import pytest

import domain.rulesets  # noqa: F401 - registers event topics for in-process reads

from domain.battles import Battles
from domain.rulesets.ring.events import DeckBuilt
from domain.sets import Sets
from replays.audit import audit_set

from .helpers import assert_clean_error, assert_every_replay_verifies, run, run_json
from .helpers import simulated as simulated_battles

N = 50
SEATS = ("p1", "p2")


@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    work = tmp_path_factory.mktemp("ring-sim")
    return work, simulated_battles(work, "ring", N, "3")


def test_every_simulated_ring_battle_ends_with_a_winner(simulated):
    work, out = simulated
    assert out["battles"] == N == len(set(out["battle_ids"]))
    with Battles(f"sqlite:///{work / 'sim.db'}") as store:
        states = [store.load(bid) for bid in out["battle_ids"]]
    # The time limit gives a winner too, so no ring battle ends without one.
    assert [s.outcome is not None and s.outcome.winner in SEATS for s in states] == [True] * N
    assert {s.outcome.winner for s in states} == set(SEATS), "50 random battles all won by the same seat"
    assert out["events"] == sum(s.seq for s in states)


@pytest.mark.slow
def test_every_exported_ring_replay_verifies(simulated):
    work, out = simulated
    assert_every_replay_verifies(work, out["battle_ids"], ".jsonl.gz")


def carry_by_the_rules(game, winner: str) -> dict:
    """The ring README's carry-over, read off a finished battle: a unit that took part gains
    1500 bp EXS (to at most 10000), and 1 LP if its side won and it has LP left (to at most
    its max); a unit that sat out loses 1000 bp EXS (to at least 0); 0 LP stays 0."""
    carry = {}
    for seat in SEATS:
        side, condition = game.side(seat), {}
        for key in side.deck:
            unit = game.units[key]
            if key in side.team:
                lp = min(unit.max_lp, unit.lp + 1) if seat == winner and unit.lp > 0 else unit.lp
                condition[unit.unit] = {"lp": lp, "exs": min(10_000, unit.exs + 1500)}
            else:
                condition[unit.unit] = {"lp": unit.lp, "exs": max(0, unit.exs - 1000)}
        carry[seat] = condition
    return carry


def test_a_simulated_ring_set_audits_ok_and_carries_over_by_the_ring_rules(tmp_path):
    db = f"sqlite:///{tmp_path / 's.db'}"
    out = run_json("simulate", "--ruleset", "ring", "--set", "3", "--seed", "5", "--db", db, "--json", cwd=tmp_path)
    assert len(out["set_ids"]) == 1
    with Battles(db) as store:
        sets = Sets(store)
        report = audit_set(store, sets, out["set_ids"][0])
        state = sets.load(out["set_ids"][0])
        games = [store.load(b.battle_id) for b in state.battles]
        built = [[r.event for r in store.records(b.battle_id) if isinstance(r.event, DeckBuilt)]
                 for b in state.battles]
    assert (report["status"], report["problems"], report["mode"]) == ("ok", [], "best_of")
    assert [row["battle_id"] for row in report["battles"]] == out["battle_ids"]
    assert all(row["status"] == "ok" for row in report["battles"])
    # Best of three: a third battle only when the first two split.
    winners = [g.outcome.winner for g in games]
    assert len(winners) == 3 or (len(winners) == 2 and winners[0] == winners[1] == report["winner"])
    assert report["digest"] == state.chain
    # Each battle starts from the carry-over of the one before it, and the set ends on the last.
    expected = [None] + [carry_by_the_rules(g.game, g.outcome.winner) for g in games]
    assert [b.carry for b in state.battles] == expected[:-1]
    assert state.carry == report["carry"] == expected[-1]
    for carry, decks in zip(expected[1:-1], built[1:]):
        for deck in decks:
            assert {f["unit"]: {"lp": f["lp"], "exs": f["exs"]} for f in deck.fighters} == carry[deck.seat]


def test_the_memory_bot_plays_ring_battles(tmp_path):
    db = f"sqlite:///{tmp_path / 'm.db'}"
    out = run_json("simulate", "--ruleset", "ring", "--battles", "3", "--seed", "7", "--bots", "memory,greedy",
                   "--db", db, "--json", cwd=tmp_path)
    assert out["battles"] == 3
    with Battles(db) as store:
        assert all(store.load(bid).outcome.winner in SEATS for bid in out["battle_ids"])


def test_a_bad_ring_setup_is_one_error_naming_the_field(tmp_path):
    done = run("simulate", "--ruleset", "ring", "--setup", '{"p1": {"deck": "nope"}, "p2": {"deck": "iron_wall"}}',
               "--db", "sqlite:///e.db", cwd=tmp_path)
    line = assert_clean_error(done, "setup.p1.deck", "'nope'")
    assert "iron_wall" in line                   # the message lists the presets to choose from
