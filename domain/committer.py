"""Group commit: one writer thread per `Battles` decides the commands (and creations) that
arrive together, each against its own battle's latest state, and saves them all in one
transaction; then it answers every caller.

- Commands to one battle are decided in arrival order, each against the state its
  predecessor in the group left, so a battle's batches stay contiguous and in order.
- A refused command (a rule violation, a stale `expected_seq`, a wrong token) is answered at
  once and adds nothing to the group; the others go on.
- When the group's transaction conflicts (another process appended to one of its battles, or
  stored one of its idempotency keys), nothing of it was written: each of its jobs is then
  decided and saved on its own, with the usual reload-and-retry, so a conflict never blocks
  or undoes the others.
- A caller is answered only after the transaction holding its batch has committed.
- Each group starts by syncing the state cache with the log (domain/freshness.py): one
  query, after which every cached state is its battle's latest, so no command reads its
  battle's tail from the store. Reads that must see every write committed before they
  arrived (`Read`) are answered right after that sync.
"""
from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from eventsourcing.persistence import IntegrityError

from domain.engine.battle import BattleState
from domain.engine.events import Recorded

if TYPE_CHECKING:
    from domain.battles import Battles

log = logging.getLogger(__name__)
MAX_GROUP = 512         # jobs in one transaction


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


class Committer:
    def __init__(self, battles: "Battles"):
        self.battles = battles
        self._queue: queue.SimpleQueue[Job | Read | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.groups = 0

    def submit(self, job: Job | Read) -> Future[Any]:
        """Queue `job`; the future holds its answer once committed (or its refusal). Called from
        the writer itself (a commit listener writing), the job runs at once."""
        if threading.current_thread() is self._thread:
            self._settle(job, job.alone if isinstance(job, Job) else self._synced(job.fn))
            return job.future
        self._ensure_started()
        self._queue.put(job)
        return job.future

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
            first = self._queue.get()
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
            try:
                self._commit_group(jobs)
            except BaseException as exc:    # noqa: BLE001 - every caller must hear of it
                log.exception("group commit failed")
                for job in jobs:
                    if not job.future.done():
                        job.future.set_exception(exc)

    def _synced(self, fn: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            self.battles.follower.sync()
            return fn()
        return run

    def _commit_group(self, group: list[Job | Read]) -> None:
        self.battles.follower.sync()
        jobs: list[Job] = []
        for job in group:
            if isinstance(job, Read):
                self._settle(job, job.fn)
            else:
                jobs.append(job)
        heads: dict[str, BattleState] = {}
        keys: dict[Any, Any] = {}
        planned: list[tuple[Job, Planned | Any]] = []
        for job in jobs:
            try:
                result = job.plan(heads, keys)
            except Exception as exc:        # refused: answer it now; the others go on
                job.future.set_exception(exc)
                continue
            if isinstance(result, Planned):
                planned.append((job, result))
            else:
                job.future.set_result(result)   # a repeat answered from the store
        writes = [p for _, p in planned if isinstance(p, Planned) and p.items]
        generation = self.battles.follower.generation
        if writes:
            try:
                generation = self.battles.write([item for p in writes for item in p.items])
            except IntegrityError:
                self._one_by_one(planned)
                return
        self.groups += 1
        for job, result in planned:
            if isinstance(result, Planned) and result.items:
                self.battles.committed_batch(result.bid, result.records, result.state, result.previous_seq,
                                             generation=generation)
        for job, result in planned:
            job.future.set_result(result.answer if isinstance(result, Planned) else result)

    def _one_by_one(self, planned: list[tuple[Job, Any]]) -> None:
        """The group conflicted and wrote nothing: do each job on its own, from fresh states."""
        for _, result in planned:
            if isinstance(result, Planned):
                self.battles.cache.drop(str(result.bid))
        for job, _ in planned:
            self._settle(job, job.alone)

    @staticmethod
    def _settle(job: Job | Read, run: Callable[[], Any]) -> None:
        try:
            job.future.set_result(run())
        except Exception as exc:
            job.future.set_exception(exc)
