"""`--help` describes every option and argument of every command, lists the bot policies the
registry holds, and states `replay verify`'s exit codes."""
from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from api.cli import app
from domain.ai import policy_names


def commands(command, path=()):
    """Every leaf command of the CLI, with its path of names."""
    subcommands = getattr(command, "commands", None)
    if subcommands is None:
        yield " ".join(path), command
        return
    for name, sub in subcommands.items():
        yield from commands(sub, (*path, name))


ALL = dict(commands(typer.main.get_command(app)))


def help_text(*path: str) -> str:
    result = CliRunner(env={"COLUMNS": "400"}).invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    return re.sub(r"[\s│]+", " ", result.stdout)


def test_the_walk_finds_every_command():
    assert set(ALL) == {"rulesets", "simulate", "balance", "log", "serve", "bot", "replay export", "replay verify",
                        "replay show", "replay diff", "replay import", "audit set", "audit queue", "audit tournament",
                        "projections run", "projections status", "projections rebuild"}


@pytest.mark.parametrize("path", sorted(ALL))
def test_every_parameter_has_a_description(path):
    undescribed = [param.name for param in ALL[path].params if not (param.help or "").strip()]
    assert undescribed == []


@pytest.mark.parametrize(("path", "option"), [("simulate", "--bots"), ("bot", "--policy")])
def test_policy_options_list_the_registered_policies(path, option):
    names = ", ".join(policy_names())
    assert names == "greedy, memory, random, search"
    assert f"{option} <str> " in help_text(*path.split())
    assert f": {names}." in help_text(*path.split()).split(option, 1)[1]


def test_replay_verify_states_its_exit_codes():
    assert ("Exit status: 0: every file is OK. 1: a file FAILs (a file that cannot be read or parsed FAILs too), "
            "whatever the others. 2: no file FAILs, and a file is UNVERIFIABLE (it pins a ruleset version that "
            "is not installed).") in help_text("replay", "verify")
