"""api/adapters/click.py reaches into the click that typer vendors (`typer._click`). These tests
fail, naming the internal, when a typer release moves it or changes what the adapter relies on:
which errors a command line raises with `standalone_mode=False`, and what they carry."""
from __future__ import annotations

import importlib
from collections.abc import Sequence

import pytest
import typer

MODULE = "typer._click.exceptions"


def internal(name: str) -> type[BaseException]:
    try:
        found: type[BaseException] = getattr(importlib.import_module(MODULE), name)
    except (ImportError, AttributeError) as exc:
        pytest.fail(f"typer no longer has {MODULE}.{name}, which api/adapters/click.py imports: {exc}")
    return found


def command_line() -> typer.Typer:
    app = typer.Typer(no_args_is_help=True, add_completion=False)

    @app.command()
    def roll(sides: int = typer.Option(6, "--sides", min=2)) -> None:
        if sides == 13:
            raise typer.Exit(13)

    @app.command()
    def other() -> None:
        """A second command, so that the first is a subcommand with a path of its own."""

    return app


def raised(args: Sequence[str]) -> BaseException:
    try:
        command_line()(args=list(args), standalone_mode=False, prog_name="dice")
    except BaseException as exc:
        return exc
    pytest.fail(f"`dice {' '.join(args)}` raised nothing; typer no longer raises its usage errors "
                "with standalone_mode=False")


def name_of(kind: type) -> str:
    return f"{kind.__module__}.{kind.__qualname__}"


def test_a_bare_command_raises_the_vendored_no_args_is_help_error():
    no_args, usage = internal("NoArgsIsHelpError"), internal("UsageError")
    assert issubclass(no_args, usage), f"{MODULE}.NoArgsIsHelpError is no longer a {MODULE}.UsageError"
    exc = raised([])
    assert isinstance(exc, no_args), \
        f"a bare command raises {name_of(type(exc))}, not {MODULE}.NoArgsIsHelpError"


@pytest.mark.parametrize("args, message", [
    (["roll", "--nope"], "No such option: --nope"),
    (["roll", "--sides", "1"], "Invalid value for '--sides': Input should be greater than or equal to 2"),
])
def test_a_usage_error_is_the_vendored_usage_error_with_its_context(args, message):
    usage = internal("UsageError")
    exc = raised(args)
    assert isinstance(exc, usage), f"a usage error raises {name_of(type(exc))}, not {MODULE}.UsageError"
    assert not isinstance(exc, internal("NoArgsIsHelpError"))
    ctx = getattr(exc, "ctx", None)
    assert ctx is not None and getattr(ctx, "command_path", None) == "dice roll", \
        f"{MODULE}.UsageError.ctx.command_path is no longer the command's path: {ctx!r}"
    assert exc.format_message() == message, f"{MODULE}.UsageError.format_message() changed"
    assert exc.exit_code == 2, f"{MODULE}.UsageError.exit_code is no longer 2"


def test_invoke_turns_usage_errors_into_one_line_and_passes_exit_codes_on(capsys):
    from api.adapters.click import invoke

    assert invoke(command_line(), "dice", ["roll", "--nope"]) == 2
    assert capsys.readouterr().err == \
        "error: dice roll: No such option: --nope (see --help)\n"
    assert invoke(command_line(), "dice", []) == 2
    assert "Usage: dice" in capsys.readouterr().out
    assert invoke(command_line(), "dice", ["roll", "--sides", "13"]) == 13
    assert invoke(command_line(), "dice", ["roll"]) == 0
    assert capsys.readouterr().err == ""
