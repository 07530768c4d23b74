"""One readable `error:` line and a non-zero exit for every expected CLI failure."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import typer
from eventsourcing.persistence import PersistenceError

from domain.engine.errors import RingsideError

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = 1) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


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
