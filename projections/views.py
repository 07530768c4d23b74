"""The read models. Each projection turns one recorded event (with its battle or set id) into
view-store operations; the runner applies them with the view's tracking position.

- `battles`: each battle's current view per seat and for spectators, and an index of live
  and finished battles;
- `memory`: per seat, the AI memory of what that seat has seen (domain/ai/memory.py);
- `leaderboards` and `history` (projections/ratings.py): openskill ratings of sides as teams,
  and each player's battles and sets with their side and results.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import msgspec

from domain.ai.memory import Memory
from domain.battles import Battles
from domain.engine.events import Recorded, Viewer
from domain.engine.ruleset import ruleset_of
from domain.reading import game_view
from domain.store import BESIDE_BATTLES

from .base import Folder, Projection
from .ratings import Leaderboards, PlayerHistory
from .ops import HSet, LSetLast, Op, RPush, SetKey, ZAdd, ZRem
from .store import ViewStore


# Seats' memories kept at hand, each as its lists' lengths and last turn (`Memory.tail`);
# others are recalled from their meta, one read.
MEMORIES = 8192


class BattleViews(Projection):
    name = "battles"

    def __init__(self, battles: Battles, store: ViewStore):
        super().__init__(battles, store)
        self.folder = Folder.of(battles)

    def project(self, owner_id: str, rec: Recorded, position: int, batch_end: bool = True,
                superseded: bool = False) -> list[Op]:
        if rec.event.TOPIC.startswith(BESIDE_BATTLES):
            return []
        state = self.folder.advance(owner_id, rec)
        if state.game is None or not batch_end or superseded:
            return []       # the later batch's views replace these at once
        ops: list[Op] = []
        viewers = [("spectator", Viewer()), *((seat, Viewer(seat=seat)) for seat in state.table.seats)]
        for name, viewer in viewers:
            # As of the folded state, not the store's latest: the view this event leaves behind.
            view = self.battles.reading.sight_of(state, viewer).view()
            if view["state"] is not None:       # None: held back to before the game began
                ops.append(SetKey(self.key(owner_id, name), view))
        summary = {"battle_id": owner_id, "ruleset": state.created.ruleset, "players": state.created.players,
                   "seq": state.seq, "created_at": state.created.created_at, "private": state.created.private,
                   "outcome": msgspec.to_builtins(state.outcome)}
        ops.append(HSet(self.key("index"), owner_id, summary))
        status = "ended" if state.outcome is not None else "live"
        ops.append(ZRem(self.key("live" if status == "ended" else "ended"), owner_id))
        ops.append(ZAdd(self.key(status), owner_id, float(position)))
        return ops


class AiMemory(Projection):
    """Per seat, only what that seat has seen: its redacted events and its own view."""
    name = "memory"

    def __init__(self, battles: Battles, store: ViewStore):
        super().__init__(battles, store)
        self.folder = Folder.of(battles)
        self.memories: OrderedDict[tuple[str, str], Memory] = OrderedDict()

    def memory(self, battle_id: str, seat: str) -> Memory:
        found = self.memories.pop((battle_id, seat), None)
        if found is None:
            found = self.recall(battle_id, seat)
        self.memories[(battle_id, seat)] = found
        return found

    def forget(self) -> None:
        """Keep at most MEMORIES at hand, the least recently used going first: only at a batch's
        end, since a memory the open batch changed has no meta in the store until then."""
        while len(self.memories) > MEMORIES:
            self.memories.popitem(last=False)

    def recall(self, battle_id: str, seat: str) -> Memory:
        """The seat's memory as far as the store has it, to go on from: its meta is enough."""
        meta = self.store.get(self.store.key("memory", battle_id, seat, "meta"))
        if meta is None:
            return Memory(seat, whole=False)
        if "turn_count" not in meta:       # kept by an earlier version: count the lists
            full = read_memory(self.store, battle_id, seat)
            assert full is not None
            return Memory.tail(meta, len(full["actions"]), len(full["turns"]), last_turn(full["turns"]))
        return Memory.tail(meta, meta["action_count"], meta["turn_count"], meta["last_turn"])

    def project(self, owner_id: str, rec: Recorded, position: int, batch_end: bool = True,
                superseded: bool = False) -> list[Op]:
        if rec.event.TOPIC.startswith(BESIDE_BATTLES):
            return []
        state = self.folder.advance(owner_id, rec)
        if state.game is None:
            return []
        ruleset = ruleset_of(state.created)
        ops: list[Op] = []
        for seat in state.table.seats:
            memory = self.memory(owner_id, seat)
            if memory.seq and memory.seq < rec.seq - 1:
                memory = self.memories[(owner_id, seat)] = self.recall(owner_id, seat)
            if rec.seq <= memory.seq:
                continue
            viewer = Viewer(seat=seat)
            if memory.take(rec, viewer, state.public):
                ops.append(RPush(self.key(owner_id, seat, "actions"), memory.actions[-1]))
            if not batch_end:
                # The batch's frame is applied whole, with the meta its end writes: a runner
                # that stops before then reads the batch again from the meta it has.
                # Settling after a batch or after each event gives one memory.
                continue
            seen = game_view(state, viewer)
            assert seen is not None             # None only before the game began, returned above
            changed = memory.settle(ruleset, state.game, seen)
            if changed == "new":
                ops.append(RPush(self.key(owner_id, seat, "turns"), memory.turns[-1]))
            elif changed == "updated":
                ops.append(LSetLast(self.key(owner_id, seat, "turns"), memory.turns[-1]))
            ops.append(SetKey(self.key(owner_id, seat, "meta"), self.meta(memory)))
        if batch_end:
            self.forget()
        return ops

    @staticmethod
    def meta(memory: Memory) -> dict[str, Any]:
        """What the seat's memory is besides its lists, with their lengths and its last turn's
        number and seq: all a runner needs to go on from it."""
        return {"seat": memory.seat, "seq": memory.seq, "known": memory.known,
                "actions_at_turn": memory.actions_at_turn, "action_count": memory.action_count,
                "turn_count": memory.turn_count, "last_turn": last_turn(memory.turns)}


def last_turn(turns: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What the memory's next settle needs of its last turn: its number and seq, not its view."""
    return {"turn": turns[-1]["turn"], "seq": turns[-1]["seq"]} if turns else None


MEMORY_FIELDS = ("seat", "seq", "known", "actions_at_turn")


def read_memory(store: ViewStore, battle_id: str, seat: str) -> dict[str, Any] | None:
    """The seat's whole memory, as `Memory.as_json`."""
    meta = store.get(store.key("memory", battle_id, seat, "meta"))
    if meta is None:
        return None
    return {**{name: meta[name] for name in MEMORY_FIELDS},
            "actions": store.lrange(store.key("memory", battle_id, seat, "actions")),
            "turns": store.lrange(store.key("memory", battle_id, seat, "turns"))}


PROJECTIONS: dict[str, type[Projection]] = {p.name: p for p in (BattleViews, AiMemory, Leaderboards, PlayerHistory)}


def make_projections(battles: Battles, store: ViewStore, names: Sequence[str] | None = None) -> list[Projection]:
    return [PROJECTIONS[name](battles, store) for name in (names or PROJECTIONS)]
