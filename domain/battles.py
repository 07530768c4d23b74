"""The Battles application: create, submit, state, view, events. One battle = one aggregate."""
from __future__ import annotations

import hmac
import logging
import secrets
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from hashlib import blake2b
from typing import Any

import msgspec
from eventsourcing.persistence import IntegrityError

from domain.ai import check_house_players
from domain.committer import Committer, Job, Planned, Read
from domain.engine.battle import BattleCreated, BattleEnded, BattleState, decide_batch, fold, open_battle
from domain.engine.errors import IdempotencyConflict, SeqOutOfRange, StaleState, UnknownBattle
from domain.engine.events import Recorded, Viewer, decode_event
from domain.engine.ruleset import Outcome, Ruleset, get_ruleset, ruleset_of
from domain.engine.table import Table, house_bot, human_seats
from domain.engine.wire import check_wire
from domain.freshness import LogFollower
from domain.reading import Reading
from domain.store import (IDEMPOTENCY_TOPIC, SNAPSHOT_TOPIC, BattleStore, LogCursor, StateCache, StoredBlob,
                          StoredRecord, encode_snapshot, store_env)

DEFAULT_CACHE = 16384        # battle states kept in memory: size it to the battles in play
IDEMPOTENCY_NS = uuid.UUID("5b0c7f8e-3c1d-4f4e-9a57-2f1f2a6c0b11")
log = logging.getLogger(__name__)
# Called after each committed batch with (battle id, its records, the state after them).
CommitListener = Callable[[str, list[Recorded], BattleState], None]


@dataclass(frozen=True)
class CreatedBattle:
    battle_id: str
    seat_tokens: dict[str, str]
    seed_commitment: str
    seq: int


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


def token_hash(token: str) -> str:
    return blake2b(token.encode(), digest_size=32).hexdigest()


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_battle_id(battle_id: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(battle_id))
    except ValueError:
        raise UnknownBattle(f"no battle {battle_id!r}", battle_id=str(battle_id)) from None


