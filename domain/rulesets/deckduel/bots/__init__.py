"""Deckduel heuristic: build drills early, then hit as hard as energy allows; keep cheap
cards in a mulligan; discard the card that would cost the most to play."""
from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from domain.ai.search import SearchBot
from domain.engine.bots import BotFactory
from domain.engine.registry import Registry
from domain.engine.scoring import GreedyPolicy, Wire

from ..content import content
from .search import TUNING


def score(view: Mapping[str, Any], cmd: Wire) -> float:
    kind = cmd["type"]
    if kind == "mulligan":
        # Send back cards the starting energy cannot pay for; keep the rest.
        me = _me(view)
        wanted = sorted(c for c in (me["hand"] or []) if content().cards[c].cost > 3)
        return 10.0 if sorted(cmd["cards"]) == wanted else -float(len(cmd["cards"]))
    if kind == "pass":
        return 0.0
    card = content().cards[cmd["card"]]
    if kind == "discard":
        return card.cost + card.arrows - card.defense
    if kind == "drill":
        return 3.0 if len(_me(view)["drills"]) < 2 else 0.5
    return card.arrows + (1.0 if card.effect else 0.0) - 0.25 * card.cost


def _me(view: Mapping[str, Any]) -> Mapping[str, Any]:
    seats = view["seats"]
    return next(side for side in seats.values() if side.get("hand") is not None)


BOTS: Registry[str, BotFactory] = Registry("deckduel bot")
BOTS.add("greedy", partial(GreedyPolicy, score))
BOTS.add("search", partial(SearchBot, TUNING))
