"""`random`: uniform over the legal commands; plays every ruleset."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.engine.bots import Bot
from domain.engine.rng import Rng


class RandomPolicy(Bot):
    name = "random"

    def choose(self, view: Mapping[str, Any] | None, legal: Sequence[Any], rng: Rng, memory: Any = None) -> Any:
        return rng.choice(legal)
