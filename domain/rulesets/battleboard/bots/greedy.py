"""Battleboard's `greedy` scorer, for either side: each legal command from the seat's view:
attacks by their expected Attack Value against the target's Defense, guard and aid by the
tokens they save, moves toward the nearest enemy, and it ends the turn once nothing scores."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..attack import parse_dice
from ..content import content


def _units(view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {u["id"]: u for u in view["combatants"]}


def _hit_chance(evasion: int) -> float:
    return max(2, 12 - max(evasion, 0)) / 12


def expected_av(action_id: str, target: Mapping[str, Any]) -> float:
    action = content().actions[action_id]
    if action.dice is None:
        return 0.0
    n, m, k = parse_dice(action.dice)
    hits = n * _hit_chance(target["evasion"])
    return hits * m + k if hits else 0.0


def score(view: Mapping[str, Any], cmd: Mapping[str, Any]) -> float:
    units = _units(view)
    kind = cmd["type"]
    if kind == "choose":
        return 1.0 if cmd["go"] == "first" else 0.0
    if kind == "defend":
        return -cmd.get("focus", 0) * 0.1 + (0.5 if cmd["lose"] == "untapped" else 0.0)
    if kind == "end_turn":
        return 0.0
    if kind == "advance":
        return 0.5
    if kind == "place":
        me = units[cmd["unit"]]
        front = max(view["sections"][me["side"]]) if me["side"] == "heroes" else min(view["sections"][me["side"]])
        return -abs(cmd["cell"][1] - front) + 0.01 * cmd["cell"][0]
    me = units[cmd["unit"]]
    if kind == "convert":
        return -1.0
    if kind == "move":
        return _move_score(view, me, cmd["to"])
    return _act_score(view, units, me, cmd)


def _move_score(view: Mapping[str, Any], me: Mapping[str, Any], to: list[int]) -> float:
    if me["taken"] and len(me["taken"]) >= me["slots"] + (1 if me["doubled"] else 0):
        return -1.0
    foes = [u for u in view["combatants"] if u["side"] != me["side"] and not u["defeated"] and u["cell"]]
    if not foes:
        return -1.0
    here = min(abs(me["cell"][0] - f["cell"][0]) + abs(me["cell"][1] - f["cell"][1]) for f in foes)
    there = min(abs(to[0] - f["cell"][0]) + abs(to[1] - f["cell"][1]) for f in foes)
    return 0.3 * (here - there) - 0.05 if there >= 1 else -1.0


def _act_score(view: Mapping[str, Any], units: dict[str, dict[str, Any]], me: Mapping[str, Any],
               cmd: Mapping[str, Any]) -> float:
    action = content().actions[cmd["action"]]
    cost = 0.4 * action.energy + 0.2 * action.focus + 0.1 * cmd.get("reroll", 0)
    if action.dice is not None:
        targets = cmd.get("targets") or []
        hit = [units[t] for t in targets]
        if not hit:
            hit = [u for u in view["combatants"] if u["side"] != me["side"] and not u["defeated"] and u["cell"]
                   and _in_area(view, cmd, u["cell"])]
        gain = sum(max(0.0, expected_av(action.id, t) - t["defense"] * 0.5) + 1 for t in hit)
        return 1.0 + gain + 0.3 * len(action.effects) + 0.2 * cmd.get("reroll", 0) - cost
    value = 0.2
    for step in action.steps:
        if step.do in ("untap", "restore"):
            target = units[(cmd.get("targets") or [me["id"]])[0]]
            value += min(step.amount, target["tapped"] if step.do == "untap" else
                         target["resilience"] - target["untapped"] - target["tapped"])
        elif step.do == "stance":
            value += 0.6
        elif step.do in ("give", "cleanse"):
            value += 0.5
    return value - cost


def _in_area(view: Mapping[str, Any], cmd: Mapping[str, Any], cell: list[int]) -> bool:
    if cmd.get("row") is not None:
        return cell[1] == cmd["row"]
    if cmd.get("col") is not None:
        return abs(cell[0] - cmd["col"]) <= 1
    at = cmd.get("at")
    return at is not None and abs(cell[0] - at[0]) <= 1 and abs(cell[1] - at[1]) <= 1
