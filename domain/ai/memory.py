"""AI memory: one seat's perfect recall of a battle, built only from what that seat may see.

It is fed the seat's redacted wire events (`{seq, type, data, chain}`) and the seat's own
view after each batch, so it cannot hold anything the seat was not shown. The same fold
serves the `memory` bots in simulation and the AI-memory projection behind
`GET /battles/{id}/memory`.

Two declared ruleset parts shape it: `turn(state)`, the public turn number (the same marks
the replay timeline uses), and `memory_known(view, seat)`, what the seat knows of the others'
resources (MP, PP, energy), read from the seat's own view.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.engine.ruleset import Ruleset


class Memory:
    """What `seat` has seen: every action (actor, target), the view at each turn's start,
    and the others' resources as far as they are known."""

    def __init__(self, seat: str):
        self.seat = seat
        self.seq = 0
        self.actions: list[dict[str, Any]] = []
        self.turns: list[dict[str, Any]] = []
        self.known: dict[str, Any] = {}
        self._actions_at_turn = 0

    def observe(self, wire: Mapping[str, Any], action: bool) -> None:
        """One redacted event; `action` marks actions (a command's echo, or a choice the rules
        made for a side no seat plays, whose actor is its `actor` or `seat` field)."""
        if wire["seq"] <= self.seq:
            return
        self.seq = wire["seq"]
        if action:
            data = wire["data"]
            target = data.get("target", data.get("targets"))
            self.actions.append({"seq": wire["seq"], "type": wire["type"], "actor": data.get("actor", data.get("seat")),
                                 "target": target, "data": dict(data)})

    def settle(self, ruleset: Ruleset[Any], game: Any, view: Mapping[str, Any]) -> str | None:
        """The seat's `view` of `game` now. A new turn records the view as it starts: the view
        after the batch that began it, so settling after every event or after every batch
        gives the same memory. Returns "new" or "updated" when the turn record changed."""
        self.known = dict(ruleset.memory_known(view, self.seat))
        turn = ruleset.turn(game)
        if not self.turns or self.turns[-1]["turn"] != turn:
            self.turns.append({"turn": turn, "seq": self.seq, "view": dict(view)})
            self._actions_at_turn = len(self.actions)
            return "new"
        if self._actions_at_turn == len(self.actions) and self.turns[-1]["seq"] != self.seq:
            self.turns[-1] = {"turn": turn, "seq": self.seq, "view": dict(view)}
            return "updated"
        return None

    def used_by(self, actor: str) -> list[dict[str, Any]]:
        """The actions `actor` has taken, oldest first."""
        return [a for a in self.actions if a["actor"] == actor]

    def as_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "seq": self.seq, "actions": self.actions, "turns": self.turns,
                "known": self.known, "actions_at_turn": self._actions_at_turn}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "Memory":
        memory = cls(raw["seat"])
        memory.seq = raw["seq"]
        memory.actions = list(raw["actions"])
        memory.turns = list(raw["turns"])
        memory.known = dict(raw["known"])
        memory._actions_at_turn = raw.get("actions_at_turn", len(memory.actions))
        return memory
