"""`random`: uniform over the legal commands."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.engine.rng import Rng

from . import Policy, Wire, policy


class RandomPolicy:
    name = "random"
    needs_view = False

    def choose(self, view: Mapping[str, Any] | None, legal: Sequence[Wire], rng: Rng) -> Wire:
        return rng.choice(legal)


@policy("random")
def make_random(ruleset_id: str) -> Policy:
    return RandomPolicy()
