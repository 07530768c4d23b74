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

from domain.engine.events import Recorded, Viewer, wire_event
from domain.engine.ruleset import Ruleset


class Memory:
    """What `seat` has seen: every action (actor, target), the view at each turn's start,
    and the others' resources as far as they are known.

    A memory made `whole=False` keeps only the last item of each list, besides their counts:
    all that the AI-memory projection needs to go on (it appends to the stored lists and never
    reads them back), so it can keep many seats at hand and recall one in a single read."""

    def __init__(self, seat: str, *, whole: bool = True):
        self.seat = seat
        self.whole = whole
        self.seq = 0
        self.actions: list[dict[str, Any]] = []
        self.turns: list[dict[str, Any]] = []
        self.action_count = 0
        self.turn_count = 0
        self.known: dict[str, Any] = {}
        self._actions_at_turn = 0

    def take(self, rec: Recorded, viewer: Viewer, public: bool) -> bool:
        """One logged event as this seat sees it: an action is observed (redacted for the seat);
        any other event only moves the place read to on, never redacted, as `observe` would
        not read it. Whether it was an action."""
        if rec.event.is_action():
            self.observe(wire_event(rec, viewer, public), True)
            return True
        self.seq = max(self.seq, rec.seq)
        return False

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
            self.action_count += 1
            if not self.whole:
                del self.actions[:-1]

    def settle(self, ruleset: Ruleset[Any], game: Any, view: Mapping[str, Any]) -> str | None:
        """The seat's `view` of `game` now. A new turn records the view as it starts: the view
        after the batch that began it, so settling after every event or after every batch
        gives the same memory. Returns "new" or "updated" when the turn record changed."""
        self.known = dict(ruleset.memory_known(view, self.seat))
        turn = ruleset.turn(game)
        if not self.turns or self.turns[-1]["turn"] != turn:
            self.turns.append({"turn": turn, "seq": self.seq, "view": dict(view)})
            self.turn_count += 1
            if not self.whole:
                del self.turns[:-1]
            self._actions_at_turn = self.action_count
            return "new"
        if self._actions_at_turn == self.action_count and self.turns[-1]["seq"] != self.seq:
            self.turns[-1] = {"turn": turn, "seq": self.seq, "view": dict(view)}
            return "updated"
        return None

    def used_by(self, actor: str) -> list[dict[str, Any]]:
        """The actions `actor` has taken, oldest first."""
        return [a for a in self.actions if a["actor"] == actor]

    @property
    def actions_at_turn(self) -> int:
        """How many actions there were when the last turn began."""
        return self._actions_at_turn

    def as_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "seq": self.seq, "actions": self.actions, "turns": self.turns,
                "known": self.known, "actions_at_turn": self._actions_at_turn}

    @classmethod
    def tail(cls, raw: Mapping[str, Any], action_count: int, turn_count: int,
             last_turn: dict[str, Any] | None) -> "Memory":
        """A memory that is not whole, going on from `raw` (`as_json` without the lists) and
        its last turn's `turn` and `seq` (its view is not needed to go on)."""
        memory = cls(raw["seat"], whole=False)
        memory.seq = raw["seq"]
        memory.action_count, memory.turn_count = action_count, turn_count
        memory.turns = [last_turn] if last_turn is not None else []
        memory.known = dict(raw["known"])
        memory._actions_at_turn = raw["actions_at_turn"]
        return memory

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "Memory":
        memory = cls(raw["seat"])
        memory.seq = raw["seq"]
        memory.actions = list(raw["actions"])
        memory.turns = list(raw["turns"])
        memory.action_count, memory.turn_count = len(memory.actions), len(memory.turns)
        memory.known = dict(raw["known"])
        memory._actions_at_turn = raw.get("actions_at_turn", len(memory.actions))
        return memory
