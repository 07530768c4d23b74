"""Registered ring behaviour: ability steps (`do` in content) and Dynamic hooks (`kind`).

Content names these ids; `tests/rulesets/ring/test_content.py` checks every id resolves.
"""
from __future__ import annotations

from collections.abc import Callable

from domain.engine.hooks import Hooks
from domain.engine.registry import Registry

HOOKS = Hooks()
STEPS: Registry[str, Callable[..., None]] = Registry("ring ability step")
step = STEPS.register


# Kinds whose behaviour is part of the resolver rather than a hook: a seal blocks its
# target Dynamic in `moves.active_effects`.
BUILT_IN_DYNAMICS = frozenset({"seal"})


def registered_dynamics() -> set[str]:
    return set(HOOKS.kinds) | BUILT_IN_DYNAMICS


from . import dynamics, dynamics_turns, steps  # noqa: E402,F401  (registration on import)
