"""Bad input: one readable `error:` line on stderr and a non-zero exit, never a traceback.
`replay verify` instead reports `FAIL <file>: ...` per file and exits 1."""
from __future__ import annotations

import gzip

import orjson
import pytest

from tests.cli.helpers import assert_clean_error, no_traceback, run, run_json

UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """A directory with a database of two battles and a good replay file `good.jsonl`."""
    path = tmp_path_factory.mktemp("errors")
    out = run_json("simulate", "--ruleset", "deckduel", "--battles", "2", "--seed", "5",
                   "--db", "sqlite:///e.db", "--json", cwd=path)
    done = run("replay", "export", out["battle_ids"][0], "-o", "good.jsonl", "--db", "sqlite:///e.db", cwd=path)
    assert done.returncode == 0, done.stderr
    return path


def test_unknown_ruleset(work):
    done = run("simulate", "--ruleset", "nosuchgame", "--battles", "1", "--db", "sqlite:///e.db", cwd=work)
    assert_clean_error(done, "nosuchgame", "deckduel")


def test_bad_setup_field_names_the_field(work):
    setup = '{"p1":{"character":"nobody"},"p2":{"character":"brom"}}'
    done = run("simulate", "--ruleset", "deckduel", "--setup", setup, "--db", "sqlite:///e.db", cwd=work)
    assert_clean_error(done, "setup.p1.character", "nobody")


def test_unknown_setup_key(work):
    done = run("simulate", "--ruleset", "deckduel", "--setup", '{"p1":{"character":"kira"},"p2":'
               '{"character":"brom"},"colour":"red"}', "--db", "sqlite:///e.db", cwd=work)
    assert_clean_error(done, "setup.colour")


def test_invalid_json_in_setup(work):
    done = run("simulate", "--ruleset", "deckduel", "--setup", '{"p1": {', "--db", "sqlite:///e.db", cwd=work)
    assert_clean_error(done, "--setup", "JSON")


def test_setup_from_a_missing_file(work):
    done = run("simulate", "--ruleset", "deckduel", "--setup", "@nope.json", "--db", "sqlite:///e.db", cwd=work)
    assert_clean_error(done, "nope.json")


def test_a_valid_setup_is_used(work):
    setup = '{"p1":{"character":"vex"},"p2":{"character":"kira"}}'
    out = run_json("simulate", "--ruleset", "deckduel", "--setup", setup, "--db", "sqlite:///s.db",
                   "--json", cwd=work)
    done = run("replay", "export", out["battle_ids"][0], "--db", "sqlite:///s.db", cwd=work)
    header = orjson.loads(done.stdout.splitlines()[0])
    assert header["setup"] == orjson.loads(setup)


def test_unknown_bot_policy_and_wrong_bot_count(work):
    assert_clean_error(run("simulate", "--ruleset", "deckduel", "--bots", "random,wizard",
                           "--db", "sqlite:///e.db", cwd=work), "wizard")
    assert_clean_error(run("simulate", "--ruleset", "deckduel", "--bots", "random",
                           "--db", "sqlite:///e.db", cwd=work), "--bots")


def test_bad_database_url(work):
    assert_clean_error(run("log", UNKNOWN_ID, "--db", "mysql://x@y/z", cwd=work), "mysql://x@y/z")


@pytest.mark.parametrize("battle_id", [UNKNOWN_ID, "not-a-uuid"])
def test_unknown_battle_for_log(work, battle_id):
    assert_clean_error(run("log", battle_id, "--db", "sqlite:///e.db", cwd=work), battle_id)


@pytest.mark.parametrize("battle_id", [UNKNOWN_ID, "not-a-uuid"])
def test_unknown_battle_for_replay_export(work, battle_id):
    done = run("replay", "export", battle_id, "-o", "out.jsonl", "--db", "sqlite:///e.db", cwd=work)
    assert_clean_error(done, battle_id)
    assert not (work / "out.jsonl").exists()


