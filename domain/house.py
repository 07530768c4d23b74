"""House seats: seats the service plays itself, with a bot policy (`players: {"p2": {"bot": "greedy"}}`).

A house bot is a client like any other. It reads only its seat's view and AI memory, picks one
of its legal commands, and submits it through `Battles.submit` with `expected_seq` and an
idempotency key, so its moves are ordinary action events that verify re-simulates.

Who moves, and when:
- After every committed batch (in this process) of a live battle that awaits a house seat,
  the battle is queued for the worker thread, which plays until no house seat is awaited.
- A sweep every few seconds finds battles with house seats from the notification log (all of
  them when the worker starts, then only new ones) and plays those that await a house seat:
  a seat that was due when the service stopped, or whose move another process never made,
  acts after a restart.
- Exactly one worker acts for a seat at a seq: it must win the claim on
  `(battle, seat, seq)` first (in Redis when several workers share one, in memory otherwise),
  and `expected_seq` refuses a move decided against an older state in any case.
"""
from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping
from typing import Protocol

from domain.ai import get_policy
from domain.ai.match import bot_choice, remember, seen_by
from domain.ai.memory import Memory
from domain.battles import Battles
from domain.engine.battle import BattleCreated, BattleEnded, BattleState
from domain.engine.errors import RingsideError
from domain.engine.events import Recorded
from domain.engine.rng import Rng
from domain.engine.ruleset import ruleset_of
from domain.engine.table import house_bots, house_iterations
from domain.store import LogCursor

log = logging.getLogger("ringside.house")
CLAIM_SECONDS = 30
HOUSE_SWEEP_SECONDS = 2.0


def guarded(work: Callable[[], object], failed: str) -> None:
    """Run one pass of a background thread: a failure (one battle's, a store outage) is logged
    as `failed`, and the thread goes on with the others."""
    try:
        work()
    except Exception:
        log.exception(failed)


class Claims(Protocol):
    def claim(self, key: str) -> bool:
        """True for the one caller that may act on `key`; False for every later one."""
        ...

    def close(self) -> None: ...


class LocalClaims:
    """Claims within one process (the embedded default)."""

    def __init__(self) -> None:
        self._until: dict[str, float] = {}
        self._lock = threading.Lock()

    def claim(self, key: str) -> bool:
        now = time.monotonic()
        with self._lock:
            if self._until.get(key, 0.0) > now:
                return False
            if len(self._until) > 10_000:
                self._until = {k: t for k, t in self._until.items() if t > now}
            self._until[key] = now + CLAIM_SECONDS
            return True

    def close(self) -> None:
        """Nothing to release: the claims live in this process."""


class RedisClaims:
    """Claims shared by every worker on one Redis: SET NX with an expiry, so a claim of a
    worker that died before moving lapses and the sweep moves instead."""

    def __init__(self, url: str, prefix: str = "ringside", kind: str = "house"):
        import redis

        self._redis = redis.Redis.from_url(url)
        self._prefix = prefix
        self._kind = kind           # whose claims: the house seats', the clock keeper's

    def claim(self, key: str) -> bool:
        return bool(self._redis.set(f"{self._prefix}:{self._kind}:{key}", b"1", nx=True, ex=CLAIM_SECONDS))

    def close(self) -> None:
        self._redis.close()


