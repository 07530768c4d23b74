"""`memory` for ring: the greedy value, adjusted by what the seat remembers of the battle.

- The damage the opponent dealt to the Ring unit on its past turns predicts its next
  turn: a Ring unit that would not survive it is swapped for one that would.
- The tags of the abilities the opponent has used say what to brace for: a unit whose
  TAGs or Dynamics ward against them is preferred in the Ring.
- Dynamics in play that punish MP use make MP-hungry abilities worth less.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from domain.ai.greedy import Wire, best
from domain.ai.memory import Memory
from domain.engine.bots import Bot

from ..content import content
from .value import me_and_foe, score

WARDS = {"fiery": ("fire_ward", "fortify")}


def threat(memory: Memory, seat: str) -> int:
    """The most HP the opponent took from this seat's Ring unit over one of its turns."""
    worst = 0
    turns = memory.turns
    for before, after in zip(turns, turns[1:]):
        if before["view"]["active"] in (seat, None):
            continue
        ring = before["view"]["seats"][seat]["ring"]
        if ring is None:
            continue
        hp_before = before["view"]["seats"][seat]["units"][ring]["hp"]
        hp_after = after["view"]["seats"][seat]["units"][ring]["hp"]
        worst = max(worst, hp_before - hp_after)
    return worst


def favourite_tags(memory: Memory, foe: str) -> Counter[str]:
    tags: Counter[str] = Counter()
    for action in memory.used_by(foe):
        ability = action["data"].get("ability")
        if action["type"] == "ring.AbilityUsed" and ability in content().abilities:
            tags.update(content().abilities[ability].tags)
    return tags


def adjust(view: Mapping[str, Any], cmd: Wire, memory: Memory) -> float:
    seat, foe = me_and_foe(view)
    value = score(view, cmd)
    me = view["seats"][seat]
    if cmd["type"] == "swap" and not view["swap_required"]:
        incoming = me["units"][f"{seat}.{cmd['unit']}"]
        current = me["units"].get(me["ring"] or "")
        danger = threat(memory, seat)
        if current is not None and danger and current["hp"] <= danger < incoming["hp"]:
            value += 15.0
        tags = favourite_tags(memory, foe)
        value += 6.0 * max(0.0, warded(incoming, view, tags) - warded(current, view, tags))
    if cmd["type"] == "pick_ring":
        value += 6.0 * warded(me["units"][f"{seat}.{cmd['unit']}"], view, favourite_tags(memory, foe))
    if cmd["type"] == "ability":
        ability = content().abilities[cmd["ability"]]
        punishing = [d for d in view["dynamics"] if d["active"] and d["kind"] == "casters_bane"]
        value -= 0.2 * ability.mp * sum(d["severity"] for d in punishing)
    return value


def warded(unit: Mapping[str, Any] | None, view: Mapping[str, Any], tags: Counter[str]) -> float:
    """The share of the opponent's remembered ability uses this unit's Dynamics ward against."""
    if unit is None or not tags:
        return 0.0
    key = f"{unit['seat']}.{unit['unit']}"
    kinds = {d["kind"] for d in view["dynamics"] if d["unit"] == key and d["active"]}
    covered = sum(count for tag, count in tags.items() if kinds & set(WARDS.get(tag, ())))
    return covered / sum(tags.values())


class MemoryPolicy(Bot):
    name = "memory"
    needs_view = True
    needs_memory = True

    def choose(self, view: Mapping[str, Any] | None, legal: Sequence[Any], rng: Any, memory: Any = None) -> Wire:
        assert view is not None
        memory = memory or Memory(next(s for s, side in view["seats"].items() if side["items"] is not None))
        return best([adjust(view, cmd, memory) for cmd in legal], legal, rng)
