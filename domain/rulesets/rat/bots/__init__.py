"""Rat's own bots, for either side's seat: `greedy` (the best immediate value of a command,
read from the seat's own view)."""
from __future__ import annotations

from domain.engine.bots import BotFactory
from domain.engine.registry import Registry

from .greedy import greedy_bot

BOTS: Registry[str, BotFactory] = Registry("rat bot")
BOTS.add("greedy", greedy_bot)
