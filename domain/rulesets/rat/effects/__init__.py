"""Rat's passives as hooks, registered in `hooks.HOOKS` on import: `ailments` (the status
ailments) and `equipment` (what worn equipment does). `decide` imports this package, so
every hook is registered before a battle runs."""
from __future__ import annotations

from . import ailments, equipment  # noqa: F401  (registration on import)
