"""Ring's Dynamic hooks (content `kind`), registered in `hooks.HOOKS` on import: `dynamics`
on hits, healing, MP and permissions, `dynamics_turns` as turns start and end.

Content names these ids; `tests/rulesets/ring/test_content.py` checks every id resolves.
"""
from __future__ import annotations

from ..hooks import HOOKS
from . import dynamics, dynamics_turns  # noqa: F401  (registration on import)

# Kinds whose behaviour is part of the resolver rather than a hook: a seal blocks its
# target Dynamic in `moves.active_effects`.
BUILT_IN_DYNAMICS = frozenset({"seal"})


def registered_dynamics() -> set[str]:
    return set(HOOKS.kinds) | BUILT_IN_DYNAMICS
