"""Battleboard bots, for either side. `greedy` (greedy.py) scores each legal command from the
seat's view; `memory` (memory.py) adds what the seat remembers."""
from __future__ import annotations

from functools import partial

from domain.ai.greedy import GreedyPolicy
from domain.engine.bots import Bot, BotFactory
from domain.engine.registry import Registry
from domain.engine.scoring import MemoryBot

from . import memory
from .greedy import score


def greedy_bot() -> Bot:
    return GreedyPolicy(score)


def memory_bot() -> Bot:
    return MemoryBot(partial(memory.rate, score))


BOTS: Registry[str, BotFactory] = Registry("battleboard bot")
BOTS.add("greedy", greedy_bot)
BOTS.add("memory", memory_bot)
