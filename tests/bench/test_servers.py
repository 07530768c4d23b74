"""The benchmarks that start `ringside serve`, each run as a script at the smallest size its
command line allows: the real code path, servers, load generators and all. The figures are
never asserted (bench/ is never timed in tests), only their shape."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

ROOT = Path(__file__).resolve().parents[2]
MEASURE = {"rps", "p50_ms", "p99_ms", "non_2xx", "cpu_ms", "ratio"}
SPECTATED = {"spectators", "p50_ms", "p99_ms", "round_trip_p50_ms", "round_trip_p99_ms",
             "server_cpu_ms_per_command", "runs", "deliveries", "commands"}


def need_wrk() -> None:
    """As tests/conftest.py does for the servers: fail under RINGSIDE_REQUIRE_SERVICES=1."""
    if shutil.which("wrk") is not None:
        return
    message = "wrk is not installed (scripts/wrk installs it)"
    if os.environ.get("RINGSIDE_REQUIRE_SERVICES") == "1":
        pytest.fail(message + " (RINGSIDE_REQUIRE_SERVICES=1)")
    pytest.skip(message)


def bench_json(script: str, *args: str) -> dict[str, dict[str, object]]:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / script), *args, "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, dict[str, object]] = orjson.loads(done.stdout)
    return found


def test_commands_measures_baseline_creates_commands_and_reads() -> None:
    need_wrk()
    found = bench_json("commands.py", "--store", "sqlite", "--seconds", "1", "--connections", "2", "--battles", "0")
    assert set(found) == {"sqlite"}
    assert set(found["sqlite"]) == {"baseline", "commands", "reads", "creates"}
    for name, row in found["sqlite"].items():
        assert set(row) == MEASURE, name
        assert all(isinstance(row[key], (int, float)) for key in MEASURE), (name, row)
        assert row["rps"] > 0, (name, row)
    # Commands may outrun the battles created (each seat takes one), and then repeat a refused one.
    assert all(found["sqlite"][name]["non_2xx"] == 0 for name in ("baseline", "creates", "reads")), found
    assert found["sqlite"]["baseline"]["ratio"] == 1.0


def test_spectators_get_every_seq_once() -> None:
    # The script itself fails when a spectator misses or repeats a seq.
    found = bench_json("spectators.py", "--only", "one_worker", "--runs", "1", "--commands", "2",
                       "--spectators", "4")
    assert set(found) == {"one_worker"}
    row = found["one_worker"]
    assert set(row) == SPECTATED
    assert row["spectators"] == 4 and row["commands"] == 2
    assert isinstance(row["deliveries"], int) and row["deliveries"] >= 2 * 4
    assert all(isinstance(row[key], float) for key in SPECTATED - {"spectators", "runs", "deliveries", "commands"})
    assert isinstance(row["runs"], list) and len(row["runs"]) == 1


def test_clocks_times_out_every_expiring_battle_exactly_once() -> None:
    # The script itself fails when an expiring battle gets no timeout, or any battle two.
    need_wrk()
    found = bench_json("clocks.py", "--battles", "30", "--expiring", "10", "--window", "3", "--pairs", "1",
                       "--seconds", "1", "--connections", "2", "--command-battles", "0")
    assert set(found) == {"timeouts", "commands"}
    timeouts, commands = found["timeouts"], found["commands"]
    assert {"battles", "p50_ms", "p99_ms", "expiring", "timed_out", "late_max_ms"} <= set(timeouts)
    assert (timeouts["battles"], timeouts["expiring"], timeouts["timed_out"]) == (30, 10, 10)
    assert all(isinstance(timeouts[key], float) for key in ("p50_ms", "p99_ms", "late_max_ms")), timeouts
    assert {"with_clocks_rps", "without_clocks_rps", "ratio", "pairs"} <= set(commands)
    assert commands["pairs"] == 1
    assert all(isinstance(commands[key], float) and commands[key] > 0
               for key in ("with_clocks_rps", "without_clocks_rps", "ratio")), commands
