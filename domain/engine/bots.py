"""The bot interface: what a policy is given and what it returns.

A bot sees only what its seat may know. A policy that `needs_view` gets the seat's redacted
view and the legal commands as wire JSON; one that also `needs_memory` gets the seat's AI
memory; one that needs neither gets the legal command objects and returns one of them.
A policy that `searches` gets, in place of the view, a `Seen`: the seat's knowledge (the
ruleset's `knowledge(state, seat)`, a redacted projection like the view) and the rules to
search it with; it too gets and returns command objects.
The generic policies live in `domain/ai/`; a game's own bots live in its ruleset package and
are named by its `Ruleset.bots`.
"""
from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from .events import Viewer
from .rng import Rng


class Seen(NamedTuple):
    """What a searching bot is given: everything its seat knows, and nothing else."""
    ruleset: Any                        # the rules the battle plays (a kept release for an old one)
    seat: str
    knowledge: Any                      # `ruleset.knowledge(state, seat)`
    sides: Mapping[str, str]            # each seat's side
    time_left_ms: int | None = None     # the seat's clock, when the battle has one

    def view(self) -> Mapping[str, Any]:
        """The seat's view, from its knowledge: the view it has of the battle."""
        view: Mapping[str, Any] = self.ruleset.view(self.knowledge, Viewer(seat=self.seat))
        return view


class Bot(abc.ABC):
    name: ClassVar[str] = ""
    needs_view: ClassVar[bool] = False
    needs_memory: ClassVar[bool] = False
    searches: ClassVar[bool] = False

    @abc.abstractmethod
    def choose(self, view: Any, legal: Sequence[Any], rng: Rng,
               memory: Any = None) -> Any:
        """One of `legal`: a wire command (dict) when `needs_view`, else a command object.
        `view` is the seat's view when `needs_view`, its `Seen` when `searches`, else None."""


BotFactory = Callable[[], Bot]
