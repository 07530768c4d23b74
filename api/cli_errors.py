"""One readable `error:` line and a non-zero exit for every expected CLI failure, and the
input checks that end in one: JSON options, Redis URLs and servers, and `--as` perspectives."""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import orjson
import typer
from eventsourcing.persistence import PersistenceError

from domain.engine.errors import RingsideError
from domain.engine.events import Viewer

F = TypeVar("F", bound=Callable[..., Any])
REDIS_TIMEOUT_SECONDS = 2


def fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def parse_json_option(text: str, option: str) -> Any:
    """JSON given inline, or `@path` to read it from a file."""
    if text.startswith("@"):
        try:
            text = Path(text[1:]).read_text()
        except OSError as exc:
            fail(f"{option}: cannot read {text[1:]}: {exc.strerror}")
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        fail(f"{option} is not valid JSON: {exc}")


def clean_errors(fn: F) -> F:
    """Every expected failure becomes one readable line and a non-zero exit."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except RingsideError as exc:
            fail(exc.message)
        except PersistenceError as exc:
            fail(f"database: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
    return wrapper  # type: ignore[return-value]


def check_redis(url: str, source: str = "--redis") -> None:
    """Fail in one line unless `url` is a Redis URL whose server answers; `source` names where
    the URL came from (the option or the environment variable)."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
                                      socket_timeout=REDIS_TIMEOUT_SECONDS)
    except ValueError as exc:
        fail(f"{source}: not a Redis URL: {url} ({str(exc).removeprefix('Redis URL ')})")
    try:
        client.ping()
    except redis.RedisError as exc:
        cause = exc.__context__
        reason = cause.strerror if isinstance(cause, OSError) and cause.strerror else str(exc)
        fail(f"cannot reach Redis at {url}: {reason}")
    finally:
        client.close()


def perspective(text: str, seats: Iterable[str]) -> Viewer:
    """The viewer `--as` names: the spectator, the omniscient view (`all`) or one of the
    battle's seats, refused as the API refuses it otherwise."""
    try:
        return Viewer.parse(text, list(seats))
    except RingsideError as exc:
        fail(f"--{exc.message}")
