"""Writing battles: deciding commands against the latest states, saving batches, snapshots.

The group-commit writer (domain/committer.py) plans each job through `plan_submit` and saves a
whole group with one `write`; `submit_alone` does one command in a transaction of its own,
reloading and deciding again on a conflict. After every committed batch `committed_batch`
caches its state, snapshots it now and then, and tells the commit listeners.
"""
from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from eventsourcing.persistence import IntegrityError

from domain.access import token_seat
from domain.adapters.eventsourcing import record
from domain.committer import Planned
from domain.engine.battle import BattleEnded, BattleState, decide_batch
from domain.engine.errors import IdempotencyConflict, StaleState
from domain.engine.events import Recorded
from domain.engine.ruleset import ruleset_of
from domain.engine.timeouts import credit_outage, decide_timeout
from domain.loader import Loader, keyframes
from domain.store import IDEMPOTENCY_TOPIC, SNAPSHOT_TOPIC, StoredBlob, StoredRecord, encode_snapshot

IDEMPOTENCY_NS = uuid.UUID("5b0c7f8e-3c1d-4f4e-9a57-2f1f2a6c0b11")
log = logging.getLogger("domain.battles")     # the service's log, whichever part of it writes
# Called after each committed batch with (battle id, its records, the state after them).
CommitListener = Callable[[str, list[Recorded], BattleState], None]


@dataclass(frozen=True)
class Ask:
    """A command waiting to be decided: from `seat`, or the seat `token` opens."""
    bid: uuid.UUID
    seat: str | None
    token: str | None
    command: Mapping[str, Any]
    expected_seq: int | None
    idempotency_key: str | None
    digest: str


@dataclass(frozen=True)
class Submitted:
    seq: int
    records: list[Recorded]
    public: bool
    seat: str = ""          # the seat that acted: the answer is redacted for it


