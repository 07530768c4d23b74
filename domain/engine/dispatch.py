"""A ruleset's declared command table: which code decides each command type.

Every ruleset's `decide` finds the handler of a command here, by its exact type, instead
of walking a chain of `isinstance` tests. The table is declared once, beside `decide`, and
the ruleset names it (`Ruleset.commands`), so the conformance contract can check that every
command the codec parses has exactly one handler, and a reader finds the code behind a
command in one place.

A handler's signature is the ruleset's own (most take the resolver, the seat and the
command); the table only finds it.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar

from .errors import RuleViolation
from .events import Command

C = TypeVar("C", bound=Command)
H = TypeVar("H")


class CommandTable(Mapping[type[Command], H], Generic[H]):
    """Command type -> handler, read by `decide`: `TABLE.handler(cmd)(resolver, seat, cmd)`."""

    def __init__(self, handlers: Mapping[type[Command], H]):
        self._by_type: dict[type[Command], H] = dict(handlers)

    def handler(self, cmd: Command) -> H:
        """The handler of `cmd`'s type; a RuleViolation names the command if the game has none."""
        found = self._by_type.get(type(cmd))
        if found is None:
            raise RuleViolation(f"this game has no {cmd.wire_type()} command")
        return found

    def __getitem__(self, kind: type[Command]) -> H:
        return self._by_type[kind]

    def __iter__(self) -> Iterator[type[Command]]:
        return iter(self._by_type)

    def __len__(self) -> int:
        return len(self._by_type)
