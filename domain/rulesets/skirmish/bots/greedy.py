"""Skirmish's `greedy` scorer: each command from the seat's view: attacks that make a
character faint first, then skill damage, then walking to a tile from which an opponent is
exactly in reach; it fields its toughest characters with a front line and keeps cheap cards.

It reads the board: an attack that the target would counter costs the counter, and a walk
costs the blows the opponents could land on its end tile next turn (each opponent's walk, then
exactly its reach: `sight.threatened`), so a unit steps into reach to strike, not to stand."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.engine.scoring import Wire

from ..content import content
from .sight import Pos, gap, seat_of, threatened

FRONT_LINE = 6.0        # a selection with a melee unit: ranged ones cannot strike an adjacent foe
MIXED = 2.0             # each class in a selection: two fragile casters fall first
COUNTER_COST = 0.5      # an attack the target would counter costs this share of the counter
EXPOSED_COST = 0.4      # a walk costs this share of the blows its end tile would take next turn


def foes(view: Mapping[str, Any], foe: str) -> list[Mapping[str, Any]]:
    return [u for u in view["units"].values() if u["seat"] == foe and u["cell"] is not None and not u["fainted"]]


def score(view: Mapping[str, Any], cmd: Wire) -> float:
    seat = seat_of(view)
    foe = "p2" if seat == "p1" else "p1"
    kind = cmd["type"]
    if kind == "field":
        return field_value(view, seat, cmd["characters"])
    if kind == "place":
        unit = view["units"][f"{seat}.{cmd['character']}"]
        toward = cmd["cell"][1] if seat == "p1" else -cmd["cell"][1]
        return toward * (-1.0 if unit["ranged"] else 1.0) - abs(cmd["cell"][0] - view["board"]["width"] // 2) * 0.1
    if kind == "mulligan":
        hand = view["seats"][seat]["hand"] or []
        wanted = sorted(c for c in hand if content().cards[c].cost > 2)
        return 5.0 if sorted(cmd["cards"]) == wanted else -float(len(cmd["cards"]))
    if kind == "attack":
        return attack_value(view, seat, cmd)
    if kind == "play":
        return play_value(view, seat, cmd)
    if kind == "move":
        return move_value(view, seat, foe, cmd)
    return 0.0


def field_value(view: Mapping[str, Any], seat: str, characters: list[str]) -> float:
    """The selection's power and armor, a front line (at least one melee unit) and its classes."""
    units = [view["units"][f"{seat}.{c}"] for c in characters]
    front = FRONT_LINE if any(not u["ranged"] for u in units) else 0.0
    return sum(u["power"] + u["armor"] / 10 for u in units) + front + MIXED * len({u["class"] for u in units})


def attack_value(view: Mapping[str, Any], seat: str, cmd: Wire) -> float:
    me, target = view["units"][f"{seat}.{cmd['character']}"], view["units"][cmd["target"]]
    faints = target["damage"] + me["power"] > target["armor"]
    value = 50.0 + me["power"] + (40.0 if faints else 0.0)
    if not faints and counters(target, me):
        value -= COUNTER_COST * target["power"]
    return value


def counters(defender: Mapping[str, Any], attacker: Mapping[str, Any]) -> bool:
    """Whether the defender would strike back: it has not yet this turn, may act, and has the
    attacker exactly at its reach."""
    if defender["countered"] or "restrained" in defender["effects"] or "concealed" in attacker["effects"]:
        return False
    return gap(defender["cell"], attacker["cell"]) == defender["reach"]


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
    value = 30.0 if reach in gaps else 10.0 - min(abs(g - reach) for g in gaps)
    return value - exposed(view, me, (cmd["to"][0], cmd["to"][1]))


def exposed(view: Mapping[str, Any], me: Mapping[str, Any], at: Pos) -> float:
    """What standing at `at` would cost next turn: a share of the power that could strike it."""
    if "concealed" in me["effects"]:
        return 0.0
    return EXPOSED_COST * sum(u["power"] for u in threatened(view, me["seat"]).get(at, ()))
