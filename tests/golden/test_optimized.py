"""Every golden log and every replay fixture re-simulates to the same events under `python -O`.

`-O` skips `assert` statements and all they call: rules that did work inside one would make
a battle's events, and so its chain, depend on how Python was started. One `python -O`
process re-plays every golden battle and compares it with its pinned log, and verifies every
earlier ring golden log and every fixture by re-simulation (`python -m
tests.golden.test_optimized` prints what it found, as JSON).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

from domain.engine.battle import fold
from domain.engine.events import decode_record
from domain.engine.ruleset import ruleset_of
from replays.format import build, read
from replays.verify import Report, verify

from .golden import all_battles, first_difference, golden_path, log_lines

TESTS = Path(__file__).resolve().parent.parent
GOLDEN = TESTS / "golden"
FIXTURES = TESTS / "replays" / "fixtures"


def earlier_golden_logs() -> list[Path]:
    return sorted(GOLDEN.glob("ring_*/*.jsonl"))


def fixtures() -> list[Path]:
    return sorted([*FIXTURES.glob("*.jsonl"), *FIXTURES.glob("*/*.jsonl")])


def stored_files() -> list[str]:
    """Every golden log and replay fixture, by its path under tests/."""
    found = [*GOLDEN.glob("*.jsonl"), *earlier_golden_logs(), *fixtures()]
    return sorted(str(path.relative_to(TESTS)) for path in found)


def replayed_golden(name: str) -> str:
    """A golden battle played again: "ok", or where its log first differs from the pinned one."""
    try:
        _, records = all_battles()[name]()
    except Exception as exc:            # a scripted command the re-played rules refuse, say
        return f"{name}: {type(exc).__name__}: {exc}"
    return first_difference(name, golden_path(name).read_text().splitlines(), log_lines(records)) or "ok"


def verified_golden_log(path: Path) -> str:
    """An earlier version's golden log, verified as the replay of the battle it records."""
    lines = [orjson.loads(line) for line in path.read_text().splitlines()]
    records = [decode_record(x["seq"], x["type"], x["data"], x["chain"], x.get("v", 1)) for x in lines]
    ruleset, state = ruleset_of(records[0].event), None
    for rec in records:
        state = fold(ruleset, state, rec)
    return outcome_of(verify(build(state, records)))


def outcome_of(report: Report) -> str:
    return "ok" if report.ok else f"{report.status} at seq {report.seq}: {report.reason}"


def resimulated() -> dict[str, object]:
    """What this process found, file by file, and whether it ran optimized."""
    results = {str(golden_path(name).relative_to(TESTS)): replayed_golden(name) for name in all_battles()}
    for path in earlier_golden_logs():
        results[str(path.relative_to(TESTS))] = verified_golden_log(path)
    for path in fixtures():
        results[str(path.relative_to(TESTS))] = outcome_of(verify(read(path)))
    return {"optimize": sys.flags.optimize, "results": results}


def test_every_golden_and_fixture_resimulates_alike_under_python_O():
    done = subprocess.run([sys.executable, "-O", "-m", "tests.golden.test_optimized"], cwd=TESTS.parent,
                          capture_output=True, check=True)
    found = orjson.loads(done.stdout)
    assert found["optimize"] == 1
    assert sorted(found["results"]) == stored_files()
    assert {path: outcome for path, outcome in found["results"].items() if outcome != "ok"} == {}


if __name__ == "__main__":
    sys.stdout.buffer.write(orjson.dumps(resimulated()))
