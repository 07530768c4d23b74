"""`ringside serve`: the HTTP service, on the embedded SQLite default unless told otherwise.

What bad input can break is checked before the service starts, each in one `error:` line:
the database and Redis URLs and whether Redis answers, the other settings taken from the
environment (such as `RINGSIDE_SET_SWEEP_SECONDS`), the port (bound here, before any
worker starts), and the database (the app is built here; with workers, a connection is
opened here once). `ringside serving on` is printed only once the server listens and the
app's startup has completed: in every worker, with more than one.
"""
from __future__ import annotations

import errno
import os
import socket
import time
from collections.abc import Callable
from typing import Any

import typer
import uvicorn
from uvicorn.supervisors.multiprocess import Multiprocess

from .cli_errors import check_redis, fail

BACKLOG = 2048      # uvicorn's default
WS_PROTOCOL = "api.adapters.uvicorn:FramesProtocol"


def serve(host: str = typer.Option("127.0.0.1", help="Interface to listen on."),
          port: int = typer.Option(8000, min=1, max=65535, help="Port to listen on."),
          workers: int = typer.Option(1, min=1, max=64, help="Worker processes (use PostgreSQL + Redis for > 1)."),
          db: str = typer.Option(None, "--db", help="Database URL (default: $RINGSIDE_DATABASE_URL or sqlite:///./ringside.db)"),
          redis: str = typer.Option(None, "--redis", help="Redis URL for views and fan-out (default: $RINGSIDE_REDIS_URL; none: in-memory)."),
          log_level: str = typer.Option("warning", help="uvicorn log level.")) -> None:
    """Run the HTTP/WebSocket service."""
    from domain.store import store_env

    from .services import Settings

    store_env(db)       # a bad URL fails here, in one line
    redis_url = redis or os.environ.get("RINGSIDE_REDIS_URL")
    if redis_url:
        check_redis(redis_url, "--redis" if redis else "RINGSIDE_REDIS_URL")
    if db:
        os.environ["RINGSIDE_DATABASE_URL"] = db
    if redis:
        os.environ["RINGSIDE_REDIS_URL"] = redis
    Settings.from_env()
    sock = listening_socket(host, port)
    config = server_config(built_app() if workers == 1 else "api.app:server_app", workers, log_level)

    def announce() -> None:
        typer.echo(f"ringside serving on http://{host}:{port} (docs at /docs), {workers} worker(s)")

    if workers == 1:
        started = serve_one(config, sock, announce)
    else:
        started = serve_workers(config, sock, announce)
    if not started:
        fail("the service stopped before it finished starting (see the log above)")


def server_config(app: Any, workers: int, log_level: str = "warning") -> uvicorn.Config:
    """The server stack every worker runs: uvloop's event loop and the httptools parser. With
    workers, `app` is an import string of an app factory, built in each worker.

    WebSocket frames go out uncompressed: per-message deflate compresses each frame again for
    every socket (its context is per connection), which undoes encoding a batch's frame once
    for all its spectators, and a battle's frames are a few hundred bytes of JSON. The WebSocket
    protocol lets a stream write such a frame straight to its socket (api/adapters/uvicorn.py)."""
    return uvicorn.Config(app, factory=workers > 1, workers=workers, log_level=log_level, access_log=False,
                          lifespan="on", loop="uvloop", http="httptools", ws=WS_PROTOCOL,
                          ws_per_message_deflate=False)


def listening_socket(host: str, port: int) -> socket.socket:
    """The service's socket, listening from here on so that a busy port fails in one line
    before anything starts; every worker serves on it."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            fail(f"port {port} on {host} is in use")
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    sock.set_inheritable(True)
    return sock


def built_app() -> Any:
    """The single worker's app; building it connects to the database, so an unreachable one
    fails here in one line."""
    from .app import server_app

    return server_app()


def check_database() -> None:
    """With workers, each builds its own app; one connection here fails a bad database early."""
    from domain.battles import Battles

    with Battles(None):
        pass


class AnnouncingServer(uvicorn.Server):
    """uvicorn's server, announcing once it listens and the app's startup has completed."""

    def __init__(self, config: uvicorn.Config, announce: Callable[[], None]):
        super().__init__(config)
        self.announce = announce

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            self.announce()


def serve_one(config: uvicorn.Config, sock: socket.socket, announce: Callable[[], None]) -> bool:
    """Serve in this process until stopped; False if it never finished starting."""
    server = AnnouncingServer(config, announce)
    try:
        server.run(sockets=[sock])
    except SystemExit:
        pass                # uvicorn exits on a failed startup, having logged why
    except KeyboardInterrupt:
        pass                # Ctrl-C: uvicorn has shut down gracefully, then re-raised it
    return server.started


class AnnouncingWorkers(Multiprocess):
    """uvicorn's worker supervisor, announcing once every worker has finished its startup, and
    stopping when one dies before that (a restart would fail the same way)."""

    def __init__(self, config: uvicorn.Config, sockets: list[socket.socket], announce: Callable[[], None]):
        super().__init__(config, sockets)
        self.announce = announce
        self.started = False
        self.interrupted = False

    def init_processes(self) -> None:
        super().init_processes()
        self.started = self.all_started()
        if self.started:
            self.announce()
        elif self.signal_queue:
            self.interrupted = True     # the run loop handles the signal and stops the workers
        else:
            self.should_exit.set()

    def all_started(self) -> bool:
        for worker in self.processes:
            while not worker.is_ready(timeout=1):
                if self.signal_queue or not worker.process.is_alive():
                    return False
                time.sleep(0.1)
        return True


def serve_workers(config: uvicorn.Config, sock: socket.socket, announce: Callable[[], None]) -> bool:
    """Serve with worker processes until stopped; False if one never finished starting."""
    check_database()
    supervisor = AnnouncingWorkers(config, [sock], announce)
    supervisor.run()
    return supervisor.started or supervisor.interrupted
