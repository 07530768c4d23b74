"""Bad input, in process: one `error:` line on stderr, nothing else, and a non-zero exit."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from api.cli import app
from replays.format import read, write
from tests.replays.helpers import rechain

ROOT = Path(__file__).resolve().parents[2]
REFUSED = "redis://127.0.0.1:1/0"       # nothing listens on port 1
AS_P9 = "error: --as: must be spectator, all or a seat (p1, p2), not 'p9'"


def ringside(*args: str):
    return CliRunner().invoke(app, list(args))


def only_error(result) -> str:
    """The single stderr line of a failed command; nothing on stdout, no exception escaping."""
    assert result.exit_code == 1, (result.exit_code, result.stdout, result.stderr, result.exception)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('cli') / 'c.db'}"


@pytest.fixture(scope="module")
def battle_id(db) -> str:
    """A stored deckduel battle of 187 events (seed 3)."""
    result = ringside("simulate", "--ruleset", "deckduel", "--seed", "3", "--db", db)
    return result.stdout.splitlines()[1]


@pytest.fixture(autouse=True)
def no_redis_env(monkeypatch):
    monkeypatch.delenv("RINGSIDE_REDIS_URL", raising=False)


@pytest.mark.parametrize("command", [["projections", "run"], ["projections", "rebuild"], ["serve"]])
def test_unreachable_redis(command, db):
    assert only_error(ringside(*command, "--redis", REFUSED, "--db", db)) == \
        f"error: cannot reach Redis at {REFUSED}: Connection refused"


@pytest.mark.parametrize("command", [["projections", "run"], ["projections", "rebuild"], ["serve"]])
def test_not_a_redis_url(command, db):
    assert only_error(ringside(*command, "--redis", "notaurl", "--db", db)) == (
        "error: --redis: not a Redis URL: notaurl "
        "(must specify one of the following schemes (redis://, rediss://, unix://))")


def test_a_bad_redis_url_from_the_environment_names_the_variable(db, monkeypatch):
    monkeypatch.setenv("RINGSIDE_REDIS_URL", "redis://127.0.0.1:x/0")
    assert only_error(ringside("projections", "run", "--db", db)) == (
        "error: RINGSIDE_REDIS_URL: not a Redis URL: redis://127.0.0.1:x/0 "
        "(Port could not be cast to integer value as 'x')")


def test_log_refuses_an_unknown_perspective(db, battle_id):
    assert only_error(ringside("log", battle_id, "--as", "p9", "--db", db)) == AS_P9


def test_replay_show_and_export_refuse_an_unknown_perspective(db, battle_id, tmp_path):
    replay = str(tmp_path / "b.jsonl")
    assert ringside("replay", "export", battle_id, "-o", replay, "--db", db).exit_code == 0
    assert only_error(ringside("replay", "show", replay, "--as", "p9")) == AS_P9
    assert only_error(ringside("replay", "show", battle_id, "--as", "p9", "--db", db)) == AS_P9
    assert only_error(ringside("replay", "export", battle_id, "--as", "p9", "--db", db)) == AS_P9


def test_known_perspectives_are_still_shown(db, battle_id):
    for viewer in ("p2", "all", "spectator"):
        result = ringside("log", battle_id, "--as", viewer, "--from", "187", "--db", db)
        assert result.exit_code == 0, result.stderr
        assert result.stdout.split()[:2] == ["187", "engine.BattleEnded"]


def test_a_setup_that_is_not_an_object_names_the_option_once(db):
    result = ringside("simulate", "--ruleset", "deckduel", "--setup", "[1,2]", "--db", db)
    assert only_error(result) == "error: --setup: the setup must be a JSON object"


@pytest.mark.parametrize("extra", [[], ["--set", "3"]])
def test_a_failing_setup_prints_no_blank_line(db, extra):
    result = ringside("simulate", "--ruleset", "deckduel", *extra, "--setup", '{"p1":{"character":"x"}}',
                      "--db", db)
    assert only_error(result) == "error: setup.p1.character: unknown character 'x'; known: kira, brom, vex"


def test_an_unknown_set_mode_names_the_option(db):
    result = ringside("simulate", "--ruleset", "deckduel", "--set", "3", "--mode", "most", "--db", db)
    assert only_error(result) == "error: --mode must be one of best_of, all, not 'most'"


def test_a_stored_set_prints_its_score_readably(db):
    result = ringside("simulate", "--ruleset", "deckduel", "--set", "3", "--seed", "1", "--db", db)
    assert result.exit_code == 0, result.stderr
    last = result.stdout.splitlines()[-1]
    assert last.startswith("set ") and last.endswith(": score p1 1 - p2 2, winner p2"), last


def test_replay_verify_names_a_broken_file_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.jsonl").write_text('{"format":\n')
    result = ringside("replay", "verify", "broken.jsonl", "missing.jsonl")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "FAIL broken.jsonl: line 1 is not valid JSON (truncated or corrupted)",
        "FAIL missing.jsonl: cannot read: No such file or directory"]


def test_replay_verify_exits_1_when_any_file_fails_even_beside_an_unverifiable_one(db, battle_id, tmp_path):
    good = tmp_path / "good.jsonl"
    assert ringside("replay", "export", battle_id, "-o", str(good), "--db", db).exit_code == 0
    replay = read(good)
    replay.header["ruleset"]["version"] = "0.9.0"
    replay.events[0]["data"]["ruleset_version"] = "0.9.0"
    rechain(replay.events)
    pinned = tmp_path / "pinned.jsonl"
    write(replay, pinned)
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(good.read_bytes()[:-40])
    assert ringside("replay", "verify", str(good), str(pinned)).exit_code == 2
    for files in ([pinned, broken], [broken, pinned, good]):
        result = ringside("replay", "verify", *map(str, files))
        assert result.exit_code == 1, result.stdout
        assert f"UNVERIFIABLE {pinned}: " in result.stdout and f"FAIL {broken}: " in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "--ruleset", "deckduel", "--battles", "0"],
     "error: ringside simulate: Invalid value for '--battles': Input should be greater than or equal to 1 (see --help)"),
    (["nosuch"], "error: ringside: No such command 'nosuch'. (see --help)"),
    (["log", "x", "--bogus"], "error: ringside log: No such option: --bogus (see --help)"),
])
def test_a_usage_error_is_one_error_line_and_exit_2(args, message):
    done = subprocess.run([sys.executable, "-c", "from api.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", message + "\n")
