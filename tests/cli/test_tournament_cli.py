"""`ringside simulate --tournament` and `ringside audit tournament`, against a real SQLite file."""
from __future__ import annotations

import gzip

import orjson

from .helpers import assert_clean_error, run, run_json


def test_a_sixteen_player_swiss_runs_to_the_end_and_its_audit_prints_ok_and_a_digest(tmp_path):
    db = f"sqlite:///{tmp_path / 't.db'}"
    done = run_json("simulate", "--tournament", "swiss", "--players", "16", "--rounds", "4", "--ruleset", "deckduel",
                    "--seed", "5", "--db", db, "--json", cwd=tmp_path)
    # 16 entrants, 4 rounds of 8 one-battle sets, ranked 1 to 16
    assert (done["players"], done["rounds"], done["sets"]) == (16, 4, 32)
    assert [p["rank"] for p in done["standings"]] == list(range(1, 17))
    assert done["champion"] == done["standings"][0]["id"]
    audited = run("audit", "tournament", done["tournament_id"], "--db", db, cwd=tmp_path)
    assert audited.returncode == 0, audited.stderr
    lines = audited.stdout.splitlines()
    assert lines[0] == f"tournament {done['tournament_id']}: 4 rounds, 32 sets"
    assert lines[1].startswith(f"ok · champion {done['champion']} · digest ")


def test_bad_tournaments_are_one_error_line(tmp_path):
    db = f"sqlite:///{tmp_path / 't.db'}"
    base = ["simulate", "--ruleset", "deckduel", "--db", db]
    assert_clean_error(run(*base, "--tournament", "swiss", "--players", "4", "--rounds", "0", cwd=tmp_path), "rounds")
    assert_clean_error(run(*base, "--tournament", "knockout", "--players", "4", cwd=tmp_path), "format")
    assert_clean_error(run(*base, "--tournament", "swiss", cwd=tmp_path), "--players")
    assert_clean_error(run("audit", "tournament", "nope", "--db", db, cwd=tmp_path), "tournament")


def test_an_exported_tournament_audits_from_the_file_alone_to_the_same_digest(tmp_path):
    db = f"sqlite:///{tmp_path / 't.db'}"
    done = run_json("simulate", "--tournament", "elimination", "--players", "5", "--ruleset", "deckduel",
                    "--seed", "8", "--db", db, "--json", cwd=tmp_path)
    stored = run_json("audit", "tournament", done["tournament_id"], "--db", db, "--json", cwd=tmp_path)
    exported = tmp_path / "t.jsonl.gz"
    assert run("replay", "export", "--tournament", done["tournament_id"], "-o", str(exported), "--db", db,
               cwd=tmp_path).returncode == 0
    # audited with no database at all: another directory, no --db
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    filed = run_json("audit", "tournament", str(exported), "--json", cwd=elsewhere)
    assert filed["status"] == "ok" and filed["digest"] == stored["digest"] and filed["sets"] == stored["sets"]
    assert not list(elsewhere.glob("*.db"))
    # a file edited by hand fails at the edited event; one cut short is refused as such
    lines = gzip.decompress(exported.read_bytes()).splitlines()
    header = orjson.loads(lines[0])
    last = orjson.loads(lines[header["events"]])                 # the TournamentEnded line
    last["data"]["champion"] = "someone else"
    edited = tmp_path / "edited.jsonl"
    edited.write_bytes(b"\n".join([*lines[:header["events"]], orjson.dumps(last), *lines[header["events"] + 1:]]))
    failed = run("audit", "tournament", str(edited), cwd=elsewhere)
    assert failed.returncode == 1 and "FAIL at seq" in failed.stdout
    short = tmp_path / "short.jsonl"
    short.write_bytes(b"\n".join(lines[:-3]))
    assert_clean_error(run("audit", "tournament", str(short), cwd=elsewhere), "cut short")
