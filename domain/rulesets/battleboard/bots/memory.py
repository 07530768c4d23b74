"""The memory bot: greedy scoring, sharpened by what the seat remembers of the battle.

From the seat's AI memory (every action it has seen, with actor and targets) it rates each
enemy by the attacks it has been seen to make on the seat's side (its threat), and each ally
by how often the enemy has aimed at it. It then focuses fire on threatening enemies and those
nearly out of tokens, shields and restores the allies the enemy keeps aiming at, and spends
focus on its Defense when a break would leave it with one token or none."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from domain.engine.scoring import Scorer
from domain.ai.memory import Memory

from ..content import content

Wire = dict[str, Any]


class Reading:
    """The view and memory, read once per decision."""

    def __init__(self, view: Mapping[str, Any], memory: Memory):
        self.view = view
        self.units = {u["id"]: u for u in view["combatants"]}
        self.seat = memory.seat
        side = next((u["side"] for u in self.units.values() if u["seat"] == self.seat), "heroes")
        self.mine = {k for k, u in self.units.items() if u["side"] == side}
        self.threat: Counter[str] = Counter()
        self.aimed_at: Counter[str] = Counter()
        actions = content().actions
        for action in memory.actions:
            data = action["data"]
            actor, used = data.get("unit"), actions.get(str(data.get("action")))
            if actor is None or used is None or used.dice is None or actor in self.mine:
                continue
            hit = [t for t in data.get("targets") or [] if t in self.mine]
            self.threat[actor] += 1 + len(hit)
            self.aimed_at.update(hit)

    def tokens(self, key: str) -> int:
        u = self.units[key]
        return int(u["untapped"]) + int(u["tapped"])


def adjust(r: Reading, cmd: Wire) -> float:
    """What memory adds to the greedy score of one command."""
    kind = cmd["type"]
    if kind == "defend":
        return _defend(r, cmd)
    if kind != "act":
        return 0.0
    action = content().actions[cmd["action"]]
    targets = list(cmd.get("targets") or [])
    if action.dice is not None:
        return sum(0.3 * r.threat[t] + (1.5 if r.tokens(t) <= 1 else 0.0) for t in targets if t in r.units)
    helped = targets or [cmd["unit"]]
    return sum(0.4 * r.aimed_at[t] * (1.0 if r.tokens(t) <= 3 else 0.3) for t in helped if t in r.mine)


def _defend(r: Reading, cmd: Wire) -> float:
    waiting = r.view.get("waiting_defense") or {}
    me = str(waiting.get("unit"))
    if me not in r.units:
        return 0.0
    low = r.tokens(me) <= 2
    return (2.0 if low and cmd.get("focus", 0) else 0.0) + (0.5 if cmd["lose"] == "tapped" and low else 0.0)


def rate(base: Scorer, view: Mapping[str, Any], memory: Memory | None, legal: Sequence[Wire]) -> list[float]:
    """The greedy score plus what memory adds; without a memory, the greedy score alone."""
    if memory is None:
        return [base(view, cmd) for cmd in legal]
    r = Reading(view, memory)
    return [round(base(view, cmd) + adjust(r, cmd), 3) for cmd in legal]
