"""Deckduel's hook handlers: attack effects, defense triggers and drill hooks, each registered
on import in `hooks` (`ATTACK_EFFECTS`, `DEFENSE_TRIGGERS`, `HOOKS`)."""
from . import attacks, drills, triggers  # noqa: F401  (registration on import)
