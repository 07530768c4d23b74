"""`ringside replay import`, `ringside audit set` and `ringside log` filters, against real
SQLite files."""
from __future__ import annotations

import gzip

import orjson
import pytest

from domain.battles import Battles
from domain.engine.events import OMNISCIENT, Viewer

from .helpers import assert_clean_error, run, run_json


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """One finished ring battle and one ring set, simulated into a SQLite file."""
    root = tmp_path_factory.mktemp("stored")
    db = f"sqlite:///{root / 'a.db'}"
    battle = run_json("simulate", "--ruleset", "ring", "--battles", "1", "--seed", "9", "--db", db, "--json", cwd=root)
    sets = run_json("simulate", "--ruleset", "ring", "--set", "3", "--mode", "all", "--seed", "4", "--db", db,
                    "--json", cwd=root)
    return root, db, battle["battle_ids"][0], sets["set_ids"][0]


def test_an_exported_replay_imports_into_another_database_and_plays_the_same(stored, tmp_path):
    root, db, battle_id, _ = stored
    replay = tmp_path / "r.jsonl.gz"
    assert run("replay", "export", battle_id, "-o", str(replay), "--db", db, cwd=root).returncode == 0
    other = f"sqlite:///{tmp_path / 'b.db'}"
    done = run("replay", "import", str(replay), "--db", other, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with Battles(db) as a, Battles(other) as b:
        assert done.stdout.startswith(f"imported {battle_id}: {a.load(battle_id).seq} events")
        assert b.load(battle_id) == a.load(battle_id)
        assert b.events(battle_id, OMNISCIENT) == a.events(battle_id, OMNISCIENT)
        middle = a.load(battle_id).seq // 2
        assert b.load(battle_id, at=middle) == a.load(battle_id, at=middle)
    again = run("replay", "import", str(replay), "--db", other, cwd=tmp_path)
    assert_clean_error(again, f"refused: battle {battle_id} is already stored here")


def test_a_tampered_replay_is_refused_with_its_first_bad_seq_and_nothing_is_stored(stored, tmp_path):
    root, db, battle_id, _ = stored
    lines = run("replay", "export", battle_id, "--db", db, cwd=root).stdout.splitlines()
    event = orjson.loads(lines[40])                       # seq 40: the header is line 0
    event["data"]["seq_tampered"] = True
    lines[40] = orjson.dumps(event).decode()
    bad = tmp_path / "bad.jsonl.gz"
    bad.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    other = f"sqlite:///{tmp_path / 'c.db'}"
    done = run("replay", "import", str(bad), "--db", other, cwd=tmp_path)
    assert_clean_error(done, "refused: first bad event seq 40: hash chain mismatch")
    with Battles(other) as store:
        assert list(store.battle_ids()) == []


def test_the_set_audit_prints_a_summary_and_one_digest(stored):
    root, db, _, set_id = stored
    done = run("audit", "set", set_id, "--db", db, cwd=root)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    report = run_json("audit", "set", set_id, "--db", db, "--json", cwd=root)
    assert lines[0] == f"set {set_id} (ring, all 3): OK"
    assert [line.split()[2] for line in lines[1:4]] == [b["battle_id"].rstrip(":") + ":" for b in report["battles"]]
    assert lines[-1] == f"  digest {report['digest']}"
    assert report["status"] == "ok" and report["problems"] == [] and len(report["battles"]) == 3
    assert all(len(b["head"]) == 64 for b in report["battles"])
    assert report["summary"] == lines


def test_an_unknown_set_is_one_error_line(stored):
    root, db, _, _ = stored
    assert_clean_error(run("audit", "set", "00000000-0000-4000-8000-000000000000", "--db", db, cwd=root), "set")


def test_log_filters_by_type_prefix_and_by_seat(stored):
    root, db, battle_id, _ = stored
    lines = run("log", battle_id, "--db", db, "--as", "all", "--type", "ring.LeaderStruck", "--type",
                "engine.BattleEnded", cwd=root).stdout.splitlines()
    assert lines and all(" ring.LeaderStruck " in l or " engine.BattleEnded " in l for l in lines)
    assert " engine.BattleEnded " in lines[-1]
    knocked = run("log", battle_id, "--db", db, "--type", "ring.UnitKnockedOut", "--seat", "p2",
                  cwd=root).stdout.splitlines()
    everyone = run("log", battle_id, "--db", db, "--type", "ring.UnitKnockedOut", cwd=root).stdout.splitlines()
    assert all("unit=p2." in l for l in knocked) and set(knocked) <= set(everyone)
    assert {l for l in everyone if "unit=p2." in l} == set(knocked)


def test_log_follow_prints_a_live_battle_to_its_end(tmp_path):
    """`--follow` keeps reading while another process plays, and stops after BattleEnded.
    The follower is the installed script in its own process, as in use: what it reads is
    written by another process, which its state cache must not hide."""
    import subprocess
    import time

    from domain.ai import get_policy
    from domain.engine.rng import Rng
    from domain.engine.ruleset import get_ruleset

    from .helpers import RINGSIDE

    db = f"sqlite:///{tmp_path / 'live.db'}"
    ring = get_ruleset("ring")
    with Battles(db) as store:
        battle_id = store.create("ring", {"p1": "ann", "p2": "bob"}).battle_id
        follower = subprocess.Popen([RINGSIDE, "log", battle_id, "--follow", "--as", "all", "--db", db],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.0)                                 # it has printed the start and is waiting
        bot, rng = get_policy("random", "ring"), Rng(b"follow")
        state = store.load(battle_id)
        while state.outcome is None:
            seat = sorted(ring.awaiting(state.game))[0]
            choice = bot.choose(None, ring.legal_commands(state.game, seat), rng)
            store.submit(battle_id, seat, ring.codec.wire(choice))
            state = store.load(battle_id)
        out, err = follower.communicate(timeout=60)
    assert follower.returncode == 0, err
    seqs = [int(line.split()[0]) for line in out.splitlines()]
    assert seqs == list(range(1, state.seq + 1))
    assert " engine.BattleEnded " in out.splitlines()[-1]


def test_replay_show_seeks_a_stored_battle_and_a_file_alike(stored, tmp_path):
    root, db, battle_id, _ = stored
    replay = tmp_path / "r.jsonl"
    run("replay", "export", battle_id, "-o", str(replay), "--db", db, cwd=root)
    from_store = run_json("replay", "show", battle_id, "--at", "321", "--as", "p2", "--db", db, cwd=root)
    from_file = run_json("replay", "show", str(replay), "--at", "321", "--as", "p2", cwd=root)
    with Battles(db) as store:
        expected = store.view(battle_id, Viewer(seat="p2"), at=321)
    assert from_store == {"seq": 321, "view": orjson.loads(orjson.dumps(expected))}
    assert from_file["view"] == from_store["view"]["state"]
