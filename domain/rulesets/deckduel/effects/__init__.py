"""Registered deckduel behaviour: attack effects, defense triggers and drill hooks.

Content names these ids; `tests/rulesets/deckduel/test_content.py` checks every id resolves.
"""
from __future__ import annotations

from collections.abc import Callable

import msgspec

from domain.engine.hooks import Hooks

HOOKS = Hooks()
ATTACK_EFFECTS: dict[str, Callable[..., "Strike"]] = {}
DEFENSE_TRIGGERS: dict[str, Callable[..., int]] = {}


class Strike(msgspec.Struct, frozen=True):
    """An attack in resolution: its arrows and how many flips ignore defense icons."""
    arrows: int
    pierce: int = 0


def attack_effect(kind: str) -> Callable[[Callable[..., Strike]], Callable[..., Strike]]:
    def register(fn: Callable[..., Strike]) -> Callable[..., Strike]:
        ATTACK_EFFECTS[kind] = fn
        return fn
    return register


def defense_trigger(kind: str) -> Callable[[Callable[..., int]], Callable[..., int]]:
    def register(fn: Callable[..., int]) -> Callable[..., int]:
        DEFENSE_TRIGGERS[kind] = fn
        return fn
    return register


from . import attacks, drills, triggers  # noqa: E402,F401  (registration on import)
