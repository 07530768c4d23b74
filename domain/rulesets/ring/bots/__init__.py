"""Ring's own bots: `greedy` (the immediate expected value of a command) and `memory`
(greedy, adjusted by what the seat's AI memory recalls of the battle)."""
from __future__ import annotations

from domain.ai.greedy import greedy
from domain.engine.bots import BotFactory
from domain.engine.registry import Registry

from .value import score
from .memory import MemoryPolicy

BOTS: Registry[str, BotFactory] = Registry("ring bot")
BOTS.add("greedy", greedy(score))
BOTS.add("memory", MemoryPolicy)
