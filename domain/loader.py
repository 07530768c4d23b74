"""Loading battles: the state cache, snapshots and the log follower that keeps the cache current.

A battle's state now is its cached state plus the events stored after it; a state at an
earlier seq starts from the latest snapshot at or before it. The log follower
(domain/freshness.py) fast-forwards cached states by other writers' events, so that the
group-commit writer can decide commands against the cache alone.
"""
from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from typing import Any, cast

import msgspec

from domain.engine.battle import BattleCreated, BattleState, fold
from domain.engine.errors import SeqOutOfRange, UnknownBattle
from domain.engine.events import Recorded, decode_event
from domain.engine.ruleset import Outcome, Ruleset, get_ruleset, ruleset_of
from domain.engine.timing import ClockState
from domain.freshness import LogFollower
from domain.store import BattleStore, LogCursor, StateCache


def parse_battle_id(battle_id: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(battle_id))
    except ValueError:
        raise UnknownBattle(f"no battle {battle_id!r}", battle_id=str(battle_id)) from None


def keyframes(ruleset: Ruleset[Any], records: Sequence[Recorded], every: int) -> list[BattleState]:
    """The states at every `every`-th seq and at the end: the snapshots seeking starts from."""
    frames, state = [], None
    for rec in records:
        state = fold(ruleset, state, rec)
        if rec.seq % every == 0:
            frames.append(state)
    if state is not None and (not frames or frames[-1].seq != state.seq):
        frames.append(state)
    return frames


class Loader:
    """Battle states and records from one store, through a cache that follows its log."""

    def __init__(self, store: BattleStore, cache_size: int):
        self.store = store
        self.cache = StateCache(cache_size)
        self.follower = LogFollower(store, self.cache, self._fast_forward)

    def load(self, battle_id: str, at: int | None = None) -> BattleState:
        """The state now (cache + the events after it) or at seq `at` (snapshot + the rest)."""
        bid = parse_battle_id(battle_id)
        if at is not None and at < 1:
            raise SeqOutOfRange(f"seq {at} is out of range; the first event is seq 1", seq=at)
        generation = self.follower.generation
        state = self.cache.get(str(bid)) if at is None else None
        if state is None or (at is not None and state.seq > at):
            state = self._from_snapshot(bid, at)
        ruleset = None
        for stored in self.store.stored_records(bid, gt=state.seq if state else None, lte=at):
            if ruleset is None:
                ruleset = ruleset_of(state.created if state else cast(BattleCreated, stored.event))
            state = fold(ruleset, state, stored)
        if state is None:
            raise UnknownBattle(f"no battle {battle_id!r}", battle_id=str(battle_id))
        if at is not None and state.seq < at:
            raise SeqOutOfRange(f"the battle has {state.seq} events; there is no seq {at}", seq=at, last=state.seq)
        if at is None:
            self.follower.cache(str(bid), state, generation)
        return state

    def created(self, battle_id: str) -> BattleCreated:
        """The battle's creation, which never changes: from its cached state when there is one."""
        state = self.cache.get(str(parse_battle_id(battle_id)))
        return (state or self.load(battle_id)).created

    def _fast_forward(self, state: BattleState | None, note: Any) -> BattleState | None:
        """`state` after the logged event `note` (its next seq), for the log follower; from
        None, the battle a `BattleCreated` starts (None for any other first record)."""
        if state is None and note.topic != BattleCreated.TOPIC:
            return None
        rec: Recorded = self.store.mapper.to_domain_event(note)
        return fold(ruleset_of(state.created if state is not None else cast(BattleCreated, rec.event)), state, rec)

    def _from_snapshot(self, bid: uuid.UUID, at: int | None) -> BattleState | None:
        found = self.store.latest_snapshot(bid, at)
        if found is None:
            return None
        body = found.body
        created = cast(BattleCreated, decode_event(BattleCreated.TOPIC, body["created"]))
        ruleset = ruleset_of(created)
        if (created.ruleset_version, created.content_hash) != (ruleset.version, ruleset.content_hash) or \
                body.get("installed") != get_ruleset(created.ruleset).version:
            return None     # folded by other rules, or stored by other code: fold from the events instead
        first = fold(ruleset, None, Recorded(1, created, ""))
        return msgspec.structs.replace(
            first, seq=body["seq"], chain=body["chain"], game=msgspec.convert(body["game"], type=ruleset.state_type),
            outcome=msgspec.convert(body["outcome"], type=Outcome) if body["outcome"] else None,
            clock=msgspec.convert(body["clock"], type=ClockState) if body.get("clock") else None)

    def records(self, battle_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[Recorded]:
        bid = parse_battle_id(battle_id)
        found = self.store.stored_records(bid, gt=from_seq - 1 if from_seq > 1 else None, lte=to_seq)
        if not found and from_seq <= 1:
            raise UnknownBattle(f"no battle {battle_id!r}", battle_id=str(battle_id))
        return found

    @staticmethod
    def ruleset_of(state: BattleState) -> Ruleset[Any]:
        return ruleset_of(state.created)

    def battle_ids(self) -> Iterator[str]:
        """Every battle, oldest first, from the notification log."""
        for note in LogCursor(self.store, [BattleCreated.TOPIC]).read():
            yield str(note.originator_id)
