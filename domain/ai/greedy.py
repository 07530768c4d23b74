"""A one-ply heuristic bot: the best-scoring legal command by a game's own scorer of
(view, command), ties broken at random. Rulesets build their `greedy` bots from it."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.engine.bots import Bot
from domain.engine.rng import Rng
from domain.engine.scoring import best

Wire = dict[str, Any]
Scorer = Callable[[Mapping[str, Any], Wire], float]


class GreedyPolicy(Bot):
    name = "greedy"
    needs_view = True

    def __init__(self, score: Scorer):
        self.score = score

    def choose(self, view: Mapping[str, Any] | None, legal: Sequence[Any], rng: Rng, memory: Any = None) -> Wire:
        assert view is not None
        return best([self.score(view, cmd) for cmd in legal], legal, rng)


def greedy(score: Scorer) -> Callable[[], Bot]:
    """A bot factory for a ruleset's `bots`: greedy over `score`."""
    return lambda: GreedyPolicy(score)
