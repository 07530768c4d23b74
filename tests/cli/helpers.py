"""Run the installed `ringside` script in a subprocess."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson


def ringside_path() -> str:
    beside = Path(sys.executable).parent / "ringside"
    if beside.exists():
        return str(beside)
    found = shutil.which("ringside")
    assert found, "the ringside script is not installed"
    return found


RINGSIDE = ringside_path()


def run(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "RINGSIDE_DATABASE_URL"}
    env["COLUMNS"] = "200"
    return subprocess.run([RINGSIDE, *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def run_json(*args: str, cwd: Path) -> object:
    done = run(*args, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return orjson.loads(done.stdout)


def assert_clean_error(done: subprocess.CompletedProcess[str], *needles: str) -> str:
    """Non-zero exit, exactly one stderr line starting `error:`, and no traceback anywhere."""
    assert done.returncode != 0, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: "), lines[0]
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr
