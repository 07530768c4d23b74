"""Group commit: one writer thread per `Battles` decides the commands (and creations) that
arrive together, each against its own battle's latest state, and saves them all in one
transaction; then it answers every caller.

- Commands to one battle are decided in arrival order, each against the state its
  predecessor in the group left, so a battle's batches stay contiguous and in order.
- A refused command (a rule violation, a stale `expected_seq`, a wrong token) is answered at
  once and adds nothing to the group; the others go on.
- When the group's transaction conflicts (another process appended to one of its battles, or
  stored one of its idempotency keys), nothing of it was written: the writer syncs with the
  log and decides the group afresh, once; should that conflict too, each of its jobs is
  decided and saved on its own, with the usual reload-and-retry. So a conflict never blocks
  or undoes the others, and with several workers on one store (whose commands to the same
  battles conflict now and then) it costs one more transaction, not one per job.
- A caller is answered only after the transaction holding its batch has committed. A job
  cancelled while it waits in the queue is never decided or written.
- Each group starts by syncing the state cache with the log (domain/freshness.py): one
  query, after which every cached state is its battle's latest, so no command reads its
  battle's tail from the store. Reads that must see every write committed before they
  arrived (`Read`) are answered right after that sync.
- A writer with nothing to do syncs every `IDLE_SYNC_SECONDS`, so that a worker left idle
  while others write keeps up with the log a little at a time: its first command after the
  lull would otherwise wait for it to read and fold everything written meanwhile (over a
  second, after another worker's 60,000 events).
"""
from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from eventsourcing.persistence import IntegrityError

from domain.engine.battle import BattleState
from domain.engine.events import Recorded
from domain.freshness import LogFollower
from domain.store import StateCache

log = logging.getLogger(__name__)
MAX_GROUP = 512         # jobs in one transaction
IDLE_SYNC_SECONDS = 0.2


@dataclass
class Planned:
    """A decided job: what to save, the state after it, and the caller's answer."""
    bid: Any
    records: list[Recorded]
    state: BattleState
    previous_seq: int
    items: list[Any]
    answer: Any


@dataclass
class Read:
    """A read answered from the cache right after the group's sync: `fn()` runs then."""
    fn: Callable[[], Any]
    future: Future[Any] = field(default_factory=Future)


@dataclass
class Job:
    """A write waiting for the writer. `plan(heads, keys)` decides it against the group's latest
    states (`heads`, by battle id) and in-group idempotency keys; it returns a Planned, or an
    answer that needs no write. `alone()` does the job by itself, retrying on conflicts."""
    plan: Callable[[dict[str, BattleState], dict[Any, Any]], Any]
    alone: Callable[[], Any]
    future: Future[Any] = field(default_factory=Future)


class GroupWriter(Protocol):
    """What the group commit writes through (domain/writer.py's `Writer`)."""
    follower: LogFollower
    cache: StateCache

    def write(self, items: Sequence[Any]) -> int: ...

    def committed_batch(self, bid: Any, records: list[Recorded], state: BattleState, previous_seq: int,
                        snapshots: bool = True, *, generation: int) -> None: ...


