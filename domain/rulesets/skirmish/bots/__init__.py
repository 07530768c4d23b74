"""Skirmish bots. `greedy` (greedy.py) scores each command from the seat's view; `memory`
(memory.py) plays combat from what the seat remembers, and prepares as `greedy` does;
`search` (search.py) searches from the seat's knowledge, the few commands greedy
rates best."""
from __future__ import annotations

from functools import partial

from domain.ai.search import SearchBot
from domain.engine.bots import BotFactory
from domain.engine.registry import Registry
from domain.engine.scoring import GreedyPolicy, MemoryBot

from . import memory
from .greedy import score
from .search import TUNING

BOTS: Registry[str, BotFactory] = Registry("skirmish bot")
BOTS.add("greedy", partial(GreedyPolicy, score))
BOTS.add("memory", partial(MemoryBot, partial(memory.rate, score)))
BOTS.add("search", partial(SearchBot, TUNING))
