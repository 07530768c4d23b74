"""Bot policies. A bot sees only what its seat may know: its redacted view and its legal
commands. Nothing here reads battle state directly.

A policy with `needs_view` gets the view and wire-JSON commands; one without gets neither
the view nor the JSON round trip, just the legal command objects, and returns one of them.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from domain.engine.errors import RingsideError
from domain.engine.rng import Rng

Wire = dict[str, Any]


class Policy(Protocol):
    name: str
    needs_view: bool

    def choose(self, view: Mapping[str, Any] | None, legal: Sequence[Wire], rng: Rng) -> Wire: ...


class UnknownPolicy(RingsideError):
    code = "unknown_policy"


_POLICIES: dict[str, Callable[[str], Policy]] = {}


def policy(name: str) -> Callable[[Callable[[str], Policy]], Callable[[str], Policy]]:
    def register(factory: Callable[[str], Policy]) -> Callable[[str], Policy]:
        _POLICIES[name] = factory
        return factory
    return register


def policy_names() -> list[str]:
    """Every registered bot policy, sorted."""
    return sorted(_POLICIES)


def get_policy(name: str, ruleset_id: str) -> Policy:
    try:
        return _POLICIES[name](ruleset_id)
    except KeyError:
        raise UnknownPolicy(f"unknown bot policy {name!r}; known: {', '.join(policy_names())}") from None


from . import greedy, random_policy, ring_memory  # noqa: E402,F401  (registration on import)
