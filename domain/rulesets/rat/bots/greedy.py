"""Rat's greedy bot, for either side's seat: from its own view it values knocking out and
killing, reviving a knocked-out ally first, shielding a hurt one, ANALYZE on an enemy not
yet analyzed, and ailments a foe lacks."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.engine.scoring import Wire

from ..content import content


def score(view: Mapping[str, Any], cmd: Wire) -> float:
    own_key = "party" if view.get("side") == "party" else "enemies"
    other_key = "enemies" if own_key == "party" else "party"
    own = {e["id"]: e for e in view[own_key]}
    other = {e["id"]: e for e in view[other_key]}
    action = content().actions[cmd["action"]]
    me, target = own[cmd["actor"]], cmd.get("target")
    value = 0.0
    for step in action.steps:
        if step.do == "damage":
            hits = [other[target]] if target in other else list(other.values()) if action.target == "all_enemies" else []
            for foe in hits:
                if foe["ko"]:
                    value += 50.0
                else:
                    value += step.power * _num(me.get("atk", 30)) / 400 + (20 - (foe.get("hp_pct") or 100) / 5)
        elif step.do == "heal" and target in own:
            ally = own[target] if step.who != "user" else me
            value += 60.0 if ally["ko"] else 30.0 * (1 - ally["hp"] / max(1, ally["max_hp"]))
        elif step.do == "ailment" and target in other:
            held = {a["kind"] for a in other[target]["ailments"]}
            value += 0 if step.ailment in held or other[target]["ko"] else 6.0 * step.chance / 100
        elif step.do == "protect" and target in own:
            ally = own[target]
            value += 12.0 if ally["ko"] or ally["hp"] * 3 < ally["max_hp"] else 0.5
        elif step.do == "analyze" and target in other:
            value += 0.5 if other[target]["analyzed"] else 9.0
        elif step.do == "stat":
            value += 2.0 if step.amount > 0 else 3.0
        elif step.do in ("wish", "stutter", "cure", "priority"):
            value += 3.0
    return value - (0.5 if action.kind == "consumable" else 0.0)


def _num(value: Any) -> float:
    return 10 ** 6 if value == "+inf" else 0.0 if value == "-inf" else float(value)