def wall_ms() -> int:
    """Now, in integer milliseconds since the Unix epoch: the only wall clock battles read."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class ClockAsk:
    """A batch the server appends for a battle's clock: `seat`'s timeout, or (with `since_ms`)
    the credit of an outage from then until now; refused unless the battle is at `expected_seq`."""
    bid: uuid.UUID
    expected_seq: int
    seat: str | None = None
    since_ms: int | None = None
    reason: str = ""


class Writer:
    def __init__(self, loader: Loader, *, snapshot_every: int, retries: int, now_ms: Callable[[], int] = wall_ms):
        self.now_ms = now_ms        # the time a batch is accepted at; tests inject their own
        self.loader = loader
        self.store = loader.store
        self.cache = loader.cache
        self.follower = loader.follower
        self.snapshot_every = snapshot_every
        self.retries = retries
        self.committed: list[CommitListener] = []
        # One writer at a time in this process: concurrent SQLite writers would otherwise wait
        # in SQLite's busy handler, which sleeps in steps of up to 100 ms.
        self.write_lock = threading.Lock()

    def plan_submit(self, ask: Ask, heads: dict[str, BattleState], keys: dict[Any, Any],
                    synced: bool = True) -> Planned | Submitted:
        """Decide `ask` against its battle's state in this group, else its latest: the cached
        one when the cache has just been synced with the log (`synced`), else a load."""
        key = str(ask.bid)
        state = heads.get(key) or (synced and self.cache.get(key)) or self.loader.load(key)
        seat = ask.seat or token_seat(state.created, ask.token or "")
        key_id = self._key_id(ask.bid, seat, ask.idempotency_key) if ask.idempotency_key else None
        if key_id is not None:
            if key_id in keys:                  # a repeat in this very group: the first's answer
                first_digest, first = keys[key_id]
                if first_digest != ask.digest:
                    raise IdempotencyConflict("this Idempotency-Key was already used for a different command")
                return Planned(ask.bid, [], state, state.seq, [], first)
            earlier = self._replay_key(ask.bid, seat, key_id, ask.digest, state)
            if earlier is not None:
                return earlier
        planned = self._decide(ask, seat, key_id, state)
        heads[key] = planned.state
        if key_id is not None:
            keys[key_id] = (ask.digest, planned.answer)
        return planned

    def _decide(self, ask: Ask, seat: str, key_id: uuid.UUID | None, state: BattleState) -> Planned:
        if ask.expected_seq is not None and state.seq != ask.expected_seq:
            raise StaleState(f"the battle is at seq {state.seq}, not {ask.expected_seq}",
                             seq=state.seq, expected_seq=ask.expected_seq)
        # `submit_later` checked the command before its digest: not again on the writer's thread.
        new_state, records = decide_batch(ruleset_of(state.created), state, seat, ask.command, wire_checked=True,
                                          at_ms=self.accept_time(state))
        items: list[Any] = [StoredRecord(ask.bid, r) for r in records]
        if key_id is not None:
            items.append(StoredBlob(key_id, 1, IDEMPOTENCY_TOPIC, {"battle_id": str(ask.bid), "first": records[0].seq,
                                                                  "last": records[-1].seq, "command": ask.digest}))
        answer = Submitted(new_state.seq, records, new_state.public, seat)
        return Planned(ask.bid, records, new_state, state.seq, items, answer)

    def accept_time(self, state: BattleState) -> int | None:
        """The time a batch of a clocked battle is accepted at (None for a battle with no clock):
        now, and never before the battle's last recorded time (a clock a step back, or another
        worker's a little ahead)."""
        return None if state.clock is None else max(self.now_ms(), state.clock.at_ms)

    def plan_clock(self, ask: ClockAsk, heads: dict[str, BattleState], synced: bool = True) -> Planned:
        """Decide a timeout or an outage's credit against the battle's state in this group."""
        key = str(ask.bid)
        state = heads.get(key) or (synced and self.cache.get(key)) or self.loader.load(key)
        if state.seq != ask.expected_seq:
            raise StaleState(f"the battle is at seq {state.seq}, not {ask.expected_seq}",
                             seq=state.seq, expected_seq=ask.expected_seq)
        ruleset, at_ms = ruleset_of(state.created), self.accept_time(state) or self.now_ms()
        if ask.seat is not None:
            new_state, records = decide_timeout(ruleset, state, ask.seat, at_ms)
        else:
            new_state, records = credit_outage(ruleset, state, min(ask.since_ms or 0, at_ms), at_ms, ask.reason)
        heads[key] = new_state
        answer = Submitted(new_state.seq, records, new_state.public)
        return Planned(ask.bid, records, new_state, state.seq, [StoredRecord(ask.bid, r) for r in records], answer)

    def clock_alone(self, ask: ClockAsk) -> Submitted:
        """A clock batch in a transaction of its own; a conflict means the battle moved on."""
        planned = self.plan_clock(ask, {}, synced=False)
        generation = self.write(planned.items)
        self.committed_batch(ask.bid, planned.records, planned.state, planned.previous_seq, generation=generation)
        return cast(Submitted, planned.answer)

    def submit_alone(self, ask: Ask) -> Submitted:
        """One command in a transaction of its own; a conflict reloads and decides again."""
        for attempt in range(self.retries + 1):
            # Load first, then look for the key: a first request with this key that commits
            # before the load is found by the look-up, and one that commits after it makes
            # this append conflict and come round again. Looking first would let it commit in
            # between, and a repeat would be decided against the state after its own command.
            planned = self.plan_submit(ask, {}, {}, synced=False)
            if not isinstance(planned, Planned):
                return planned
            try:
                generation = self.write(planned.items)
            except IntegrityError:
                self.cache.drop(str(ask.bid))
                if attempt == self.retries:
                    raise
                continue
            self.committed_batch(ask.bid, planned.records, planned.state, planned.previous_seq, generation=generation)
            return planned.answer
        raise AssertionError("unreachable")

    @staticmethod
    def _key_id(bid: uuid.UUID, seat: str, key: str) -> uuid.UUID:
        return uuid.uuid5(IDEMPOTENCY_NS, f"{bid}:{seat}:{key}")

    def _replay_key(self, bid: uuid.UUID, seat: str, key_id: uuid.UUID, digest: str,
                    state: BattleState) -> Submitted | None:
        """The first answer to this key, exactly as it was given: the battle was public in it
        only if that very batch ended a battle that is not private."""
        found = self.store.stored_blob(key_id)
        if found is None:
            return None
        body = found.body
        if body["command"] != digest:
            raise IdempotencyConflict("this Idempotency-Key was already used for a different command")
        records = self.loader.records(str(bid), body["first"], body["last"])
        ended_here = isinstance(records[-1].event, BattleEnded) and not state.created.private
        return Submitted(body["last"], records, ended_here, seat)

    def save_battle(self, records: Sequence[Recorded], state: BattleState) -> None:
        """Store a whole battle (simulated in memory, or imported) in one transaction, with a
        keyframe every `snapshot_every` events, so seeking anywhere in it stays cheap."""
        bid = uuid.UUID(state.battle_id)
        self.append_batch(bid, list(records), state, previous_seq=0, snapshots=False)
        if self.snapshot_every:
            self.snapshot(*keyframes(ruleset_of(state.created), records, self.snapshot_every))

    def append_batch(self, bid: uuid.UUID, records: list[Recorded], state: BattleState, *,
                     previous_seq: int, extra: Sequence[Any] = (), before: Sequence[Any] = (),
                     snapshots: bool = True) -> None:
        """Save one batch in one transaction, with `before`/`extra` items (set events, keys)
        around it; then cache, snapshot, and tell the commit listeners."""
        generation = self.write([*before, *(StoredRecord(bid, r) for r in records), *extra])
        self.committed_batch(bid, records, state, previous_seq, snapshots, generation=generation)

    def write(self, items: Sequence[Any]) -> int:
        """Save `items` in one transaction (IntegrityError on a conflict, and nothing saved);
        returns the log follower's generation before the write, for `committed_batch`."""
        with self.write_lock:
            generation = self.follower.generation
            self.follower.wrote(record(self.store, items))
            return generation

    def committed_batch(self, bid: uuid.UUID, records: list[Recorded], state: BattleState, previous_seq: int,
                        snapshots: bool = True, *, generation: int) -> None:
        """After a batch has committed: cache its state (unless another writer may have moved
        the battle on since `generation`, which `write` returned: see domain/freshness.py),
        snapshot, and tell the commit listeners."""
        self.follower.cache(str(bid), state, generation)
        if snapshots and self.snapshot_every and state.seq // self.snapshot_every > previous_seq // self.snapshot_every:
            self.snapshot(state)
        for listener in self.committed:
            try:
                listener(str(bid), records, state)
            except Exception:   # the batch is committed; a listener's failure must not undo that
                log.exception("commit listener %r failed for battle %s", listener, bid)

    def snapshot(self, *states: BattleState) -> None:
        """Store snapshots of `states`; one already there for that seq is just as good."""
        assert self.store.snapshots is not None
        blobs = [StoredBlob(uuid.UUID(s.battle_id), s.seq, SNAPSHOT_TOPIC, encode_snapshot(s)) for s in states]
        try:
            self.store.snapshots.put(blobs)
        except IntegrityError:
            for blob in blobs:          # some were there already: keep each of the others
                try:
                    self.store.snapshots.put([blob])
                except IntegrityError:
                    pass
