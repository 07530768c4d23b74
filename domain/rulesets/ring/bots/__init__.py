"""Ring's own bots: `greedy` (the immediate expected value of a command; team and Ring picks
by matchup against the enemy units, near-ties drawn by the bot's RNG) and `memory` (greedy,
reading what the seat's AI memory recalls of the battle); `search` (information-set MCTS over the
seat's knowledge, with ring's playouts and evaluation, `search.py`)."""
from __future__ import annotations

from functools import partial

from domain.ai.search import SearchBot
from domain.engine.bots import BotFactory
from domain.engine.registry import Registry

from .memory import MemoryPolicy
from .search import TUNING
from .value import ValuePolicy

BOTS: Registry[str, BotFactory] = Registry("ring bot")
BOTS.add("greedy", ValuePolicy)
BOTS.add("memory", MemoryPolicy)
BOTS.add("search", partial(SearchBot, TUNING))
