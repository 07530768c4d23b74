"""The installed `ringside` script, each call a fresh process: the other CLI tests run the
same `main()` in the test process, where every module (and every event topic) is already
imported. These check the entry point, a round trip that registers the topics it reads by
itself, and a refusal's exit status as a shell sees it."""
from __future__ import annotations

import re

import orjson

from tests.cli.helpers import assert_clean_error, run_subprocess


def test_help_lists_every_command(tmp_path):
    done = run_subprocess("--help", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert re.findall(r"^│ (\w+) ", done.stdout, re.MULTILINE) == [
        "rulesets", "simulate", "log", "serve", "bot", "balance", "replay", "audit", "projections"]


def test_simulate_export_and_verify_round_trip(tmp_path):
    done = run_subprocess("simulate", "--ruleset", "deckduel", "--seed", "4", "--db", "sqlite:///s.db", "--json",
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    battle_id, = orjson.loads(done.stdout)["battle_ids"]
    done = run_subprocess("replay", "export", battle_id, "-o", "b.jsonl.gz", "--db", "sqlite:///s.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    done = run_subprocess("replay", "verify", "b.jsonl.gz", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "OK b.jsonl.gz\n", "")


def test_an_unknown_ruleset_is_one_error_line_and_exit_1(tmp_path):
    done = run_subprocess("simulate", "--ruleset", "nosuchgame", "--db", "sqlite:///s.db", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert assert_clean_error(done, "nosuchgame", "deckduel").startswith("error: unknown ruleset")


def test_a_usage_error_is_one_error_line_and_exit_2(tmp_path):
    done = run_subprocess("nosuch", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "error: ringside: No such command 'nosuch'. (see --help)\n")
