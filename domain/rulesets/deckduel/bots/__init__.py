"""Deckduel's bots: greedy plays the heuristic (`heuristic.py`) and keeps cheap cards in a
mulligan; search (`search.py`) plays out with it."""
from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from domain.ai.search import SearchBot
from domain.engine.bots import BotFactory
from domain.engine.registry import Registry
from domain.engine.scoring import GreedyPolicy, Wire

from ..content import content
from .heuristic import rating
from .search import TUNING


def score(view: Mapping[str, Any], cmd: Wire) -> float:
    kind = cmd["type"]
    if kind == "mulligan":
        # Send back cards the starting energy cannot pay for; keep the rest.
        me = _me(view)
        wanted = sorted(c for c in (me["hand"] or []) if content().cards[c].cost > 3)
        return 10.0 if sorted(cmd["cards"]) == wanted else -float(len(cmd["cards"]))
    return rating(kind, cmd.get("card", ""), len(_me(view)["drills"]))


def _me(view: Mapping[str, Any]) -> Mapping[str, Any]:
    seats = view["seats"]
    return next(side for side in seats.values() if side.get("hand") is not None)


BOTS: Registry[str, BotFactory] = Registry("deckduel bot")
BOTS.add("greedy", partial(GreedyPolicy, score))
BOTS.add("search", partial(SearchBot, TUNING))