def verify_fails(work, name: str, *needles: str) -> str:
    done = run("replay", "verify", name, cwd=work)
    no_traceback(done)
    assert done.returncode == 1, done.stdout + done.stderr
    line = done.stdout.strip()
    assert line.startswith(f"FAIL {name}: "), line
    assert len(line.splitlines()) == 1
    for needle in needles:
        assert needle in line, (needle, line)
    return line


def test_malformed_replay_not_json(work):
    (work / "garbage.jsonl").write_text("this is not json\n")
    verify_fails(work, "garbage.jsonl", "line 1")
    assert_clean_error(run("replay", "show", "garbage.jsonl", cwd=work), "line 1")
    assert_clean_error(run("replay", "diff", "garbage.jsonl", "good.jsonl", cwd=work), "line 1")


def test_not_a_replay_header(work):
    (work / "other.jsonl").write_text('{"format":"something-else"}\n')
    verify_fails(work, "other.jsonl", "header")


def test_truncated_mid_line(work):
    raw = (work / "good.jsonl").read_bytes()
    lines = raw.splitlines()
    (work / "cut.jsonl").write_bytes(raw[:len(raw) - len(lines[-1]) // 2 - 1])
    verify_fails(work, "cut.jsonl", f"line {len(lines)}")


def test_truncated_at_a_line_boundary(work):
    lines = (work / "good.jsonl").read_bytes().splitlines()
    (work / "short.jsonl").write_bytes(b"\n".join(lines[:-5]) + b"\n")
    last_seq = orjson.loads(lines[-6])["seq"]
    verify_fails(work, "short.jsonl", f"first bad event seq {last_seq + 1}:", "not ended")


def test_missing_file(work):
    verify_fails(work, "missing.jsonl", "missing.jsonl")
    assert_clean_error(run("replay", "show", "missing.jsonl", cwd=work), "missing.jsonl")


def test_empty_file(work):
    (work / "empty.jsonl").write_bytes(b"")
    verify_fails(work, "empty.jsonl", "empty")
    assert_clean_error(run("replay", "show", "empty.jsonl", cwd=work), "empty")


def test_broken_gzip(work):
    (work / "broken.jsonl.gz").write_bytes(gzip.compress((work / "good.jsonl").read_bytes())[:40])
    verify_fails(work, "broken.jsonl.gz", "gzip")


def test_header_of_the_wrong_shape_fails_without_a_traceback(work):
    lines = (work / "good.jsonl").read_bytes().splitlines()
    header = orjson.loads(lines[0])
    header["seed"] = "abc"
    (work / "shape.jsonl").write_bytes(b"\n".join([orjson.dumps(header), *lines[1:]]) + b"\n")
    verify_fails(work, "shape.jsonl", "seq 1")


def test_show_past_the_end(work):
    n = len((work / "good.jsonl").read_bytes().splitlines()) - 1
    assert_clean_error(run("replay", "show", "good.jsonl", "--at", str(n + 1), cwd=work), str(n))


def test_a_good_file_among_bad_ones_still_reports_ok(work):
    done = run("replay", "verify", "good.jsonl", "missing.jsonl", cwd=work)
    assert done.returncode == 1
    out = done.stdout.strip().splitlines()
    assert out[0] == "OK good.jsonl" and out[1].startswith("FAIL missing.jsonl: ")


def test_a_replay_line_nested_too_deep_is_one_error_line_on_every_replay_command(tmp_path):
    # given a replay whose event line nests 600 arrays in its data (orjson stops at 255)
    line = b'{"seq":2,"type":"engine.X","data":{"x":' + b"[" * 600 + b"]" * 600 + b'},"chain":null}'
    path = tmp_path / "deep.jsonl"
    path.write_bytes(b'{"format":"ringside-replay","version":1}\n' + line + b"\n")
    # then verify fails it, and show and import refuse it, each in one line
    verified = run("replay", "verify", str(path), cwd=tmp_path)
    assert (verified.returncode, verified.stdout.strip()) == (
        1, f"FAIL {path}: a line is nested more than 128 levels deep")
    for command in (["replay", "show", str(path)], ["replay", "import", str(path)]):
        assert_clean_error(run(*command, cwd=tmp_path), "a line is nested more than 128 levels deep")
