"""Rat's own bots, for either side's seat: `greedy` (the best immediate value of a command,
read from the seat's own view) and `search` (ISMCTS over the seat's knowledge, `search.py`)."""
from __future__ import annotations

from functools import partial

from domain.ai.search import SearchBot
from domain.engine.bots import BotFactory
from domain.engine.registry import Registry
from domain.engine.scoring import GreedyPolicy

from .greedy import score
from .search import TUNING

BOTS: Registry[str, BotFactory] = Registry("rat bot")
BOTS.add("greedy", partial(GreedyPolicy, score))
BOTS.add("search", partial(SearchBot, TUNING))
