"""The bot interface: what a policy is given and what it returns.

A bot sees only what its seat may know. A policy that `needs_view` gets the seat's redacted
view and the legal commands as wire JSON; one that also `needs_memory` gets the seat's AI
memory; one that needs neither gets the legal command objects and returns one of them.
The generic policies live in `domain/ai/`; a game's own bots live in its ruleset package and
are named by its `Ruleset.bots`.
"""
from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from .rng import Rng


class Bot(abc.ABC):
    name: ClassVar[str] = ""
    needs_view: ClassVar[bool] = False
    needs_memory: ClassVar[bool] = False

    @abc.abstractmethod
    def choose(self, view: Mapping[str, Any] | None, legal: Sequence[Any], rng: Rng,
               memory: Any = None) -> Any:
        """One of `legal`: a wire command (dict) when `needs_view`, else a command object."""


BotFactory = Callable[[], Bot]
