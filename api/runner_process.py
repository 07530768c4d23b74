"""The projection runner as a child process of a server (`RINGSIDE_PROJECTIONS=process`).

A server on a SQLite file keeps its views in a SQLite file beside it, and this child keeps
them current: `ringside projections run` with the server's settings. The projections then
never hold the interpreter lock that the server's commands need (on one worker they cost
about as much CPU as the commands themselves), and every process reads the same views.

The child runs at the lowest CPU priority (`NICENESS`). It always has views to catch up on,
and at the same priority it took as much CPU as the server, whose group-commit writer then
waited for a core after each store call: on the durable-commands bench (SQLite, one worker,
runs alternated) the niced child gave 3,577 to 3,904 commands/s against 3,183 to 3,669, and
a lower p99. A niced child still gets every core the server leaves idle; it falls behind
only while the machine is saturated, and catches up in larger pages.

The child is restarted if it dies, stopped when the server stops, and stops by itself when
the server is killed outright (it watches its parent). Two runners over the same views (a
restart overlapping a child still stopping, or several workers) are safe: each applies
a page in one transaction, only past the views' positions.
"""
from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from typing import Protocol

from domain.store import database_url

log = logging.getLogger(__name__)
RESTART_SECONDS = 1.0
NICENESS = 19           # the child's nice value: the lowest priority
STOP_SECONDS = 5.0


class ChildSettings(Protocol):
    """What the child is started with: the server's store, views and Redis (`api.services.Settings`
    is one; it is the server's bootstrap that knows this module, not the other way round)."""
    @property
    def database_url(self) -> str | None: ...
    @property
    def redis_url(self) -> str | None: ...
    @property
    def redis_prefix(self) -> str: ...
    @property
    def state_cache(self) -> int: ...
    @property
    def views_path(self) -> str | None: ...


class RunnerProcess:
    def __init__(self, settings: ChildSettings):
        self.settings = settings
        self.process: subprocess.Popen[bytes] | None = None
        self._closing = threading.Event()
        self._lock = threading.Lock()       # no child is started once closing has begun
        self._watch: threading.Thread | None = None

    def command(self) -> list[str]:
        return [sys.executable, "-m", "api.cli", "projections", "run", "--parent", str(os.getpid())]

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("RINGSIDE_REDIS_URL", "RINGSIDE_VIEWS_PATH")}
        env["RINGSIDE_DATABASE_URL"] = database_url(self.settings.database_url)
        env["RINGSIDE_REDIS_PREFIX"] = self.settings.redis_prefix
        env["RINGSIDE_STATE_CACHE"] = str(self.settings.state_cache)
        if self.settings.redis_url:
            env["RINGSIDE_REDIS_URL"] = self.settings.redis_url
        if self.settings.views_path:
            env["RINGSIDE_VIEWS_PATH"] = os.path.abspath(self.settings.views_path)
        return env

    def start(self) -> None:
        self._spawn()
        self._watch = threading.Thread(target=self._keep_running, name="projections-process", daemon=True)
        self._watch.start()

    def _spawn(self) -> None:
        with self._lock:
            if self._closing.is_set():
                return
            # Its own output is the runner's banner: the server's stdout is the server's. Its
            # own process group: a Ctrl-C meant for the server reaches the server, which then
            # stops it.
            self.process = subprocess.Popen(self.command(), env=self.environment(), stdout=subprocess.DEVNULL,
                                            process_group=0)

    def _keep_running(self) -> None:
        while not self._closing.is_set():
            process = self.process
            assert process is not None
            code = process.wait()
            if self._closing.is_set():
                return
            log.error("the projection runner process exited (%s); starting it again", code)
            if not self._closing.wait(RESTART_SECONDS):
                self._spawn()

    def close(self) -> None:
        with self._lock:
            self._closing.set()
            process = self.process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._watch is not None:
            self._watch.join(timeout=STOP_SECONDS)
