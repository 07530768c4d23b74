"""Real servers for end-to-end tests: uvicorn (the `ringside serve` path) and throwaway Redis."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from api.cli_serve import WS_PROTOCOL

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(check, timeout: float = 20.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (OSError, httpx.HTTPError):
            pass
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@contextmanager
def uvicorn_server(db_url: str, *, redis_url: str | None = None, prefix: str | None = None,
                   workers: int = 1, extra_env: dict[str, str] | None = None) -> Iterator[str]:
    """`python -m uvicorn api.app:server_app --factory` (the app and server stack as `ringside
    serve` builds them) on a free port; yields its base URL."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}
    env.update({"RINGSIDE_DATABASE_URL": db_url, "PYTHONPATH": str(ROOT), **(extra_env or {})})
    if redis_url:
        env["RINGSIDE_REDIS_URL"] = redis_url
        env["RINGSIDE_REDIS_PREFIX"] = prefix or f"t{uuid.uuid4().hex[:10]}"
    cmd = [sys.executable, "-m", "uvicorn", "api.app:server_app", "--factory", "--host", "127.0.0.1",
           "--port", str(port), "--workers", str(workers), "--log-level", "warning",
           "--loop", "uvloop", "--http", "httptools", "--ws", WS_PROTOCOL, "--ws-per-message-deflate", "false"]
    with serving(cmd, env, port) as url:
        yield url


@contextmanager
def serving(cmd: list[str], env: dict[str, str], port: int, cwd: Path = ROOT) -> Iterator[str]:
    """Run `cmd`, a server on `port`, in `cwd`, until the block ends; yields its base URL once it answers."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: proc.poll() is None and httpx.get(url + "/rulesets", timeout=1).status_code == 200,
                   what=f"the server on {url}")
        yield url
    finally:
        stop(proc)


def stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def forget_prefix(redis_url: str, prefix: str) -> None:
    """Delete every key under `prefix` (views and fan-out of a server that has stopped)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
    for start in range(0, len(keys), 10_000):
        client.delete(*keys[start:start + 10_000])
    client.close()


@contextmanager
def redis_server() -> Iterator[tuple[str, Callable[[], None], Callable[[], None]]]:
    """A throwaway redis-server on a free port; yields (url, kill, start): start() brings it back
    on the same port, empty (nothing persisted, as with --save "")."""
    port = free_port()
    procs: list[subprocess.Popen] = []

    def start() -> None:
        procs.append(subprocess.Popen(["redis-server", "--port", str(port), "--save", "", "--appendonly", "no",
                                       "--bind", "127.0.0.1"], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, start_new_session=True))
        wait_until(lambda: socket.create_connection(("127.0.0.1", port), timeout=0.5).close() is None,
                   what=f"redis on {port}")

    def kill() -> None:
        stop(procs[-1], signal.SIGKILL)

    start()
    try:
        yield f"redis://127.0.0.1:{port}/0", kill, start
    finally:
        for proc in procs:
            stop(proc, signal.SIGKILL)
