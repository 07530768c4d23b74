"""`memory` for ring: the greedy value, adjusted by what the seat remembers of the battle.

- The damage the opponent dealt on its past turns predicts its next turn: a Ring unit
  that would not survive it is swapped out, or at least not left in the Ring at 0 AP.
- The tags of the abilities the opponent has used say what to brace for: a unit whose
  TAGs or Dynamics ward against them is preferred in the Ring.
- Dynamics in play that punish MP use make MP-hungry abilities worth less.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from domain.rulesets.ring.content import CONTENT

from . import Policy, UnknownPolicy, Wire, policy
from .memory import Memory
from .ring_greedy import me_and_foe, score

WARDS = {"fiery": ("fire_ward", "fortify")}


def threat(memory: Memory, seat: str) -> int:
    """The most HP the opponent took from this seat's units over one of its turns."""
    worst = 0
    turns = memory.turns
    for before, after in zip(turns, turns[1:]):
        if before["view"]["active"] in (seat, None):
            continue
        units_before = before["view"]["seats"][seat]["units"]
        units_after = after["view"]["seats"][seat]["units"]
        lost = sum(max(0, units_before[k]["hp"] - units_after[k]["hp"]) for k in units_before)
        worst = max(worst, lost)
    return worst


def favourite_tags(memory: Memory, foe: str) -> Counter[str]:
    tags: Counter[str] = Counter()
    for action in memory.used_by(foe):
        ability = action["data"].get("ability")
        if action["type"] == "ring.AbilityUsed" and ability in CONTENT.abilities:
            tags.update(CONTENT.abilities[ability].tags)
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
            value += 30.0
        value += 4.0 * warded(incoming, view, favourite_tags(memory, foe))
    if cmd["type"] == "pick_ring":
        value += 4.0 * warded(me["units"][f"{seat}.{cmd['unit']}"], view, favourite_tags(memory, foe))
    if cmd["type"] == "ability":
        ability = CONTENT.abilities[cmd["ability"]]
        punishing = [d for d in view["dynamics"] if d["active"] and d["kind"] == "casters_bane"]
        value -= 0.2 * ability.mp * sum(d["severity"] for d in punishing)
    if cmd["type"] == "end_turn":
        current = me["units"].get(me["ring"] or "")
        danger = threat(memory, seat)
        if current is not None and danger >= current["hp"] > 0:
            value -= 5.0
    return value


def warded(unit: Mapping[str, Any], view: Mapping[str, Any], tags: Counter[str]) -> int:
    key = f"{next(s for s, side in view['seats'].items() if side['items'] is not None)}.{unit['unit']}"
    kinds = {d["kind"] for d in view["dynamics"] if d["unit"] == key and d["active"]}
    return sum(count for tag, count in tags.items() if kinds & set(WARDS.get(tag, ())))


class MemoryPolicy:
    name = "memory"
    needs_view = True
    needs_memory = True

    def choose(self, view: Mapping[str, Any] | None, legal: Sequence[Wire], rng: Any,
               memory: Memory | None = None) -> Wire:
        assert view is not None
        memory = memory or Memory(next(s for s, side in view["seats"].items() if side["items"] is not None))
        scored = [(adjust(view, cmd, memory), i) for i, cmd in enumerate(legal)]
        best = max(s for s, _ in scored)
        return legal[rng.choice([i for s, i in scored if s == best])]


@policy("memory")
def make_memory(ruleset_id: str) -> Policy:
    if ruleset_id != "ring":
        raise UnknownPolicy(f"no memory policy for {ruleset_id!r}")
    return MemoryPolicy()
