"""The benchmarks that run in this process, each at the smallest size its command line allows:
the real code path, so that a change elsewhere that breaks a benchmark fails here first. The
figures themselves are never asserted (bench/ is never timed in tests), only their shape."""
from __future__ import annotations

import os
import re
import subprocess

import orjson
import pytest
from fastapi.testclient import TestClient
from uvicorn.importer import import_from_string

from bench import cpu, leaderboard, matchmaking, run, seek
from domain.engine.ruleset import all_rulesets

RUN_RATES = {"decisions_per_s", "sim_events_per_s", "baseline_chain_only_events_per_s",
             "rebuild_decoded_events_per_s", "rebuild_sqlite_events_per_s",
             "baseline_sqlite_select_events_per_s", "verify_events_per_s"}
RUN_PLAYOUTS = {"playout_ms", "baseline_full_path_playout_ms", "playout_speedup"}
RUN_RATIOS = {"decisions_ratio", "verify_ratio"}
SEEK_TIMES = {f"{name}_{pct}_ms" for name in ("state", "view", "baseline_no_keyframes") for pct in ("p50", "p99")}
LEADERBOARD_RATES = {"leaderboards_sets_per_s", "baseline_zincrby_sets_per_s", "baseline_openskill_sets_per_s",
                     "baseline_log_read_sets_per_s"}


def printed_json(capsys: pytest.CaptureFixture[str]) -> dict[str, float]:
    found = orjson.loads(capsys.readouterr().out)
    assert all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in found.values()), found
    return found


@pytest.mark.parametrize("ruleset", sorted(all_rulesets()))
def test_run_measures_every_ruleset(ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    run.main(["--ruleset", ruleset, "--battles", "1", "--repeats", "1", "--json"])
    found = printed_json(capsys)
    assert set(found) == {"battles", "events", "decisions"} | RUN_RATES | RUN_PLAYOUTS | RUN_RATIOS
    assert found["battles"] == 1 and found["events"] > 0 and found["decisions"] > 0
    assert all(found[key] > 0 for key in RUN_RATES | RUN_PLAYOUTS | RUN_RATIOS)
    assert found["playout_speedup"] == found["baseline_full_path_playout_ms"] / found["playout_ms"]


def test_a_ratio_is_the_median_of_each_repeat_s_rate_over_the_baseline_beside_it() -> None:
    # given a clock that only the work and the baseline move: each repeat runs one slice of
    # each, the work (10 decisions) for 1, 1 and 4 seconds, the baseline (20 events) for 2, 1 and 2
    now = [0.0]
    spans = iter([1.0, 2.0, 1.0, 1.0, 4.0, 2.0])

    def tick() -> None:
        now[0] += next(spans)
    # when the two are interleaved over three repeats
    rate, ratio, bases = run.interleaved_rate([(tick, 10)], [(tick, 20)], 3, clock=lambda: now[0])
    # then the rates are 10, 10 and 2.5 a second (median 10), the baselines 10, 20 and 10, and
    # each repeat's ratio 10 / 10 = 1, 10 / 20 = 0.5 and 2.5 / 10 = 0.25: median 0.5, not the
    # ratio of the medians (10 / 10 = 1)
    assert (rate, ratio, bases) == (10.0, 0.5, [10.0, 20.0, 10.0])


def test_run_prints_each_rate_beside_its_target(capsys: pytest.CaptureFixture[str]) -> None:
    run.main(["--battles", "1", "--repeats", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"deckduel: 1 battles, \d+ events, \d+ decisions; medians of 1 runs, one core", lines[0])
    rows = {line.split()[0]: line for line in lines[1:]}
    assert set(rows) == RUN_RATES | RUN_PLAYOUTS
    for key, target in run.TARGETS.items():
        assert re.search(rf"target >= {target:,}  (met|MISSED)$", rows[key]), rows[key]
    for key, ratio in run.RATIO_TARGETS.items():
        assert re.search(rf"\d\.\d{{4}} x baseline, target >= {ratio}  (met|MISSED)$", rows[key]), rows[key]


def test_seek_times_state_and_view_at_random_seqs(capsys: pytest.CaptureFixture[str]) -> None:
    seek.main(["--events", "1", "--seeks", "1", "--json"])
    found = printed_json(capsys)
    assert set(found) == {"events", "seeks", "keyframe_every"} | SEEK_TIMES
    assert found["seeks"] == 1 and found["keyframe_every"] == 100 and found["events"] > 100
    assert all(found[key] > 0 for key in SEEK_TIMES)


def test_seek_battle_is_as_long_as_asked() -> None:
    """The bench's bot never strikes a leader, so the battle lasts until the turn limit."""
    assert len(seek.long_battle(3000).records) >= 3000


def test_leaderboard_rates_every_set(redis_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    leaderboard.main(["--sets", "2", "--players", "2", "--repeats", "1", "--redis", redis_url, "--json"])
    found = printed_json(capsys)
    assert set(found) == {"sets", "logged_records", "repeats"} | LEADERBOARD_RATES
    assert found["sets"] == 2 and found["repeats"] == 1 and found["logged_records"] > 0
    assert all(found[key] > 0 for key in LEADERBOARD_RATES)


def test_minimal_baseline_echoes_the_body_as_one_event() -> None:
    # Two or more workers load the app by this import string (bench/commands.py on PostgreSQL).
    app = import_from_string("bench.minimal:create_app")()
    with TestClient(app) as client:
        answer = client.post("/echo", content=b'{"command":{"type":"mulligan","cards":[]}}')
    assert answer.status_code == 200
    assert answer.json() == {"seq": 1, "events": [{"command": {"type": "mulligan", "cards": []}}]}


def test_cpu_reads_this_process_and_its_session() -> None:
    sid, seconds = cpu.process_cpu(os.getpid()) or (None, None)
    assert sid == os.getsid(0)
    assert seconds is not None and seconds > 0
    assert cpu.session_cpu([sid]) >= seconds


def test_cpu_of_an_ended_process_is_none() -> None:
    ended = subprocess.Popen(["true"])
    ended.wait()
    assert cpu.process_cpu(ended.pid) is None


def test_matchmaking_measures_one_wave_over_ten_thousand_tickets(capsys: pytest.CaptureFixture[str]) -> None:
    matchmaking.main(["--only", "wave", "--repeats", "1", "--json"])
    found = orjson.loads(capsys.readouterr().out)
    assert set(found) == {"wave"} and found["wave"]["tickets"] == 10_000
    assert 0 < found["wave"]["pairs"] <= 5_000 and found["wave"]["ms"] > 0 and found["wave"]["baseline_sort_ms"] > 0