class HouseSeats:
    """The background player of every house seat, started and closed with the service."""

    def __init__(self, battles: Battles, claims: Claims | None = None,
                 sweep_seconds: float = HOUSE_SWEEP_SECONDS):
        self.battles = battles
        self.claims = claims or LocalClaims()
        self.sweep_seconds = sweep_seconds
        self.moves = 0
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._house: dict[str, dict[str, str]] = {}     # live battles with house seats: seat -> policy
        self._memories: dict[tuple[str, str], Memory] = {}
        self._log = LogCursor(battles.store, [BattleCreated.TOPIC, BattleEnded.TOPIC])
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        self.battles.committed.append(self._on_commit)
        self._thread = threading.Thread(target=self._run, name="house-seats", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stopping.set()
        self._queue.put(None)
        if self._on_commit in self.battles.committed:
            self.battles.committed.remove(self._on_commit)
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.claims.close()

    def _on_commit(self, battle_id: str, records: list[Recorded], state: BattleState) -> None:
        seats = house_bots(state.created.players) if state.outcome is None else None
        if seats:
            self._house.setdefault(battle_id, seats)
            self._queue.put(battle_id)

    def _run(self) -> None:
        next_sweep = 0.0
        while not self._stopping.is_set():
            if time.monotonic() >= next_sweep:
                self._guarded(self.sweep)
                next_sweep = time.monotonic() + self.sweep_seconds
            try:
                battle_id = self._queue.get(timeout=max(0.0, next_sweep - time.monotonic()))
            except queue.Empty:
                continue
            if battle_id is not None:
                self._guarded(lambda: self.play(battle_id))

    @staticmethod
    def _guarded(work: Callable[[], object]) -> None:
        guarded(work, "house seats: a move failed")

    # -- playing ---------------------------------------------------------------------------
    def sweep(self) -> int:
        """Find new battles with house seats, then play every one that awaits a house seat."""
        self._discover()
        moved = 0
        for battle_id in list(self._house):
            moved += self.play(battle_id)
        return moved

    def _discover(self) -> None:
        """Read the log past the cursor: battles created with house seats join, ended ones leave."""
        for note in self._log.read():
            if note.topic == BattleEnded.TOPIC:
                self._forget(str(note.originator_id))
                continue
            created: BattleCreated = self.battles.store.mapper.to_domain_event(note).event
            seats = house_bots(created.players)
            if seats:
                self._house.setdefault(created.battle_id, seats)

    def play(self, battle_id: str) -> int:
        """Move for every awaited house seat of the battle until none is awaited; the moves made."""
        seats = self._house.get(battle_id)
        moved = 0
        while seats:
            state = self.battles.load(battle_id)
            if state.outcome is not None:
                self._forget(battle_id)
                return moved
            ruleset = ruleset_of(state.created)
            due = sorted(seat for seat in ruleset.awaiting(state.game) if seat in seats)
            if not due or not self._move(state, due[0], seats[due[0]]):
                return moved
            moved += 1
        return moved

    def _move(self, state: BattleState, seat: str, policy: str) -> bool:
        battle_id = state.battle_id
        if not self.claims.claim(f"{battle_id}:{seat}:{state.seq}"):
            return False
        ruleset = ruleset_of(state.created)
        bot = get_policy(policy, ruleset.id, iterations=house_iterations(state.created.players.get(seat)))
        legal = ruleset.legal_commands(state.game, seat)
        choice = bot_choice(bot, ruleset, state.game, seat, legal, Rng(os.urandom(32)),
                            self._memory(state, seat) if bot.needs_memory else None,
                            seen=seen_by(ruleset, state, seat, self.battles.now_ms()) if bot.searches else None)
        wire = choice if isinstance(choice, Mapping) else ruleset.codec.wire(choice)
        try:
            self.battles.submit(battle_id, seat, dict(wire), expected_seq=state.seq,
                                idempotency_key=f"house-{seat}-{state.seq}")
        except RingsideError as refused:     # another process moved first, or the battle ended
            log.info("house seat %s of %s did not move at seq %d: %s", seat, battle_id, state.seq, refused)
            return False
        self.moves += 1
        return True

    def _memory(self, state: BattleState, seat: str) -> Memory:
        """The seat's AI memory, fed the events since its last move as simulated bots are fed."""
        memory = self._memories.setdefault((state.battle_id, seat), Memory(seat))
        remember(ruleset_of(state.created), state,
                 self.battles.records(state.battle_id, memory.seq + 1, state.seq), {seat: memory})
        return memory

    def _forget(self, battle_id: str) -> None:
        self._house.pop(battle_id, None)
        for key in [k for k in self._memories if k[0] == battle_id]:
            del self._memories[key]
