"""Rat's greedy bot, for either side's seat: from its own view it values knocking out and
killing, reviving a knocked-out ally first, shielding a hurt one, ANALYZE on an enemy not
yet analyzed, and ailments a foe lacks. It reads its side's plans for the turn so far (the
view's `plans`): one hit is enough to kill a knocked-out foe, one revival or shield enough
for a knocked-out ally, and a foe its allies are hitting is worth hitting too."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.engine.scoring import Wire

from ..content import content

KILL = 50.0                 # a hit on a knocked-out foe: the kill
REVIVE = 60.0               # healing a knocked-out ally
SHIELD_DOWN = 40.0          # PROTECT on a knocked-out ally: no kill this turn
WISH_DOWN = 35.0            # WISH on a knocked-out ally: it is back at the next turn's start
FOCUS = 4.0                 # a hit on a standing foe an ally is hitting this turn
DONE = 1.0                  # what an ally has already planned for the same target


def planned(view: Mapping[str, Any], actor: str) -> dict[str, set[str]]:
    """What the rest of the side has planned on each target this turn: the step kinds."""
    found: dict[str, set[str]] = {}
    actions = content().actions
    for who, plan in (view.get("plans") or {}).items():
        if who == actor or plan.get("target") is None or plan["action"] not in actions:
            continue
        found.setdefault(plan["target"], set()).update(step.do for step in actions[plan["action"]].steps)
    return found


def score(view: Mapping[str, Any], cmd: Wire) -> float:
    own_key = "party" if view.get("side") == "party" else "enemies"
    other_key = "enemies" if own_key == "party" else "party"
    own = {e["id"]: e for e in view[own_key]}
    other = {e["id"]: e for e in view[other_key]}
    action = content().actions[cmd["action"]]
    me, target = own[cmd["actor"]], cmd.get("target")
    done = planned(view, cmd["actor"]).get(target or "", set())
    value = 0.0
    for step in action.steps:
        if step.do == "damage":
            hits = [other[target]] if target in other else list(other.values()) if action.target == "all_enemies" else []
            for foe in hits:
                value += _hit(foe, step.power * _num(me.get("atk", 30)) / 400, done if foe["id"] == target else set())
        elif step.do == "heal" and target in own:
            ally = own[target] if step.who != "user" else me
            value += (DONE if "heal" in done else REVIVE) if ally["ko"] else \
                30.0 * (1 - ally["hp"] / max(1, ally["max_hp"]))
        elif step.do == "ailment" and target in other:
            value += 0 if _resists(other[target], step.ailment, other_key) else 6.0 * step.chance / 100
        elif step.do == "protect" and target in own:
            value += _shield(own[target], done)
        elif step.do == "wish" and target in own:
            value += _wish(own[target], done)
        elif step.do == "analyze" and target in other:
            value += 0.5 if other[target]["analyzed"] else 9.0
        elif step.do == "stat":
            value += 2.0 if step.amount > 0 else 3.0
        elif step.do in ("stutter", "cure", "priority"):
            value += 3.0
    return value - (0.5 if action.kind == "consumable" else 0.0)


def _resists(foe: Mapping[str, Any], ailment: str, side: str) -> bool:
    """The foe has the ailment, is down, or is an enemy immune to it (enemy content is public)."""
    return (foe["ko"] or ailment in {a["kind"] for a in foe["ailments"]}
            or side == "enemies" and content().immune(foe["kind"], ailment))


def _hit(foe: Mapping[str, Any], strength: float, done: set[str]) -> float:
    """A hit on `foe`: the kill of a knocked-out one (once), else its strength and the more
    the lower the foe's HP bar, and more still if an ally is hitting it too."""
    if foe["ko"]:
        return DONE if "damage" in done else KILL
    return strength + (20 - (foe.get("hp_pct") or 100) / 5) + (FOCUS if "damage" in done else 0.0)


def _shield(ally: Mapping[str, Any], done: set[str]) -> float:
    if "protect" in done or ally.get("protected"):
        return DONE
    if ally["ko"]:
        return SHIELD_DOWN
    return 12.0 if ally["hp"] * 3 < ally["max_hp"] else 0.5


def _wish(ally: Mapping[str, Any], done: set[str]) -> float:
    if "wish" in done or ally.get("wish"):
        return DONE
    if ally["ko"]:
        return WISH_DOWN
    return 3.0 + 20.0 * (1 - ally["hp"] / max(1, ally["max_hp"]))


def _num(value: Any) -> float:
    return 10 ** 6 if value == "+inf" else 0.0 if value == "-inf" else float(value)
