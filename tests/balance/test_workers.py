"""A run played in worker processes reports what the same run played in one process does, and
its log resumes a stopped run: the battles it holds are not played again, a last line cut
short is played again, and a log of another run, or a line that is no battle of it, is one
`error:` line that plays and writes nothing."""
from __future__ import annotations

import orjson
import pytest
from typer.testing import CliRunner

from api.cli import app
from domain.balance import play_plan, plan, report, workers
from domain.engine.ruleset import get_ruleset
from domain.rulesets.deckduel.matchups import matchups

DUEL = get_ruleset("deckduel")
RUN = ["balance", "--ruleset", "deckduel", "--bots", "random", "--matchups", "Kira v Brom,Vex v Brom",
       "--seed", "7", "--json"]


def test_worker_processes_play_the_same_battles_in_the_run_order():
    run = plan(DUEL, ["random", "greedy"], 2, "7", matchups=matchups(), only=["Kira v Brom", "Brom v Vex"])
    heard = []
    apart = play_plan(run, lambda fought, number: heard.append((fought.label, number)), jobs=2)
    alone = play_plan(run)
    assert apart == alone
    assert sorted(heard) == [("Brom v Vex", 0), ("Brom v Vex", 1), ("Kira v Brom", 0), ("Kira v Brom", 1)]
    assert orjson.dumps(report(run.as_json(), apart)) == orjson.dumps(report(run.as_json(), alone))


def test_worker_processes_keep_the_first_bot_on_its_side():
    run = plan(DUEL, ["random", "greedy"], 4, "7", matchups=matchups(), only=["Kira v Brom"], first_on="p1")
    assert play_plan(run, jobs=2) == play_plan(run)
    assert [f.policies["p1"] for f in play_plan(run)] == ["random", "random"]


def test_the_command_says_which_half_it_played(tmp_path):
    done = CliRunner().invoke(app, ["balance", "--ruleset", "deckduel", "--bots", "random,greedy", "--first-on", "p2",
                                    "--matchups", "Kira v Brom", "--battles", "4", "--seed", "7",
                                    "--out", str(tmp_path)])
    assert done.exit_code == 0, done.output
    assert "2 battles, 4 per matchup (the half with random on p2)" in done.stdout
    assert "random on p2 against greedy" in done.stdout


def balance(tmp_path, log, *more):
    return CliRunner().invoke(app, [*RUN, "--battles", "2", "--log", str(log), "--out", str(tmp_path / "out"), *more])


@pytest.fixture()
def counted(monkeypatch):
    """The battles the run plays, by matchup label and number."""
    played = []
    real = workers.play_matchup

    def play_matchup(run, matchup, number, watch=None):
        played.append((matchup.label, number))
        return real(run, matchup, number, watch)
    monkeypatch.setattr(workers, "play_matchup", play_matchup)
    return played


def test_a_logged_run_is_not_played_again(tmp_path, counted):
    log = tmp_path / "run.jsonl"
    first = balance(tmp_path, log)
    assert first.exit_code == 0, first.output
    assert len(counted) == 4 and len(log.read_bytes().splitlines()) == 5      # the plan, then 4 battles
    again = balance(tmp_path, log)
    assert again.exit_code == 0, again.output
    assert len(counted) == 4                                                  # none played again
    assert again.stdout == first.stdout


def test_a_longer_run_plays_only_the_battles_the_log_lacks(tmp_path, counted):
    log = tmp_path / "run.jsonl"
    balance(tmp_path, log)
    longer = CliRunner().invoke(app, [*RUN, "--battles", "3", "--log", str(log), "--out", str(tmp_path / "out")])
    assert longer.exit_code == 0, longer.output
    assert counted[4:] == [("Kira v Brom", 2), ("Vex v Brom", 2)]
    shorter = CliRunner().invoke(app, [*RUN, "--battles", "1", "--log", str(log), "--out", str(tmp_path / "out")])
    assert shorter.exit_code == 0 and len(counted) == 6                       # all of it in the log
    assert orjson.loads(shorter.stdout)["battles"] == 2
    fresh = CliRunner().invoke(app, [*RUN, "--battles", "3", "--out", str(tmp_path / "fresh")])
    assert longer.stdout == fresh.stdout


def test_a_line_cut_short_is_played_again(tmp_path, counted):
    log = tmp_path / "run.jsonl"
    whole = balance(tmp_path, log)
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:-1]) + lines[-1][:30])                   # the last battle, torn
    resumed = balance(tmp_path, log)
    assert resumed.exit_code == 0, resumed.output
    assert counted[4:] == [counted[3]]                                        # that battle alone, again
    assert resumed.stdout == whole.stdout
    assert sorted(log.read_bytes().splitlines(keepends=True)) == sorted(lines)


@pytest.mark.parametrize(("spoil", "named"), [
    (lambda lines: [lines[0].replace(b'"seed":"7"', b'"seed":"8"'), *lines[1:]], "another run"),
    (lambda lines: [lines[0], b'{"number": 0}\n', *lines[1:]], "line 2 is not a battle"),
    (lambda lines: [*lines, lines[1].replace(b'"Kira v Brom"', b'"Kira v Kira"')], "line 6 is not a battle"),
    (lambda lines: [b"[]\n", *lines[1:]], "line 1 is not a balance log"),
    (lambda lines: [lines[0].replace(b'"seed":"7"', b'"seed":"8"'), *lines[1:-1], lines[-1][:30]], "another run"),
])
def test_a_log_of_another_run_is_one_error_line(tmp_path, counted, spoil, named):
    log = tmp_path / "run.jsonl"
    balance(tmp_path, log)
    log.write_bytes(b"".join(spoil(log.read_bytes().splitlines(keepends=True))))
    before, out = log.read_bytes(), tmp_path / "other"
    done = CliRunner().invoke(app, [*RUN, "--battles", "2", "--log", str(log), "--out", str(out)])
    assert done.exit_code != 0
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: log:") and named in lines[0], done.stderr
    assert len(counted) == 4 and log.read_bytes() == before and not out.exists()
