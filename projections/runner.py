"""The projection runner: follows the store's notification log and keeps every view current.

Each view has its own tracking position. An event is offered to a view only past that
position, and the operations of a whole batch (one frame) are applied together with the
position of its last event (see store.py), so a crash at any point, followed by a restart,
applies every batch exactly once, never part of one.

Both stores are read a page at a time (`select_notifications` after the lowest position),
so the views that show only a battle's latest state render it once per page, not once per
event, and a SQLite view store applies a page in one transaction.

- SQLite has no subscriptions: the runner polls.
- PostgreSQL: a listener (LISTEN on the store's channel, which every insert NOTIFYs) wakes
  the runner as soon as something is written; it polls too, seldom, in case a wake-up is
  lost (a reconnect). The library's own runner was used before: it offers one event at a
  time, which cost the projections about three times the CPU under load.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from domain.adapters.eventsourcing import listening
from domain.battles import Battles
from domain.engine.events import Recorded
from domain.store import BESIDE_BATTLES, BLOB_TOPICS

from .ops import HSet, Op, SetKey
from .store import ViewStore
from .views import Projection, make_projections

log = logging.getLogger(__name__)
PAGE = 500
LOG_MARK = "log"        # the views' mark of the log they follow (its first event's battle or set)
ASIDE = "set-aside"     # each view's hash of the battles it failed on: {id: {seq, position, type, error}}
MAX_ERROR = 500


class Views:
    """Every projection over one view store: offers each logged event to each view once."""

    def __init__(self, battles: Battles, store: ViewStore, names: Sequence[str] | None = None):
        self.battles = battles
        self.store = store
        self.projections: list[Projection] = make_projections(battles, store, names)
        self._applied: dict[str, int] = {}
        self._aside: dict[str, set[str]] = {}      # view -> the battles it set aside (read once)
        self._idle: tuple[dict[str, list[Op]], int, dict[str, int]] | None = None
        self._frame: dict[str, list[Op]] = {}      # the open batch's operations, by view
        # Topics any of these views reads; None: all. Others are never decoded while catching up.
        self.wanted: frozenset[str] | None = (
            None if any(p.topics is None for p in self.projections)
            else frozenset(topic for p in self.projections for topic in p.topics or ()))

    def start_position(self) -> int | None:
        positions = self.store.positions()
        found = [positions.get(p.name) for p in self.projections]
        return None if any(p is None for p in found) else min(found)  # type: ignore[type-var]

    def process(self, owner_id: str, rec: Any, position: int, known: dict[str, int] | None = None,
                batch_end: bool = True, superseded: bool = False) -> None:
        """Offer one logged record to every view not yet past it. A batch's operations are
        gathered into one frame, applied in one atomic store step with the position of its last
        record (`batch_end`): a runner stopped within a batch reads all of it again.
        Bookkeeping records (keys, set membership) change no view but move positions past them.
        `known` holds the views' positions when the caller already read them; `batch_end` and
        `superseded` are what the caller knows of the records after it (`Projection.project`)."""
        positions = known if known is not None else self.store.positions()
        changes = self._frame
        for i, projection in enumerate(self.projections):
            stored = positions.get(projection.name, 0)
            if stored < self._applied.get(projection.name, 0):
                # The view store lost data (a Redis restart without persistence): forget what
                # this process remembers and rebuild the view from the log.
                projection = self.projections[i] = type(projection)(self.battles, self.store)
                self._applied[projection.name] = 0
                self._aside.pop(projection.name, None)
                changes.pop(projection.name, None)
            if stored >= position:
                continue
            ops = changes.setdefault(projection.name, [])
            if isinstance(rec, Recorded) and projection.reads(rec):
                ops.extend(self._project(projection, owner_id, rec, position, batch_end, superseded))
        if not batch_end:
            return          # the batch's frame goes on: it is applied whole, with its last position
        self._frame = {}
        if any(changes.values()):
            for name in self.store.apply_views(changes, position):
                positions[name] = self._applied[name] = position
        elif changes:
            # Nothing to change: move the positions past it later, once (see settle()).
            self._idle = (changes, position, positions)

    def _project(self, projection: Projection, owner_id: str, rec: Recorded, position: int, batch_end: bool,
                 superseded: bool) -> list[Op]:
        """One view's operations for one event; a battle (or set) the view failed on is set aside
        for that view alone: the failure is logged and recorded with the view's next position,
        the view skips the rest of that battle, and every other battle goes on. A rebuild (which
        drops the view, and so its list) retries it."""
        aside = self._aside.get(projection.name)
        if aside is None:
            aside = self._aside[projection.name] = set(self.store.hgetall(self.store.key(projection.name, ASIDE)))
        if owner_id in aside:
            return []
        try:
            return projection.project(owner_id, rec, position, batch_end, superseded)
        except Exception as exc:
            log.exception("view %s failed on %s at seq %d (%s); set aside", projection.name, owner_id, rec.seq,
                          rec.event.TOPIC)
            aside.add(owner_id)
            failure = {"seq": rec.seq, "position": position, "type": rec.event.TOPIC,
                       "error": f"{type(exc).__name__}: {exc}"[:MAX_ERROR]}
            return [HSet(self.store.key(projection.name, ASIDE), owner_id, failure)]

    def set_aside(self) -> dict[str, dict[str, Any]]:
        """{view: {battle or set id: where and why it failed}} for every view."""
        return {p.name: found for p in self.projections
                if (found := self.store.hgetall(self.store.key(p.name, ASIDE)))}

    def check_log(self) -> None:
        """Views in a file of their own outlive the store they were built from. If the store
        under them was replaced (another first event, or fewer events than they have applied),
        every view is dropped, to be rebuilt from this log. Only in one transaction, so that
        runners starting together drop them once: not in Redis, whose views name their log
        in their prefix."""
        if not self.store.transactional:
            return
        first = self.battles.store.recorder.select_notifications(None, 1, inclusive_of_start=True)
        identity = str(first[0].originator_id) if first else None
        key = self.store.key(LOG_MARK, "first")
        with self.store.batch():
            positions = self.store.positions()
            marked = self.store.get(key)
            replaced = marked not in (None, identity) or max(positions.values(), default=0) > self.head()
            if replaced:
                log.warning("the views were built from another event log: rebuilding them from this one")
                for name in positions:
                    self.store.drop(name)
                self._aside.clear()
            if first and (replaced or marked is None):
                self.store.apply(LOG_MARK, [SetKey(key, identity)], first[0].id)

    def settle(self) -> None:
        """Record the position of trailing events that changed no view, in one store step.
        Re-reading such events after a crash is harmless: they change nothing."""
        if self._idle is None:
            return
        changes, position, positions = self._idle
        self._idle = None
        for name in self.store.apply_views({name: [] for name in changes}, position):
            positions[name] = self._applied[name] = position

    def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Process every logged record not yet in every view; returns how many were read."""
        recorder = self.battles.store.recorder
        mapper = self.battles.store.mapper
        start, seen = self.start_position(), 0
        while True:
            page = recorder.select_notifications(start, PAGE, inclusive_of_start=start is None)
            if not page:
                return seen
            wanted = self.wanted
            records = [None if note.topic in BLOB_TOPICS or (wanted is not None and note.topic not in wanted)
                       else mapper.to_domain_event(note) for note in page]
            # Under load a page holds several batches of a busy battle: the views that show
            # only its latest state are rendered once, for the last of them.
            last = {note.originator_id: i for i, note in enumerate(page) if records[i] is not None}
            with self.store.batch():
                positions = self.store.positions()      # once a page; process() keeps it current
                for i, note in enumerate(page):
                    ends = not continues(page, records, i)
                    self.process(str(note.originator_id), records[i], note.id, positions, batch_end=ends,
                                 superseded=ends and last.get(note.originator_id, i) > i)
                self.settle()
            start = page[-1].id
            seen += len(page)
            if progress is not None:
                progress(len(page))

    def head(self) -> int:
        return self.battles.store.recorder.max_notification_id() or 0

    def wait(self, position: int, timeout: float = 10.0) -> None:
        """Block until every view has applied up to `position` (tests and read-your-writes)."""
        deadline = time.monotonic() + timeout
        while (self.start_position() or 0) < position:
            if time.monotonic() > deadline:
                raise TimeoutError(f"views did not reach position {position} within {timeout}s")
            time.sleep(0.01)


