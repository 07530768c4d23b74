"""Registered deckduel behaviour: attack effects, defense triggers and drill hooks.

Content names these ids; `tests/rulesets/deckduel/test_content.py` checks every id resolves.
"""
from __future__ import annotations

from collections.abc import Callable

import msgspec

from domain.engine.hooks import Hooks
from domain.engine.registry import Registry

HOOKS = Hooks()
ATTACK_EFFECTS: Registry[str, Callable[..., "Strike"]] = Registry("deckduel attack effect")
DEFENSE_TRIGGERS: Registry[str, Callable[..., int]] = Registry("deckduel defense trigger")


class Strike(msgspec.Struct, frozen=True):
    """An attack in resolution: its arrows and how many flips ignore defense icons."""
    arrows: int
    pierce: int = 0


attack_effect = ATTACK_EFFECTS.register
defense_trigger = DEFENSE_TRIGGERS.register


from . import attacks, drills, triggers  # noqa: E402,F401  (registration on import)
