"""Rule evolution: a ruleset as an earlier version played it, from today's code.

A release keeps its content by hash (`ContentFiles(directory, release=...)`) and its old
behaviour behind rule parameters whose defaults the version picks. `earlier_release` gives
back the declared `Ruleset` with that version, that content and any parts the release
replaces (a `parse_setup` with the version's defaults, say), every call of the rules
(`CALLS` and the sealing) made while `playing(content)` is in force, so code that reads the
active content sees the pinned one. Set rules read only a finished battle's state, and bots
only pick among the legal commands, so both run as today's.
"""
from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from .ruleset import Content, Ruleset, Sealing

S = TypeVar("S")
F = TypeVar("F", bound=Callable[..., Any])
CALLS = ("parse_setup", "start", "evolve", "awaiting", "legal_commands", "decide", "view", "outcome",
         "table", "withhold_setup", "turn", "memory_known")


def earlier_release(ruleset: Ruleset[S], *, version: str, content: Content,
                    playing: Callable[[Any], AbstractContextManager[None]], **parts: Any) -> Ruleset[S]:
    """`ruleset` as `version` played it: `content` active in every call, `parts` replaced."""
    def pinned(fn: F) -> F:
        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            with playing(content):
                return fn(*args, **kwargs)
        return call  # type: ignore[return-value]

    declared = dataclasses.replace(ruleset, **parts)
    calls = {name: pinned(getattr(declared, name)) for name in CALLS}
    sealing = declared.sealing and Sealing(pinned(declared.sealing.seal), pinned(declared.sealing.unseal))
    return dataclasses.replace(declared, version=version, content=content, sealing=sealing, releases={}, **calls)
