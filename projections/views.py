"""The read models. Each projection turns one recorded event (with its battle or set id) into
view-store operations; the runner applies them with the view's tracking position.

- `battles`: each battle's current view per seat and for spectators, and an index of live
  and finished battles;
- `memory`: per seat, the AI memory of what that seat has seen (domain/ai/memory.py);
- `leaderboards`: openskill ratings per ruleset from finished sets (a battle outside a set
  is a set of one);
- `history`: each player's battles and sets with their results.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import msgspec

from domain.ai.memory import Memory
from domain.battles import Battles
from domain.engine.battle import BattleCreated, BattleEnded, BattleState, fold
from domain.engine.events import Recorded, Viewer, wire_event
from domain.engine.ruleset import get_ruleset
from domain.sets import SetBattleStarted, SetCreated, SetEnded

from .store import Op, ViewStore


class Folder:
    """Battle states as a projection has seen them, folded event by event (LRU-bounded)."""

    def __init__(self, battles: Battles, size: int = 512):
        self.battles = battles
        self.size = size
        self.states: OrderedDict[str, BattleState] = OrderedDict()

    def advance(self, battle_id: str, rec: Recorded) -> BattleState:
        state = self.states.pop(battle_id, None)
        if state is None or state.seq != rec.seq - 1:
            state = self.battles.load(battle_id, at=rec.seq - 1) if rec.seq > 1 else None
        state = fold(get_ruleset((state.created if state else rec.event).ruleset), state, rec)
        self.states[battle_id] = state
        while len(self.states) > self.size:
            self.states.popitem(last=False)
        return state


class Projection(ABC):
    name = ""
    topics: frozenset[str] | None = None     # the event topics this view reads; None: every one

    def __init__(self, battles: Battles, store: ViewStore):
        self.battles = battles
        self.store = store

    def key(self, *parts: str) -> str:
        return self.store.key(self.name, *parts)

    def reads(self, rec: Recorded) -> bool:
        return self.topics is None or rec.event.TOPIC in self.topics

    @abstractmethod
    def project(self, owner_id: str, rec: Recorded, position: int, batch_end: bool = True) -> list[Op]:
        """The store operations for one event of battle or set `owner_id`, at log `position`.
        `batch_end` is False when the runner knows more events of the same batch follow: views
        that only show the state between batches can wait for the batch's last event."""


class BattleViews(Projection):
    name = "battles"

    def __init__(self, battles: Battles, store: ViewStore):
        super().__init__(battles, store)
        self.folder = Folder(battles)

    def project(self, owner_id: str, rec: Recorded, position: int, batch_end: bool = True) -> list[Op]:
        if rec.event.TOPIC.startswith("sets."):
            return []
        state = self.folder.advance(owner_id, rec)
        if state.game is None or not batch_end:
            return []
        ruleset = get_ruleset(state.created.ruleset)
        ops: list[Op] = []
        viewers = [("spectator", Viewer()), *((seat, Viewer(seat=seat)) for seat in state.table.seats)]
        for name, viewer in viewers:
            seen = state
            horizon = self.battles.horizon(state, viewer)
            if horizon < state.seq:     # spectators held behind see the battle as it was then
                seen = self.battles.load(owner_id, at=horizon)
                if seen.game is None:
                    continue
            shown = Viewer(seat=viewer.seat, omniscient=True) if state.public else viewer
            ops.append(("set", self.key(owner_id, name), {
                "battle_id": owner_id, "ruleset": state.created.ruleset, "seq": seen.seq,
                "players": state.created.players, "outcome": msgspec.to_builtins(seen.outcome),
                "state": ruleset.view(seen.game, shown)}))
        summary = {"battle_id": owner_id, "ruleset": state.created.ruleset, "players": state.created.players,
                   "seq": state.seq, "created_at": state.created.created_at, "private": state.created.private,
                   "outcome": msgspec.to_builtins(state.outcome)}
        ops.append(("hset", self.key("index"), owner_id, summary))
        status = "ended" if state.outcome is not None else "live"
        ops.append(("zrem", self.key("live" if status == "ended" else "ended"), owner_id))
        ops.append(("zadd", self.key(status), owner_id, float(position)))
        return ops


