"""`ringside serve` announces itself only once it listens and its startup has completed; a busy
port, an unreachable database or a SQLite file that cannot be opened ends in one `error:` line
and no announcement.

Each test runs the installed script in its own process: `serve` configures uvicorn's logging,
sets the database and Redis URLs in the environment, and serves until it is stopped."""
from __future__ import annotations

import os
import signal
import socket
import subprocess

import httpx
import pytest

from tests.api.server import free_port
from tests.cli.helpers import RINGSIDE, assert_clean_error, run_subprocess

UNREACHABLE_DB = "postgresql://nobody@127.0.0.1:1/x?connect_timeout=1"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_busy_port(tmp_path, workers):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        done = run_subprocess("serve", "--port", port, "--workers", workers, "--db", "sqlite:///s.db",
                              cwd=tmp_path, timeout=30)
    assert done.stdout == ""
    assert assert_clean_error(done) == f"error: port {port} on 127.0.0.1 is in use"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_unreachable_database(tmp_path, workers):
    done = run_subprocess("serve", "--port", str(free_port()), "--workers", workers, "--db", UNREACHABLE_DB,
                          cwd=tmp_path, timeout=30)
    assert done.stdout == ""
    # The first connection is the one that takes the schema lock (domain/store.py), and says why it failed.
    assert assert_clean_error(done) == ('error: database: connection failed: connection to server at "127.0.0.1", '
                                        'port 1 failed: Connection refused')


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_sqlite_file_in_a_folder_that_does_not_exist(tmp_path, workers):
    done = run_subprocess("serve", "--port", str(free_port()), "--workers", workers, "--db", "sqlite:///missing/s.db",
                          cwd=tmp_path, timeout=30)
    assert done.stdout == ""
    # One process or several, the database is named first (the views' file would sit beside it).
    assert assert_clean_error(done) == "error: database: unable to open database file"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_announcement_comes_once_the_service_answers(tmp_path, workers):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}
    proc = subprocess.Popen([RINGSIDE, "serve", "--port", str(port), "--workers", workers, "--db", "sqlite:///s.db"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        line = proc.stdout.readline()
        assert line == f"ringside serving on http://127.0.0.1:{port} (docs at /docs), {workers} worker(s)\n"
        assert httpx.get(f"http://127.0.0.1:{port}/rulesets", timeout=5).status_code == 200
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert (proc.returncode, out, err) == (0, "", "")
