"""Bots that score every legal command and play the best one, ties broken by the bot's RNG.

A game's `greedy` bot is `GreedyPolicy` over its scorer of (view, wire command): one ply, from
the seat's redacted view. A game's `memory` bot is `MemoryBot`: it reads the seat's redacted view and the seat's AI
memory (which may be missing, as when a bot plays without one) and rates the legal wire
commands with the game's own `rate`. The game declares the bot in its `bots/` package; the
choice itself, and the way a tie is broken, are the same for every game.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .bots import Bot
from .rng import Rng

Wire = dict[str, Any]
# (the seat's view, one legal wire command) -> its score
Scorer = Callable[[Mapping[str, Any], Wire], float]
# (the seat's view, its AI memory or None, the legal wire commands) -> a score for each
Rate = Callable[[Mapping[str, Any], Any, Sequence[Wire]], Sequence[float]]


def best(scored: Sequence[float], legal: Sequence[Wire], rng: Rng) -> Wire:
    """The legal command with the highest score; a tie is broken by the bot's RNG."""
    top = max(scored)
    return legal[rng.choice([i for i, s in enumerate(scored) if s == top])]


class GreedyPolicy(Bot):
    """The `greedy` bot: the best legal command as the game's `score` rates it from the seat's view."""
    name = "greedy"
    needs_view = True

    def __init__(self, score: Scorer):
        self.score = score

    def choose(self, view: Mapping[str, Any] | None, legal: Sequence[Any], rng: Rng, memory: Any = None) -> Wire:
        assert view is not None
        return best([self.score(view, cmd) for cmd in legal], legal, rng)


class MemoryBot(Bot):
    """The `memory` bot: the best legal command as the game's `rate` scores it from the seat's
    view and memory."""
    name = "memory"
    needs_view = True
    needs_memory = True

    def __init__(self, rate: Rate):
        self.rate = rate

    def choose(self, view: Mapping[str, Any] | None, legal: Sequence[Any], rng: Rng, memory: Any = None) -> Wire:
        assert view is not None
        return best(self.rate(view, memory, legal), legal, rng)
