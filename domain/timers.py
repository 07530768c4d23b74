"""The clock keeper: the server decides every timeout, and credits every outage, so no client has to.

Each worker keeps the deadlines of the live clocked battles it holds in one heap of
(expiry, battle, seq), and one thread waits until the earliest of them, or until an earlier
one arrives (not a task or a poll per battle). Deadlines come from:
- this process's commits (a commit listener): the next expiry (`timeout_due`) of the state
  each batch of a clocked battle leaves;
- the log (`LogCursor`): every live clocked battle when the worker starts, then the clock
  events and ends other workers and processes log.
An entry is current while its seq is the latest this worker knows of its battle; an older one
is skipped when it comes up (so an ended battle simply leaves the heap as its entries do).

When an entry comes due, the battle's latest state is loaded and checked again. Exactly one
worker appends each timeout: it must win the claim on `timeout:{battle}:{seq}` (Redis SET NX
when workers share one, in memory otherwise: domain/house.py `Claims`), and `expected_seq`
refuses a timeout decided against an older state in any case. A refusal means the battle
moved on: it is loaded again and scheduled afresh.

No player loses time to the service (issue 36, part 5). The heartbeat (domain/heartbeat.py)
says when a worker was last up. A worker that starts and finds it older than `OUTAGE_MS`
credits the outage to every live battle whose clock runs, from the heartbeat (or the battle's
last recorded time, if later) until now, claimed on `credit:{battle}:{seq}`; a battle whose
credit another worker claimed is waited for. All this happens in `start`, before any timeout
is decided and before the server takes a command; only then does this worker beat.
"""
from __future__ import annotations

import heapq
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from eventsourcing.persistence import IntegrityError

from domain.battles import Battles
from domain.engine.battle import BattleEnded, BattleState
from domain.engine.clock import ClockSpec, next_expiry
from domain.engine.errors import RuleViolation, StaleState
from domain.engine.events import Recorded
from domain.engine.timeouts import timeout_due
from domain.engine.timing import ClockCredited, Clocked, ClockStarted
from domain.heartbeat import OUTAGE_MS, Heartbeat, HeartbeatStore, heartbeat_store
from domain.house import Claims, LocalClaims, guarded
from domain.store import LogCursor

log = logging.getLogger("ringside.clocks")
CLOCK_SWEEP_SECONDS = 1.0   # how often the log is read for the battles other workers clock
RETRY_MS = 1000             # a due battle another worker claimed, or whose append failed, is looked at again
OWED_WAIT_SECONDS = 5.0     # at start, how long credits other workers claimed are waited for
COMPACT_SLACK = 1024        # stale heap entries tolerated beyond twice the battles held
OUTAGE = "outage"           # the reason an outage's credit records
FOLLOWED = (ClockStarted.TOPIC, Clocked.TOPIC, ClockCredited.TOPIC, BattleEnded.TOPIC)
# A worker alone on its store commits every clock event itself (its commit listener holds them);
# from the log it needs only battles other processes start (an import, say) and end.
FOLLOWED_ALONE = (ClockStarted.TOPIC, BattleEnded.TOPIC)
MOVED = (StaleState, RuleViolation, IntegrityError)     # the battle moved past the state decided on


@dataclass(frozen=True, slots=True)
class Held:
    """A live clocked battle as this worker knows it: its latest seq, its control, and when
    its next timeout may be recorded (None while no clock runs)."""
    seq: int
    spec: ClockSpec
    expiry: int | None


