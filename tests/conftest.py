"""Shared fixtures: an injected wall clock, real SQLite files, and the real PostgreSQL and Redis servers.

With RINGSIDE_REQUIRE_SERVICES=1 (as in CI) an unreachable service fails the test;
otherwise the test is skipped with the reason.
"""
from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator

import pytest

from tests.clocktime import Clock

PG_HOST, PG_PORT, PG_DB, PG_USER = "127.0.0.1", 5432, "test", "postgres"
REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


def need_service(name: str, host: str, port: int) -> None:
    if _reachable(host, port):
        return
    message = f"{name} is not reachable at {host}:{port}"
    if os.environ.get("RINGSIDE_REQUIRE_SERVICES") == "1":
        pytest.fail(message + " (RINGSIDE_REQUIRE_SERVICES=1)")
    pytest.skip(message)


@pytest.fixture
def clock() -> Clock:
    """An injected wall clock at T0, moved by the test (tests/clocktime.py)."""
    return Clock()


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'ringside.db'}"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL URL with a fresh schema of its own, dropped afterwards."""
    need_service("PostgreSQL", PG_HOST, PG_PORT)
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    dsn = f"host={PG_HOST} port={PG_PORT} dbname={PG_DB} user={PG_USER}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    yield f"postgresql://{PG_USER}@{PG_HOST}:{PG_PORT}/{PG_DB}?schema={schema}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request) -> str:
    """Runs a test against both real stores."""
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_url")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def redis_url() -> str:
    need_service("Redis", REDIS_HOST, REDIS_PORT)
    return f"redis://{REDIS_HOST}:{REDIS_PORT}/0"