class AiMemory(Projection):
    """Per seat, only what that seat has seen: its redacted events and its own view."""
    name = "memory"

    def __init__(self, battles: Battles, store: ViewStore):
        super().__init__(battles, store)
        self.folder = Folder(battles)
        self.memories: OrderedDict[tuple[str, str], Memory] = OrderedDict()

    def memory(self, battle_id: str, seat: str) -> Memory:
        found = self.memories.pop((battle_id, seat), None)
        if found is None:
            found = self.recall(battle_id, seat)
        self.memories[(battle_id, seat)] = found
        while len(self.memories) > 2048:
            self.memories.popitem(last=False)
        return found

    def recall(self, battle_id: str, seat: str) -> Memory:
        stored = read_memory(self.store, battle_id, seat)
        return Memory.from_json(stored) if stored is not None else Memory(seat)

    def project(self, owner_id: str, rec: Recorded, position: int, batch_end: bool = True) -> list[Op]:
        if rec.event.TOPIC.startswith("sets."):
            return []
        state = self.folder.advance(owner_id, rec)
        if state.game is None:
            return []
        ruleset = get_ruleset(state.created.ruleset)
        ops: list[Op] = []
        for seat in state.table.seats:
            memory = self.memory(owner_id, seat)
            if memory.seq and memory.seq < rec.seq - 1:
                memory = self.memories[(owner_id, seat)] = self.recall(owner_id, seat)
            if rec.seq <= memory.seq:
                continue
            viewer = Viewer(seat=seat)
            before = len(memory.actions)
            memory.observe(wire_event(rec, viewer, state.public), rec.event.starts_batch())
            if len(memory.actions) > before:
                ops.append(("rpush", self.key(owner_id, seat, "actions"), memory.actions[-1]))
            if not batch_end:       # settling after a batch or after each event gives one memory
                ops.append(("set", self.key(owner_id, seat, "meta"), self.meta(memory)))
                continue
            shown = Viewer(seat=seat, omniscient=True) if state.public else viewer
            changed = memory.settle(ruleset, state.game, ruleset.view(state.game, shown))
            if changed == "new":
                ops.append(("rpush", self.key(owner_id, seat, "turns"), memory.turns[-1]))
            elif changed == "updated":
                ops.append(("lset_last", self.key(owner_id, seat, "turns"), memory.turns[-1]))
            ops.append(("set", self.key(owner_id, seat, "meta"), self.meta(memory)))
        return ops

    @staticmethod
    def meta(memory: Memory) -> dict[str, Any]:
        return {"seat": memory.seat, "seq": memory.seq, "known": memory.known,
                "actions_at_turn": memory.as_json()["actions_at_turn"]}


def read_memory(store: ViewStore, battle_id: str, seat: str) -> dict[str, Any] | None:
    meta = store.get(store.key("memory", battle_id, seat, "meta"))
    if meta is None:
        return None
    return {**meta, "actions": store.lrange(store.key("memory", battle_id, seat, "actions")),
            "turns": store.lrange(store.key("memory", battle_id, seat, "turns"))}