class ClockKeeper:
    """The background timekeeper of every clocked battle, started and closed with the service."""

    def __init__(self, battles: Battles, claims: Claims | None = None,
                 sweep_seconds: float = CLOCK_SWEEP_SECONDS, heartbeat: HeartbeatStore | None = None,
                 alone: bool = False):
        """`alone`: no other worker writes to this store (no Redis to share claims), so the log
        is read for battles started and ended, not for every clock event again: a deadline
        held from a stale read is checked against the battle's latest state when it comes due."""
        self.battles = battles
        self.claims = claims or LocalClaims()
        self.sweep_seconds = sweep_seconds
        store = heartbeat or heartbeat_store(battles.store.env, battles.writer.write_lock)
        self.heartbeat = Heartbeat(store, battles.now_ms)
        self.timeouts = 0           # timeouts this worker appended
        self.credits = 0            # outage credits this worker appended
        self.outage: tuple[int, int] | None = None      # (last heartbeat, start): the outage found at start
        self._held: dict[str, Held] = {}
        self._heap: list[tuple[int, str, int]] = []
        self._owed: dict[str, int] = {}         # battle -> the seq at which it is owed the outage's credit
        self._claimed: dict[str, str] = {}      # battle -> the claim this worker won on it, and acts on
        self._wake = threading.Condition()      # guards the above; notified for an earlier entry
        self._poked = False
        self._deciding = threading.Lock()       # one decider at a time: the thread, or a caller of run_due
        self._log = LogCursor(battles.store, FOLLOWED_ALONE if alone else FOLLOWED)
        self._following = False
        self._reading = threading.Lock()        # one reader of the log at a time
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        """Hold every live clocked battle, credit an outage, start beating, then keep time."""
        self.battles.committed.append(self._on_commit)
        self.discover()
        self.recover()
        self.heartbeat.start()
        self._thread = threading.Thread(target=self._run, name="clock-keeper", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stopping.set()
        self.poke()
        if self._on_commit in self.battles.committed:
            self.battles.committed.remove(self._on_commit)
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.heartbeat.close()
        self.claims.close()

    def poke(self) -> None:
        """Wake the thread to look at the heap now (after a test has moved the injected time on)."""
        with self._wake:
            self._poked = True
            self._wake.notify()

    def deadline(self, battle_id: str) -> int | None:
        """When the battle's next timeout may be recorded, as this worker holds it (None: no
        clock runs, or the battle is not held: unclocked, ended or unknown)."""
        held = self._held.get(battle_id)
        return None if held is None else held.expiry

    def __len__(self) -> int:
        """The live clocked battles held."""
        return len(self._held)

    def _run(self) -> None:
        next_sweep = time.monotonic() + self.sweep_seconds      # `start` has just read the log
        while not self._stopping.is_set():
            if time.monotonic() >= next_sweep:
                self._guarded(self.discover)
                next_sweep = time.monotonic() + self.sweep_seconds
            self._guarded(self.run_due)
            with self._wake:
                if not self._poked and not self._stopping.is_set():
                    self._wake.wait(max(0.0, min(next_sweep - time.monotonic(), self._seconds_to_next())))
                self._poked = False

    def _seconds_to_next(self) -> float:
        """Real seconds until the earliest entry, by the battles' own (injectable) clock."""
        return (self._heap[0][0] - self.battles.now_ms()) / 1000 if self._heap else self.sweep_seconds

    @staticmethod
    def _guarded(work: Callable[[], object]) -> None:
        guarded(work, "clock keeper: a pass failed")     # the thread must go on keeping time

    # -- the heap --------------------------------------------------------------------------
    def _on_commit(self, battle_id: str, records: list[Recorded], state: BattleState) -> None:
        if state.clock is not None:
            self._schedule(state)

    def _schedule(self, state: BattleState) -> None:
        """Hold the battle as `state` leaves it, its next expiry on the heap; forget it once over."""
        if state.outcome is not None or state.clock is None:
            self._forget(state.battle_id)
            return
        found = timeout_due(state)
        self._track(state.battle_id, state.seq, state.clock.spec, found[0] if found else None)

    def _track(self, battle_id: str, seq: int, spec: ClockSpec, expiry: int | None) -> None:
        with self._wake:
            held = self._held.get(battle_id)
            if held is not None and held.seq >= seq:
                return          # older news than what is held
            self._held[battle_id] = Held(seq, spec, expiry)
            if expiry is not None:
                self._push(expiry, battle_id, seq)

    def _push(self, at_ms: int, battle_id: str, seq: int) -> None:
        """Put an entry on the heap (the caller holds `_wake`); wake the thread if it is the earliest."""
        entry = (at_ms, battle_id, seq)
        heapq.heappush(self._heap, entry)
        if self._heap[0] == entry:
            self._wake.notify()
        if len(self._heap) > 2 * len(self._held) + COMPACT_SLACK:
            self._heap = [(h.expiry, b, h.seq) for b, h in self._held.items() if h.expiry is not None]
            heapq.heapify(self._heap)

    def _later(self, at_ms: int, battle_id: str, seq: int) -> None:
        with self._wake:
            self._push(at_ms, battle_id, seq)

    def _forget(self, battle_id: str) -> None:
        with self._wake:
            self._held.pop(battle_id, None)
            self._owed.pop(battle_id, None)
            self._claimed.pop(battle_id, None)

    def _pop_due(self, now_ms: int) -> tuple[str, int] | None:
        """The earliest current entry due by `now_ms` (battle, seq), dropping stale ones on the way."""
        with self._wake:
            while self._heap and self._heap[0][0] <= now_ms:
                _, battle_id, seq = heapq.heappop(self._heap)
                held = self._held.get(battle_id)
                if held is not None and held.seq == seq:
                    return battle_id, seq
        return None

    # -- the log ---------------------------------------------------------------------------
    def discover(self) -> None:
        """At the first call, hold every live clocked battle in the log; then follow the clock
        events and ends logged since (by other workers: this process's own are held already)."""
        with self._reading:
            if self._following:
                self._follow()
                return
            store = self.battles.store
            head = store.recorder.max_notification_id()
            live: dict[str, None] = {}
            for note in LogCursor(store, [ClockStarted.TOPIC, BattleEnded.TOPIC]).read():
                if note.topic == ClockStarted.TOPIC:
                    live[str(note.originator_id)] = None
                else:
                    live.pop(str(note.originator_id), None)
            self._log.position = head or None
            self._following = True
            self._load_all(live)

    def _follow(self) -> None:
        """Hold what the clock events logged since the last read leave (decoded from the log, with
        the control held already), and forget the battles that ended."""
        store = self.battles.store
        notes = list(self._log.read())
        ended = {str(n.originator_id) for n in notes if n.topic == BattleEnded.TOPIC}
        unknown: dict[str, None] = {}
        for note in notes:
            battle_id = str(note.originator_id)
            held = self._held.get(battle_id)
            if battle_id in ended or (held is not None and held.seq >= note.originator_version):
                continue
            event = store.mapper.to_domain_event(note).event
            spec = event.spec if isinstance(event, ClockStarted) else held.spec if held is not None else None
            if spec is None:
                unknown[battle_id] = None       # not held here: its state is read once (it may have ended)
                continue
            found = next_expiry(spec, event.seats)
            self._track(battle_id, note.originator_version, spec, found[0] if found else None)
        for battle_id in ended:
            self._forget(battle_id)
        self._load_all(unknown)

    def _load_all(self, battle_ids: dict[str, None]) -> None:
        for battle_id in battle_ids:
            try:
                self._schedule(self.battles.load(battle_id))
            except Exception:   # one battle that fails to load must not keep the others off the heap
                log.exception("clock keeper: battle %s could not be loaded", battle_id)

    # -- deciding --------------------------------------------------------------------------
    def run_due(self) -> int:
        """Decide every battle whose entry has come due by now; the timeouts appended."""
        with self._deciding:
            before = self.timeouts
            while (entry := self._pop_due(self.battles.now_ms())) is not None:
                try:
                    self._decide(entry[0])
                except Exception:
                    log.exception("clock keeper: battle %s was not decided", entry[0])
                    self._later(self.battles.now_ms() + RETRY_MS, *entry)
            return self.timeouts - before

    def _decide(self, battle_id: str) -> None:
        """Append the battle's timeout if it is still due (after its outage credit, if owed)."""
        state = self.battles.load(battle_id)
        self._schedule(state)
        found = timeout_due(state)
        if found is None:
            return
        now = self.battles.now_ms()
        if battle_id in self._owed:
            # Credited: the commit scheduled the battle afresh, and this entry is stale. No longer
            # owed: it comes straight up again. Claimed by another worker: wait for its credit.
            self._later(now if self._settle(state) else now + RETRY_MS, battle_id, state.seq)
            return
        expiry, seat = found
        if now < expiry:
            self._later(expiry, battle_id, state.seq)
            return
        if not self._claim(battle_id, f"timeout:{battle_id}:{state.seq}"):
            self._later(now + RETRY_MS, battle_id, state.seq)       # another worker's, unless it dies
            return
        try:
            self.battles.timeout_later(battle_id, seat, expected_seq=state.seq).result()
        except MOVED as moved:
            log.info("clock keeper: %s's timeout in %s at seq %d not appended: %s", seat, battle_id, state.seq, moved)
            self._schedule(self.battles.load(battle_id))
            return
        self.timeouts += 1

    def _claim(self, battle_id: str, key: str) -> bool:
        """Whether this worker acts on `key`: it won the claim, now or before (a retry)."""
        with self._wake:
            if self._claimed.get(battle_id) == key:
                return True
        if not self.claims.claim(key):
            return False
        with self._wake:
            self._claimed[battle_id] = key
        return True

    # -- outages ---------------------------------------------------------------------------
    def recover(self) -> int:
        """Credit the outage the heartbeat shows, if any, to every held battle whose clock runs
        and that nothing was recorded for since the outage began; the credits appended. Waits
        up to `OWED_WAIT_SECONDS` for credits other workers claimed."""
        last, now = self.heartbeat.store.last(), self.battles.now_ms()
        if last is None or now - last <= OUTAGE_MS:
            return 0
        self.outage = (last, now)
        log.warning("clock keeper: no worker was up from %d to %d ms; crediting the running clocks", last, now)
        with self._wake:
            running = [b for b, held in self._held.items() if held.expiry is not None]
        for battle_id in running:
            try:
                state = self.battles.load(battle_id)
            except Exception:
                log.exception("clock keeper: battle %s could not be loaded", battle_id)
                continue
            # A clock fact recorded after the outage began (another worker's credit) means it is settled.
            if state.clock is not None and timeout_due(state) is not None and state.clock.at_ms <= last + OUTAGE_MS:
                self._owed[battle_id] = state.seq
        before, deadline = self.credits, time.monotonic() + OWED_WAIT_SECONDS
        while True:
            for battle_id in list(self._owed):
                try:
                    self._settle(self.battles.load(battle_id))
                except Exception:
                    log.exception("clock keeper: battle %s was not credited", battle_id)
            if not self._owed or time.monotonic() >= deadline:
                return self.credits - before
            time.sleep(0.05)

    def _settle(self, state: BattleState) -> bool:
        """Append the outage's credit the battle is owed; False while another worker's claim on
        it stands. A battle that moved on is no longer owed: it was credited, or a command of it
        was accepted, which no credit can come before any more."""
        battle_id = state.battle_id
        owed = self._owed.get(battle_id)
        if owed is None or owed != state.seq or state.clock is None or self.outage is None:
            self._owed.pop(battle_id, None)
            return True
        if not self._claim(battle_id, f"credit:{battle_id}:{state.seq}"):
            return False
        since = max(self.outage[0], state.clock.at_ms)
        try:
            self.battles.credit_later(battle_id, since, reason=OUTAGE, expected_seq=state.seq).result()
            self.credits += 1
        except MOVED as moved:
            log.info("clock keeper: the outage credit of %s at seq %d not appended: %s", battle_id, state.seq, moved)
        self._owed.pop(battle_id, None)
        return True
