"""Skirmish's `greedy` scorer: each command from the seat's view: attacks that make a
character faint first, then skill damage, then walking to a tile from which an opponent is
exactly in reach; it fields its toughest characters and keeps cheap cards."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.engine.scoring import Wire

from ..content import content
from .sight import gap, seat_of


def foes(view: Mapping[str, Any], foe: str) -> list[Mapping[str, Any]]:
    return [u for u in view["units"].values() if u["seat"] == foe and u["cell"] is not None and not u["fainted"]]


def score(view: Mapping[str, Any], cmd: Wire) -> float:
    seat = seat_of(view)
    foe = "p2" if seat == "p1" else "p1"
    kind = cmd["type"]
    if kind == "field":
        return sum(view["units"][f"{seat}.{c}"]["power"] + view["units"][f"{seat}.{c}"]["armor"] / 10
                   for c in cmd["characters"])
    if kind == "place":
        unit = view["units"][f"{seat}.{cmd['character']}"]
        toward = cmd["cell"][1] if seat == "p1" else -cmd["cell"][1]
        return toward * (-1.0 if unit["ranged"] else 1.0) - abs(cmd["cell"][0] - 3) * 0.1
    if kind == "mulligan":
        hand = view["seats"][seat]["hand"] or []
        wanted = sorted(c for c in hand if content().cards[c].cost > 2)
        return 5.0 if sorted(cmd["cards"]) == wanted else -float(len(cmd["cards"]))
    if kind == "attack":
        me, target = view["units"][f"{seat}.{cmd['character']}"], view["units"][cmd["target"]]
        faints = target["damage"] + me["power"] > target["armor"]
        return 50.0 + me["power"] + (40.0 if faints else 0.0)
    if kind == "play":
        return play_value(view, seat, cmd)
    if kind == "move":
        return move_value(view, seat, foe, cmd)
    return 0.0


def play_value(view: Mapping[str, Any], seat: str, cmd: Wire) -> float:
    card = content().cards[cmd["card"]]
    value = 0.0
    steps = card.effects + (card.keyed if card.keyword in ("storm", "threshold") or cmd.get("exert") else ())
    for step in steps:
        if step.do == "damage":
            value += step.amount * (2 if card.target == "all_enemies" else 1)
        elif step.do == "heal":
            value += step.amount / 2
        elif step.do in ("gain", "give"):
            value += 4.0
        elif step.do == "draw":
            value += 3.0 * step.count
    if cmd.get("exert"):
        value -= 3.0
    return value + 10.0 - card.cost


def move_value(view: Mapping[str, Any], seat: str, foe: str, cmd: Wire) -> float:
    me = view["units"][f"{seat}.{cmd['character']}"]
    if me["attacked"]:
        return -1.0
    targets = foes(view, foe)
    if not targets:
        return -1.0
    reach = me["reach"]
    gaps = [gap(cmd["to"], t["cell"]) for t in targets]
    if reach in gaps:
        return 30.0
    return 10.0 - min(abs(g - reach) for g in gaps)