def continues(page: Sequence[Any], records: Sequence[Any], i: int) -> bool:
    """Whether the next record in the page is the same battle batch's next event. An event of
    an aggregate beside the battles (a set's, a queue's, a tournament's) is a frame of its own:
    a view may read back what the one before it wrote (the tournaments' index does)."""
    if i + 1 >= len(page) or page[i + 1].originator_id != page[i].originator_id:
        return False
    current, following = records[i], records[i + 1]
    return (isinstance(following, Recorded) and not following.event.starts_batch()
            and not (isinstance(current, Recorded) and current.event.TOPIC.startswith(BESIDE_BATTLES)))


class Runner:
    """Runs `Views` in a background thread: polling on SQLite; woken by NOTIFY on PostgreSQL."""

    def __init__(self, views: Views, poll_seconds: float = 0.02, listen_poll_seconds: float = 1.0):
        self.views = views
        self.poll_seconds = poll_seconds
        self.listen_poll_seconds = listen_poll_seconds
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._threads: list[threading.Thread] = []

    @property
    def live(self) -> bool:
        return "postgres" in self.views.battles.store.env.get("PERSISTENCE_MODULE", "")

    def start(self) -> None:
        self.views.check_log()
        self.views.catch_up()
        self._threads = [threading.Thread(target=self._poll, name="projections", daemon=True)]
        if self.live:
            self._threads.append(threading.Thread(target=self._listen, name="projections-listen", daemon=True))
        for thread in self._threads:
            thread.start()

    def _poll(self) -> None:
        every = self.listen_poll_seconds if self.live else self.poll_seconds
        while not self._stop.is_set():
            self._wake.clear()          # a write from here on wakes the wait below
            try:
                if not self.views.catch_up():
                    self._wake.wait(every)
            except Exception:
                log.exception("projection runner failed; retrying")
                self._stop.wait(1.0)

    def _listen(self) -> None:
        """Wake the runner whenever the store NOTIFYs a write; reconnect when PostgreSQL goes."""
        while not self._stop.is_set():
            try:
                with listening(self.views.battles.store) as conn:
                    while not self._stop.is_set():
                        for _ in conn.notifies(timeout=0.2, stop_after=1):
                            self._wake.set()
            except Exception as exc:
                log.warning("projection listener lost PostgreSQL (%s); reconnecting", exc)
                self._stop.wait(1.0)

    def run_forever(self) -> None:
        self.start()
        try:
            while not self._stop.wait(1.0):
                pass
        finally:
            self.close()

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            thread.join(timeout=5)
        self._threads = []
