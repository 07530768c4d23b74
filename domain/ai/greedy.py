"""`greedy`: a one-ply heuristic. Each ruleset registers a scorer of (view, command);
the bot plays the best-scoring legal command, breaking ties at random."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.engine.rng import Rng

from . import Policy, UnknownPolicy, Wire, policy

Scorer = Callable[[Mapping[str, Any], Wire], float]
SCORERS: dict[str, Scorer] = {}


def scorer(ruleset_id: str) -> Callable[[Scorer], Scorer]:
    def register(fn: Scorer) -> Scorer:
        SCORERS[ruleset_id] = fn
        return fn
    return register


class GreedyPolicy:
    name = "greedy"
    needs_view = True

    def __init__(self, score: Scorer):
        self.score = score

    def choose(self, view: Mapping[str, Any] | None, legal: Sequence[Wire], rng: Rng) -> Wire:
        assert view is not None
        scored = [(self.score(view, cmd), i) for i, cmd in enumerate(legal)]
        best = max(s for s, _ in scored)
        return legal[rng.choice([i for s, i in scored if s == best])]


@policy("greedy")
def make_greedy(ruleset_id: str) -> Policy:
    if ruleset_id not in SCORERS:
        raise UnknownPolicy(f"no greedy heuristic for {ruleset_id!r}")
    return GreedyPolicy(SCORERS[ruleset_id])


from . import deckduel_greedy, ring_greedy  # noqa: E402,F401
