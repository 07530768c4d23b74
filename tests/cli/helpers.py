"""Run the `ringside` command: in this process (`run`), or as the installed script in a
subprocess (`run_subprocess`, for the few smoke tests of the script itself)."""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import traceback
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import orjson

from api.cli import main


def ringside_path() -> str:
    beside = Path(sys.executable).parent / "ringside"
    if beside.exists():
        return str(beside)
    found = shutil.which("ringside")
    assert found, "the ringside script is not installed"
    return found


RINGSIDE = ringside_path()
# Every call sees the same environment, whatever runs the tests: no database URL (a command
# without --db uses ./ringside.db) and a wide terminal (no output wrapped at 80 columns).
ENV_DROPPED = ("RINGSIDE_DATABASE_URL",)
ENV_SET = {"COLUMNS": "200"}


@dataclass(frozen=True)
class Ran:
    """A finished command, read as a subprocess's result is."""
    returncode: int
    stdout: str
    stderr: str


def run(*args: str, cwd: Path) -> Ran:
    """`ringside *args` through `api.cli.main`, as the script calls it, in `cwd`. Its exit
    status is the `SystemExit` code; an exception that escapes is exit 1 with the traceback on
    stderr, as Python reports it, so `no_traceback` catches it. The working directory, argv
    and environment (which `serve` writes to) are restored afterwards."""
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)    # `.buffer` for export
    stderr = io.StringIO()
    saved_env, saved_argv, saved_cwd = dict(os.environ), sys.argv, os.getcwd()
    for name in ENV_DROPPED:
        os.environ.pop(name, None)
    os.environ.update(ENV_SET)
    sys.argv = ["ringside", *args]
    try:
        os.chdir(cwd)
        with redirect_stdout(stdout), redirect_stderr(stderr):
            try:
                main()
                returncode = 0
            except SystemExit as exc:
                returncode = exit_status(exc.code)
            except Exception:
                traceback.print_exc()
                returncode = 1
    finally:
        os.chdir(saved_cwd)
        sys.argv = saved_argv
        for name in os.environ.keys() - saved_env.keys():
            del os.environ[name]
        os.environ.update(saved_env)
    return Ran(returncode, stdout.buffer.getvalue().decode(), stderr.getvalue())


def exit_status(code: object) -> int:
    """The status Python's own exit gives `sys.exit(code)`, printing a message as it does."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def run_subprocess(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The installed script in a fresh process, with the same environment changes as `run`."""
    env = {k: v for k, v in os.environ.items() if k not in ENV_DROPPED} | ENV_SET
    return subprocess.run([RINGSIDE, *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def run_json(*args: str, cwd: Path) -> object:
    done = run(*args, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return orjson.loads(done.stdout)


def assert_clean_error(done: Ran | subprocess.CompletedProcess[str], *needles: str) -> str:
    """Non-zero exit, exactly one stderr line starting `error:`, and no traceback anywhere."""
    assert done.returncode != 0, (done.stdout, done.stderr)
    no_traceback(done)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: "), lines[0]
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def no_traceback(done: Ran | subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr


def simulated(work: Path, ruleset: str, battles: int, seed: str) -> object:
    """`ringside simulate` of `battles` battles into `work`/sim.db; its JSON summary."""
    return run_json("simulate", "--ruleset", ruleset, "--battles", str(battles), "--seed", seed,
                    "--db", "sqlite:///sim.db", "--json", cwd=work)


def assert_every_replay_verifies(work: Path, battle_ids: list[str], suffix: str = ".jsonl") -> None:
    """Export each battle of `work`/sim.db, then verify them all in one call: OK for each."""
    names = [f"b{i:02}{suffix}" for i in range(len(battle_ids))]
    exported = [run("replay", "export", bid, "-o", name, "--db", "sqlite:///sim.db", cwd=work).returncode
                for bid, name in zip(battle_ids, names)]
    assert exported == [0] * len(names)
    done = run("replay", "verify", *names, cwd=work)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [f"OK {name}" for name in names]
