"""The projection runner: follows the store's notification log and keeps every view current.

Each view has its own tracking position. An event is offered to a view only past that
position, and the view's operations are applied together with the new position (see
store.py), so a crash at any point, followed by a restart, applies every event exactly once.

- SQLite has no subscriptions: the runner polls `select_notifications` after the lowest
  position.
- PostgreSQL: the library's projection runner follows the log live through LISTEN/NOTIFY,
  after catching up.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.projection import BaseProjectionRunner
from eventsourcing.projection import Projection as LibraryProjection

from domain.battles import Battles
from domain.engine.events import Recorded
from domain.store import BLOB_TOPICS, BattleMapper, BattleStore, StoredRecord

from .store import ViewStore
from .views import Projection, make_projections

log = logging.getLogger(__name__)
PAGE = 500


class Views:
    """Every projection over one view store: offers each logged event to each view once."""

    def __init__(self, battles: Battles, store: ViewStore, names: Sequence[str] | None = None):
        self.battles = battles
        self.store = store
        self.projections: list[Projection] = make_projections(battles, store, names)

    def start_position(self) -> int | None:
        positions = [self.store.position(p.name) for p in self.projections]
        return None if any(p is None for p in positions) else min(positions)  # type: ignore[type-var]

    def process(self, owner_id: str, rec: Any, position: int) -> None:
        if not isinstance(rec, Recorded):
            return              # a snapshot or bookkeeping record, not an event
        for projection in self.projections:
            if (self.store.position(projection.name) or 0) >= position:
                continue
            ops = projection.project(owner_id, rec, position)
            self.store.apply(projection.name, ops, position)

    def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Process every logged event not yet in every view; returns how many were read."""
        recorder = self.battles.store.recorder
        mapper = self.battles.store.mapper
        start, seen = self.start_position(), 0
        while True:
            page = recorder.select_notifications(start, PAGE, inclusive_of_start=start is None)
            if not page:
                return seen
            for note in page:
                if note.topic not in BLOB_TOPICS:
                    self.process(str(note.originator_id), mapper.to_domain_event(note), note.id)
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


class _LogProjection(LibraryProjection[ViewStore]):
    """Adapts `Views` to the library's projection runner (PostgreSQL LISTEN/NOTIFY)."""
    name = "ringside"

    def __init__(self, view: ViewStore, views: Views):
        super().__init__(view)
        self.views = views

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:  # type: ignore[override]
        self.views.process(str(domain_event.originator_id), getattr(domain_event, "record", domain_event),
                           tracking.notification_id)


class _Positions:
    """The library runner asks where to resume: the lowest position of our views."""

    def __init__(self, views: Views):
        self.views = views

    def max_tracking_id(self, application_name: str) -> int | None:
        return self.views.start_position()


class _TaggingMapper(BattleMapper):
    """Keeps each event's battle (or set) id, which the library's subscription would drop."""

    def to_domain_event(self, stored: Any) -> Any:
        found = super().to_domain_event(stored)
        return StoredRecord(stored.originator_id, found) if isinstance(found, Recorded) else found


class _FollowedStore(BattleStore):
    def construct_mapper(self) -> BattleMapper:
        return _TaggingMapper()


class Runner:
    """Runs `Views` in a background thread: polling on SQLite, LISTEN/NOTIFY on PostgreSQL."""

    def __init__(self, views: Views, poll_seconds: float = 0.02):
        self.views = views
        self.poll_seconds = poll_seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._library: BaseProjectionRunner[Any] | None = None

    @property
    def live(self) -> bool:
        return "postgres" in self.views.battles.store.env.get("PERSISTENCE_MODULE", "")

    def start(self) -> None:
        self.views.catch_up()
        if self.live:
            self._library = BaseProjectionRunner(
                projection=_LogProjection(self.views.store, self.views), application_class=_FollowedStore,
                tracking_recorder=_Positions(self.views),  # type: ignore[arg-type]
                topics=(), env=dict(self.views.battles.store.env))
            return
        self._thread = threading.Thread(target=self._poll, name="projections", daemon=True)
        self._thread.start()

    def _poll(self) -> None:
        while not self._stop.is_set():
            try:
                if not self.views.catch_up():
                    self._stop.wait(self.poll_seconds)
            except Exception:
                log.exception("projection runner failed; retrying")
                self._stop.wait(1.0)

    def run_forever(self) -> None:
        self.start()
        try:
            if self._library is not None:
                self._library.run_forever()
            else:
                while not self._stop.wait(1.0):
                    pass
        finally:
            self.close()

    def close(self) -> None:
        self._stop.set()
        if self._library is not None:
            self._library.stop()
            self._library = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
