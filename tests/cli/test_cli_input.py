"""Bad input: one `error:` line on stderr, nothing else, and a non-zero exit."""
from __future__ import annotations

from pathlib import Path

import pytest

from replays.format import read, write
from tests.cli.helpers import Ran, run
from tests.replays.helpers import rechain

REFUSED = "redis://127.0.0.1:1/0"       # nothing listens on port 1
AS_P9 = "error: --as: must be spectator, all or a seat (p1, p2), not 'p9'"


def only_error(done: Ran) -> str:
    """The single stderr line of a failed command; nothing on stdout, no exception escaping."""
    assert done.returncode == 1, done
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    """The commands' working directory, holding the database."""
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module")
def db(work) -> str:
    return f"sqlite:///{work / 'c.db'}"


@pytest.fixture(scope="module")
def battle_id(work, db) -> str:
    """A stored deckduel battle of 187 events (seed 3)."""
    done = run("simulate", "--ruleset", "deckduel", "--seed", "3", "--db", db, cwd=work)
    return done.stdout.splitlines()[1]


@pytest.fixture(autouse=True)
def no_redis_env(monkeypatch):
    monkeypatch.delenv("RINGSIDE_REDIS_URL", raising=False)


@pytest.mark.parametrize("command", [["projections", "run"], ["projections", "rebuild"], ["serve"]])
def test_unreachable_redis(command, work, db):
    assert only_error(run(*command, "--redis", REFUSED, "--db", db, cwd=work)) == \
        f"error: cannot reach Redis at {REFUSED}: Connection refused"


@pytest.mark.parametrize("command", [["projections", "run"], ["projections", "rebuild"], ["serve"]])
def test_not_a_redis_url(command, work, db):
    assert only_error(run(*command, "--redis", "notaurl", "--db", db, cwd=work)) == (
        "error: --redis: not a Redis URL: notaurl "
        "(must specify one of the following schemes (redis://, rediss://, unix://))")


def test_a_bad_redis_url_from_the_environment_names_the_variable(work, db, monkeypatch):
    monkeypatch.setenv("RINGSIDE_REDIS_URL", "redis://127.0.0.1:x/0")
    assert only_error(run("projections", "run", "--db", db, cwd=work)) == (
        "error: RINGSIDE_REDIS_URL: not a Redis URL: redis://127.0.0.1:x/0 "
        "(Port could not be cast to integer value as 'x')")


def test_log_refuses_an_unknown_perspective(work, db, battle_id):
    assert only_error(run("log", battle_id, "--as", "p9", "--db", db, cwd=work)) == AS_P9


def test_replay_show_and_export_refuse_an_unknown_perspective(work, db, battle_id, tmp_path):
    replay = str(tmp_path / "b.jsonl")
    assert run("replay", "export", battle_id, "-o", replay, "--db", db, cwd=work).returncode == 0
    assert only_error(run("replay", "show", replay, "--as", "p9", cwd=work)) == AS_P9
    assert only_error(run("replay", "show", battle_id, "--as", "p9", "--db", db, cwd=work)) == AS_P9
    assert only_error(run("replay", "export", battle_id, "--as", "p9", "--db", db, cwd=work)) == AS_P9


def test_known_perspectives_are_still_shown(work, db, battle_id):
    for viewer in ("p2", "all", "spectator"):
        done = run("log", battle_id, "--as", viewer, "--from", "187", "--db", db, cwd=work)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split()[:2] == ["187", "engine.BattleEnded"]


def test_a_setup_that_is_not_an_object_names_the_option_once(work, db):
    done = run("simulate", "--ruleset", "deckduel", "--setup", "[1,2]", "--db", db, cwd=work)
    assert only_error(done) == "error: --setup: the setup must be a JSON object"


@pytest.mark.parametrize("extra", [[], ["--set", "3"]])
def test_a_failing_setup_prints_no_blank_line(work, db, extra):
    done = run("simulate", "--ruleset", "deckduel", *extra, "--setup", '{"p1":{"character":"x"}}',
               "--db", db, cwd=work)
    assert only_error(done) == "error: setup.p1.character: unknown character 'x'; known: kira, brom, vex"


def test_an_unknown_set_mode_names_the_option(work, db):
    done = run("simulate", "--ruleset", "deckduel", "--set", "3", "--mode", "most", "--db", db, cwd=work)
    assert only_error(done) == "error: --mode must be one of best_of, all, not 'most'"


def test_a_stored_set_prints_its_score_readably(work, db):
    done = run("simulate", "--ruleset", "deckduel", "--set", "3", "--seed", "1", "--db", db, cwd=work)
    assert done.returncode == 0, done.stderr
    last = done.stdout.splitlines()[-1]
    assert last.startswith("set ") and last.endswith(": score p1 1 - p2 2, winner p2"), last


def test_replay_verify_names_a_broken_file_once(tmp_path):
    (tmp_path / "broken.jsonl").write_text('{"format":\n')
    done = run("replay", "verify", "broken.jsonl", "missing.jsonl", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "FAIL broken.jsonl: line 1 is not valid JSON (truncated or corrupted)",
        "FAIL missing.jsonl: cannot read: No such file or directory"]


def test_replay_verify_exits_1_when_any_file_fails_even_beside_an_unverifiable_one(work, db, battle_id, tmp_path):
    good = tmp_path / "good.jsonl"
    assert run("replay", "export", battle_id, "-o", str(good), "--db", db, cwd=work).returncode == 0
    replay = read(good)
    replay.header["ruleset"]["version"] = "0.9.0"
    replay.events[0]["data"]["ruleset_version"] = "0.9.0"
    rechain(replay.events)
    pinned = tmp_path / "pinned.jsonl"
    write(replay, pinned)
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(good.read_bytes()[:-40])
    assert run("replay", "verify", str(good), str(pinned), cwd=work).returncode == 2
    for files in ([pinned, broken], [broken, pinned, good]):
        done = run("replay", "verify", *map(str, files), cwd=work)
        assert done.returncode == 1, done.stdout
        assert f"UNVERIFIABLE {pinned}: " in done.stdout and f"FAIL {broken}: " in done.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "--ruleset", "deckduel", "--battles", "0"],
     "error: ringside simulate: Invalid value for '--battles': Input should be greater than or equal to 1 (see --help)"),
    (["nosuch"], "error: ringside: No such command 'nosuch'. (see --help)"),
    (["log", "x", "--bogus"], "error: ringside log: No such option: --bogus (see --help)"),
])
def test_a_usage_error_is_one_error_line_and_exit_2(args, message, tmp_path):
    done = run(*args, cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", message + "\n")