class Battles:
    def __init__(self, url: str | None = None, *, snapshot_every: int = 100, cache_size: int = DEFAULT_CACHE,
                 retries: int = 8):
        self.store = BattleStore(env=store_env(url))
        self.snapshot_every = snapshot_every
        self.cache = StateCache(cache_size)
        self.follower = LogFollower(self.store, self.cache, self._fast_forward)
        self.retries = retries
        self.committed: list[CommitListener] = []
        # One writer at a time in this process: concurrent SQLite writers would otherwise wait
        # in SQLite's busy handler, which sleeps in steps of up to 100 ms.
        self._write_lock = threading.Lock()
        self.committer = Committer(self)

    def close(self) -> None:
        self.committer.close()
        self.store.close()

    def __enter__(self) -> "Battles":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------
    def create(self, ruleset_id: str, players: Mapping[str, str], setup: Mapping[str, Any] | None = None,
               *, seed_nonces: Mapping[str, str] | None = None, private: bool = False,
               revealed: bytes | None = None, battle_id: str | None = None,
               created_at: str | None = None, seat_tokens: Mapping[str, str] | None = None) -> CreatedBattle:
        """Create a battle: one secret token per seat a person plays (only hashes are kept; a
        house seat gets none), a committed seed.

        `seat_tokens` reuses tokens already handed out (a set's battles share its tokens)."""
        return self.create_later(ruleset_id, players, setup, seed_nonces=seed_nonces, private=private,
                                 revealed=revealed, battle_id=battle_id, created_at=created_at,
                                 seat_tokens=seat_tokens).result()

    def create_later(self, ruleset_id: str, players: Mapping[str, str], setup: Mapping[str, Any] | None = None,
                     *, seed_nonces: Mapping[str, str] | None = None, private: bool = False,
                     revealed: bytes | None = None, battle_id: str | None = None, created_at: str | None = None,
                     seat_tokens: Mapping[str, str] | None = None) -> Future[CreatedBattle]:
        """`create` without waiting: the battle is decided here (SetupError at once), and the
        future holds the answer once the group holding it has committed."""
        ruleset = get_ruleset(ruleset_id)
        bid = uuid.UUID(battle_id) if battle_id else uuid.uuid4()
        tokens: dict[str, str] = {}

        def hashes(table: Table) -> dict[str, str]:
            # Called once the players are checked: they name exactly the table's seats.
            human = human_seats(players)
            given = seat_tokens or {seat: secrets.token_urlsafe(32) for seat in human}
            tokens.update({seat: token for seat, token in given.items() if seat in human})
            return {s: token_hash(t) for s, t in tokens.items()}
        state, records = open_battle(
            ruleset, battle_id=str(bid), setup=ruleset.fresh_setup() if setup is None else setup,
            players=players, revealed=revealed if revealed is not None else secrets.token_bytes(32),
            nonces=seed_nonces, token_hashes=hashes,
            created_at=created_at or utc_now(), private=private)
        check_house_players(ruleset.id, state.created.players)
        made = CreatedBattle(str(bid), tokens, state.created.seed_commitment, state.seq)
        planned = Planned(bid, records, state, 0, [StoredRecord(bid, r) for r in records], made)

        def alone() -> CreatedBattle:
            self.append_batch(bid, records, state, previous_seq=0)
            return made
        return self.committer.submit(Job(plan=lambda heads, keys: planned, alone=alone))

    def submit(self, battle_id: str, seat: str, command: Mapping[str, Any], *,
               expected_seq: int | None = None, idempotency_key: str | None = None) -> Submitted:
        """Decide and append one command atomically (group-committed with any others arriving
        together); retry on a concurrent append."""
        return self.submit_later(battle_id, command, seat=seat, expected_seq=expected_seq,
                                 idempotency_key=idempotency_key).result()

    def submit_later(self, battle_id: str, command: Mapping[str, Any], *, seat: str | None = None,
                     token: str | None = None, expected_seq: int | None = None,
                     idempotency_key: str | None = None) -> Future[Submitted]:
        """`submit` without waiting: the future holds the answer once its batch has committed.
        The seat is `seat`, or the one `token` opens (checked by the writer)."""
        bid = parse_battle_id(battle_id)
        check_wire(command, "command")     # before the digest, which cannot encode every value
        digest = blake2b(msgspec.json.encode(command, order="sorted"), digest_size=16).hexdigest()
        ask = Ask(bid, seat, token, command, expected_seq, idempotency_key, digest)
        return self.committer.submit(Job(plan=lambda heads, keys: self._plan_submit(ask, heads, keys),
                                         alone=lambda: self._submit_alone(ask)))

    def _plan_submit(self, ask: "Ask", heads: dict[str, BattleState], keys: dict[Any, Any],
                     synced: bool = True) -> Planned | Submitted:
        """Decide `ask` against its battle's state in this group, else its latest: the cached
        one when the cache has just been synced with the log (`synced`), else a load."""
        key = str(ask.bid)
        state = heads.get(key) or (synced and self.cache.get(key)) or self.load(key)
        seat = ask.seat or self.reading.token_seat(key, ask.token or "", state)
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

    def _decide(self, ask: "Ask", seat: str, key_id: uuid.UUID | None, state: BattleState) -> Planned:
        if ask.expected_seq is not None and state.seq != ask.expected_seq:
            raise StaleState(f"the battle is at seq {state.seq}, not {ask.expected_seq}",
                             seq=state.seq, expected_seq=ask.expected_seq)
        # `submit_later` checked the command before its digest: not again on the writer's thread.
        new_state, records = decide_batch(ruleset_of(state.created), state, seat, ask.command, wire_checked=True)
        items: list[Any] = [StoredRecord(ask.bid, r) for r in records]
        if key_id is not None:
            items.append(StoredBlob(key_id, 1, IDEMPOTENCY_TOPIC, {"battle_id": str(ask.bid), "first": records[0].seq,
                                                                  "last": records[-1].seq, "command": ask.digest}))
        answer = Submitted(new_state.seq, records, new_state.public, seat)
        return Planned(ask.bid, records, new_state, state.seq, items, answer)

    def _submit_alone(self, ask: "Ask") -> Submitted:
        """One command in a transaction of its own; a conflict reloads and decides again."""
        for attempt in range(self.retries + 1):
            # Load first, then look for the key: a first request with this key that commits
            # before the load is found by the look-up, and one that commits after it makes
            # this append conflict and come round again. Looking first would let it commit in
            # between, and a repeat would be decided against the state after its own command.
            planned = self._plan_submit(ask, {}, {}, synced=False)
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

    def save_battle(self, records: Sequence[Recorded], state: BattleState) -> None:
        """Store a whole battle (simulated in memory, or imported) in one transaction, with a
        keyframe every `snapshot_every` events, so seeking anywhere in it stays cheap."""
        bid = uuid.UUID(state.battle_id)
        self.append_batch(bid, list(records), state, previous_seq=0, snapshots=False)
        if self.snapshot_every:
            self.snapshot(*keyframes(self.ruleset_of(state), records, self.snapshot_every))

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
        with self._write_lock:
            generation = self.follower.generation
            # The recorder itself, not `Application.save`, which checks every item against the
            # library's runtime protocols first (a quarter of the writer's time, for items that
            # are always our own two record classes), nor the event store's `put`, which wraps
            # each stored event in two more objects to hand back its notification id.
            mapper = self.store.mapper
            ids = self.store.recorder.insert_events([mapper.to_stored_event(item) for item in items])
            self.follower.wrote(ids)
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

    @staticmethod
    def _key_id(bid: uuid.UUID, seat: str, key: str) -> uuid.UUID:
        return uuid.uuid5(IDEMPOTENCY_NS, f"{bid}:{seat}:{key}")

    def _replay_key(self, bid: uuid.UUID, seat: str, key_id: uuid.UUID, digest: str,
                    state: BattleState) -> Submitted | None:
        """The first answer to this key, exactly as it was given: the battle was public in it
        only if that very batch ended a battle that is not private."""
        found = list(self.store.events.get(key_id, limit=1))
        if not found:
            return None
        body = found[0].body
        if body["command"] != digest:
            raise IdempotencyConflict("this Idempotency-Key was already used for a different command")
        records = self.records(str(bid), body["first"], body["last"])
        ended_here = isinstance(records[-1].event, BattleEnded) and not state.created.private
        return Submitted(body["last"], records, ended_here, seat)

    # -- reading ---------------------------------------------------------------------------
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
        for stored in self.store.events.get(bid, gt=state.seq if state else None, lte=at):
            if ruleset is None:
                ruleset = ruleset_of(state.created if state else stored.event)
            state = fold(ruleset, state, stored)
        if state is None:
            raise UnknownBattle(f"no battle {battle_id!r}", battle_id=str(battle_id))
        if at is not None and state.seq < at:
            raise SeqOutOfRange(f"the battle has {state.seq} events; there is no seq {at}", seq=at, last=state.seq)
        if at is None:
            self.follower.cache(str(bid), state, generation)
        return state

    def _fast_forward(self, state: BattleState | None, note: Any) -> BattleState | None:
        """`state` after the logged event `note` (its next seq), for the log follower; from
        None, the battle a `BattleCreated` starts (None for any other first record)."""
        if state is None and note.topic != BattleCreated.TOPIC:
            return None
        rec = self.store.mapper.to_domain_event(note)
        return fold(ruleset_of(state.created if state is not None else rec.event), state, rec)

    def latest_later(self, battle_id: str) -> Future[BattleState | None]:
        """The battle's latest state as of a sync with the log that starts after this call,
        without reading its tail: from the cache, so None when it is not cached (`load` it)."""
        key = str(parse_battle_id(battle_id))
        return self.committer.submit(Read(lambda: self.cache.get(key)))

    def _from_snapshot(self, bid: uuid.UUID, at: int | None) -> BattleState | None:
        assert self.store.snapshots is not None
        found = list(self.store.snapshots.get(bid, desc=True, limit=1, lte=at))
        if not found:
            return None
        body = found[0].body
        created = decode_event(BattleCreated.TOPIC, body["created"])
        ruleset = ruleset_of(created)
        if (created.ruleset_version, created.content_hash) != (ruleset.version, ruleset.content_hash) or \
                body.get("installed") != get_ruleset(created.ruleset).version:
            return None     # folded by other rules, or stored by other code: fold from the events instead
        first = fold(ruleset, None, Recorded(1, created, ""))
        return msgspec.structs.replace(
            first, seq=body["seq"], chain=body["chain"], game=msgspec.convert(body["game"], type=ruleset.state_type),
            outcome=msgspec.convert(body["outcome"], type=Outcome) if body["outcome"] else None)

    def records(self, battle_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[Recorded]:
        bid = parse_battle_id(battle_id)
        found = list(self.store.events.get(bid, gt=from_seq - 1 if from_seq > 1 else None, lte=to_seq))
        if not found and from_seq <= 1:
            raise UnknownBattle(f"no battle {battle_id!r}", battle_id=str(battle_id))
        return found

    def ruleset_of(self, state: BattleState) -> Ruleset[Any]:
        return ruleset_of(state.created)

    @cached_property
    def reading(self) -> Reading:
        """The one read path over this store (domain/reading.py): perspectives, the spectator
        delay's horizon, and the views, logs and replays that stop there."""
        return Reading(self)

    def view(self, battle_id: str, viewer: Viewer, at: int | None = None) -> dict[str, Any]:
        """The view now or at seq `at`, as `viewer` may see it (held back for spectators)."""
        return self.reading.sight(battle_id, viewer).view(at)

    def events(self, battle_id: str, viewer: Viewer, from_seq: int = 1) -> list[dict[str, Any]]:
        """The log from `from_seq` as `viewer` may see it (redacted; held back for spectators)."""
        return self.reading.sight(battle_id, viewer).events(from_seq)

    def legal(self, battle_id: str, seat: str, state: BattleState | None = None) -> list[dict[str, object]]:
        """The seat's legal commands as wire JSON (in `state` when the caller has just loaded it)."""
        state = state or self.load(battle_id)
        if state.outcome is not None:
            return []
        ruleset = self.ruleset_of(state)
        return [ruleset.codec.wire(c) for c in ruleset.legal_commands(state.game, seat)]

    def seat_for_token(self, battle_id: str, token: str, state: BattleState | None = None) -> str | None:
        """The seat a token belongs to, compared in constant time; None if it matches none."""
        # A battle's seat tokens never change: any state of it, cached or given, knows them.
        known = state or self.cache.get(str(parse_battle_id(battle_id)))
        created = (known or self.load(battle_id)).created
        offered = token_hash(token)
        found = None
        for seat, stored in (created.seat_token_hashes or {}).items():
            if hmac.compare_digest(stored, offered):
                found = seat
        # A house seat is the service's: a hash stored for one (older battles hold them) opens nothing.
        return found if found is None or house_bot(created.players.get(found)) is None else None

    def battle_ids(self) -> Iterator[str]:
        """Every battle, oldest first, from the notification log."""
        for note in LogCursor(self.store, [BattleCreated.TOPIC]).read():
            yield str(note.originator_id)
