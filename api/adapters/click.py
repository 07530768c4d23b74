"""The click that typer carries inside it, for the `ringside` command's usage errors.

typer 0.2x vendors click as the private `typer._click`: the command line raises its usage
errors, not those of any click installed beside it, and typer exports neither `UsageError` nor
`NoArgsIsHelpError`. This module is the one place that reaches in. typer is pinned to the minor
version it was written against (pyproject.toml), and tests/adapters/test_click.py names the
internal a new version changes.
"""
from __future__ import annotations

from collections.abc import Sequence

import typer
from typer._click.exceptions import NoArgsIsHelpError, UsageError


def invoke(app: typer.Typer, prog_name: str, args: Sequence[str] | None = None) -> int:
    """Run `app` on `args` (the process's arguments when None) and return its exit code. A usage
    error (an unknown option, a value out of range) is one `error:` line on stderr and exit 2,
    like every other refusal, rather than click's boxed panel; a bare command prints its help
    and exits 2."""
    try:
        code = app(args=list(args) if args is not None else None, standalone_mode=False, prog_name=prog_name)
    except NoArgsIsHelpError:
        return 2            # typer has printed the help
    except UsageError as exc:
        where = f"{exc.ctx.command_path}: " if exc.ctx else ""
        typer.echo(f"error: {where}{exc.format_message()} (see --help)", err=True)
        return exc.exit_code
    return code if isinstance(code, int) else 0