class Committer:
    def __init__(self, writer: GroupWriter):
        self.writer = writer
        self._queue: queue.SimpleQueue[Job | Read | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.groups = 0
        self.conflicts = 0          # groups that conflicted and were decided afresh

    def submit(self, job: Job | Read) -> Future[Any]:
        """Queue `job`; the future holds its answer once committed (or its refusal). Called from
        the writer itself (a commit listener writing), the job runs at once."""
        if threading.current_thread() is self._thread:
            self._settle(job, job.alone if isinstance(job, Job) else self._synced(job.fn))
            return job.future
        self._ensure_started()
        self._queue.put(job)
        return job.future

    def start(self) -> None:
        """Start the writer now rather than at the first job, so that its idle syncs follow
        the log from the start (a server's, once it is up)."""
        self._ensure_started()

    def _ensure_started(self) -> None:
        if self._thread is not None:
            return
        with self._start_lock:
            if self._thread is None:
                thread = threading.Thread(target=self._run, name="group-commit", daemon=True)
                thread.start()
                self._thread = thread

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            try:
                first = self._queue.get(timeout=IDLE_SYNC_SECONDS)
            except queue.Empty:
                self._idle_sync()
                continue
            if first is None:
                return
            jobs: list[Job | Read] = [first]
            while len(jobs) < MAX_GROUP:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)   # stop after this group
                    break
                jobs.append(more)
            # A job whose caller has given up (its request was cancelled) is dropped unwritten;
            # the others can no longer be cancelled: they will be answered.
            jobs = [job for job in jobs if job.future.set_running_or_notify_cancel()]
            if not jobs:
                continue
            try:
                self._commit_group(jobs)
            except BaseException as exc:    # noqa: BLE001 - every caller must hear of it
                log.exception("group commit failed")
                for job in jobs:
                    if not job.future.done():
                        job.future.set_exception(exc)

    def _idle_sync(self) -> None:
        try:
            self.writer.follower.sync()
        except Exception:       # the store is away: the next group's sync tells its callers
            log.debug("idle sync failed", exc_info=True)

    def _synced(self, fn: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            self.writer.follower.sync()
            return fn()
        return run

    def _commit_group(self, group: list[Job | Read]) -> None:
        self.writer.follower.sync()
        jobs: list[Job] = []
        for job in group:
            if isinstance(job, Read):
                self._settle(job, job.fn)
            else:
                jobs.append(job)
        planned = self._plan(jobs)
        generation = self._write(planned)
        if generation is None:
            # Another process appended to one of the group's battles (or stored one of its
            # keys) between the sync and the write, and nothing of the group was written. Catch
            # up with the log and decide the group afresh, once; if that conflicts too, job by job.
            self.conflicts += 1
            self.writer.follower.sync()
            planned = self._plan([job for job, _ in planned])
            generation = self._write(planned)
            if generation is None:
                self._one_by_one(planned)
                return
        self.groups += 1
        for job, result in planned:
            if result.items:
                self.writer.committed_batch(result.bid, result.records, result.state, result.previous_seq,
                                             generation=generation)
        for job, result in planned:
            job.future.set_result(result.answer)

    @staticmethod
    def _plan(jobs: list[Job]) -> list[tuple[Job, Planned]]:
        """Decide each job against the group's latest states; answer at once those that need no
        write (a refusal, or a repeat answered from the store): they never hold up the others."""
        heads: dict[str, BattleState] = {}
        keys: dict[Any, Any] = {}
        planned: list[tuple[Job, Planned]] = []
        for job in jobs:
            try:
                result = job.plan(heads, keys)
            except Exception as exc:
                job.future.set_exception(exc)
                continue
            if isinstance(result, Planned):
                planned.append((job, result))
            else:
                job.future.set_result(result)
        return planned

    def _write(self, planned: list[tuple[Job, Planned]]) -> int | None:
        """Save the group's batches in one transaction: the log follower's generation before it
        (see `Writer.write`), or None on a conflict, when nothing was saved."""
        items = [item for _, p in planned for item in p.items]
        if not items:
            return self.writer.follower.generation
        try:
            return self.writer.write(items)
        except IntegrityError:
            return None

    def _one_by_one(self, planned: list[tuple[Job, Planned]]) -> None:
        """The group conflicted twice and wrote nothing: do each job on its own, from fresh states."""
        for _, result in planned:
            self.writer.cache.drop(str(result.bid))
        for job, _ in planned:
            self._settle(job, job.alone)

    @staticmethod
    def _settle(job: Job | Read, run: Callable[[], Any]) -> None:
        try:
            job.future.set_result(run())
        except Exception as exc:
            job.future.set_exception(exc)