class Leaderboards(Projection):
    """openskill (Plackett-Luce) ratings per ruleset; the ranking is by ordinal (mu - 3 sigma)."""
    name = "leaderboards"
    topics = frozenset(c.TOPIC for c in (SetBattleStarted, BattleCreated, BattleEnded, SetEnded))

    def __init__(self, battles: Battles, store: ViewStore):
        super().__init__(battles, store)
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()

    def project(self, owner_id: str, rec: Recorded, position: int, batch_end: bool = True) -> list[Op]:
        event = rec.event
        if isinstance(event, SetBattleStarted):
            return [("hset", self.key("in-set"), event.battle_id, event.set_id)]
        if isinstance(event, BattleCreated):
            return [("hset", self.key("pending"), owner_id, {"ruleset": event.ruleset, "players": event.players})]
        if isinstance(event, BattleEnded):
            pending = self.store.hget(self.key("pending"), owner_id)
            ops: list[Op] = [("hdel", self.key("pending"), owner_id), ("hdel", self.key("in-set"), owner_id)]
            if pending is not None and self.store.hget(self.key("in-set"), owner_id) is None:
                ops += self.rate(pending["ruleset"], pending["players"], event.winner)
            return ops
        if isinstance(event, SetEnded):
            return self.rate(event.ruleset, event.players, event.winner)
        return []

    def rate(self, ruleset: str, players: dict[str, str], winner: str | None) -> list[Op]:
        stats_key = self.key(ruleset, "stats")
        seats = sorted(players)
        rows = {seat: self.store.hget(stats_key, players[seat]) or {"mu": None, "sigma": None, "games": 0, "wins": 0}
                for seat in seats}
        teams = [[self.model.rating(mu=rows[s]["mu"], sigma=rows[s]["sigma"], name=players[s])
                  if rows[s]["mu"] is not None else self.model.rating(name=players[s])] for s in seats]
        ranks = [0 if winner is None or s == winner else 1 for s in seats]
        rated = self.model.rate(teams, ranks=ranks)
        ops: list[Op] = []
        for seat, (rating,) in zip(seats, rated):
            row = {"mu": rating.mu, "sigma": rating.sigma, "games": rows[seat]["games"] + 1,
                   "wins": rows[seat]["wins"] + (1 if winner == seat else 0)}
            ops.append(("hset", stats_key, players[seat], row))
            ops.append(("zadd", self.key(ruleset, "ranking"), players[seat], ordinal(row)))
            ops.append(("hset", self.key("players", players[seat]), ruleset, row))
        return ops


def ordinal(row: dict[str, Any]) -> float:
    return round(row["mu"] - 3 * row["sigma"], 6)


class PlayerHistory(Projection):
    name = "history"
    topics = frozenset(c.TOPIC for c in (BattleCreated, BattleEnded, SetCreated, SetEnded))

    def project(self, owner_id: str, rec: Recorded, position: int, batch_end: bool = True) -> list[Op]:
        event = rec.event
        if isinstance(event, BattleCreated):
            return [("rpush", self.key(player, "battles"),
                     {"battle_id": owner_id, "ruleset": event.ruleset, "seat": seat, "players": event.players,
                      "created_at": event.created_at}) for seat, player in event.players.items()] + \
                   [("hset", self.key("battle-players"), owner_id, event.players)]
        if isinstance(event, BattleEnded):
            players = self.store.hget(self.key("battle-players"), owner_id) or {}
            return [("hset", self.key(player, "results"), owner_id, result_of(seat, event.winner))
                    for seat, player in players.items()] + [("hdel", self.key("battle-players"), owner_id)]
        if isinstance(event, SetCreated):
            return [("rpush", self.key(player, "sets"),
                     {"set_id": event.set_id, "ruleset": event.ruleset, "seat": seat, "games": event.games,
                      "mode": event.mode, "created_at": event.created_at})
                    for seat, player in event.players.items()]
        if isinstance(event, SetEnded):
            return [("hset", self.key(player, "results"), event.set_id, result_of(seat, event.winner))
                    for seat, player in event.players.items()]
        return []


def result_of(seat: str, winner: str | None) -> str:
    return "draw" if winner is None else ("win" if winner == seat else "loss")


PROJECTIONS: dict[str, type[Projection]] = {p.name: p for p in (BattleViews, AiMemory, Leaderboards, PlayerHistory)}


def make_projections(battles: Battles, store: ViewStore, names: Sequence[str] | None = None) -> list[Projection]:
    return [PROJECTIONS[name](battles, store) for name in (names or PROJECTIONS)]
