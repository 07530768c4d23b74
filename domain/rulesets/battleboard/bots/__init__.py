"""Battleboard bots, for either side. `greedy` (greedy.py) scores each legal command from the
seat's view; `memory` (memory.py) adds what the seat remembers; `search` (search.py) searches
the seat's knowledge."""
from __future__ import annotations

from functools import partial

from domain.ai.search import SearchBot
from domain.engine.bots import BotFactory
from domain.engine.registry import Registry
from domain.engine.scoring import MemoryBot

from . import memory
from .greedy import greedy, score
from .search import TUNING

BOTS: Registry[str, BotFactory] = Registry("battleboard bot")
BOTS.add("greedy", greedy)
BOTS.add("memory", partial(MemoryBot, partial(memory.rate, score)))
BOTS.add("search", partial(SearchBot, TUNING))
