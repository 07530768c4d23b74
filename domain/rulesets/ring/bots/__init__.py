"""Ring's own bots: `greedy` (the immediate expected value of a command; team and Ring picks
by matchup against the enemy units, near-ties drawn by the bot's RNG) and `memory` (greedy,
reading what the seat's AI memory recalls of the battle)."""
from __future__ import annotations

from domain.engine.bots import BotFactory
from domain.engine.registry import Registry

from .memory import MemoryPolicy
from .value import ValuePolicy

BOTS: Registry[str, BotFactory] = Registry("ring bot")
BOTS.add("greedy", ValuePolicy)
BOTS.add("memory", MemoryPolicy)
