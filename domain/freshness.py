"""How this process knows its cached battle states are current without reading each battle's
tail: the cache follows the store's notification log.

Every battle event gets a notification id, and ids commit in order (SQLite has one writer at
a time; the library's PostgreSQL recorder locks the table around each insert). `head` is the
id up to which the cache reflects the log:

- this process's own commits move it on when they directly follow it: the writer caches
  the state after each of its batches itself;
- `sync()` reads the notifications past it and moves it on. While this process is the only
  writer there are none: on a SQLite file it reads just the last id (`Pool.last_id`) to see
  so, elsewhere the read of the notifications comes back empty. A cached state that another
  writer's event directly follows is fast-forwarded by that event (the notification carries
  it); one further behind is dropped.
  A battle another writer creates is folded from its first event on, so every process
  caches the battles in play, whichever worker took their commands.

So right after a `sync()`, every cached state is its battle's latest: the group-commit writer
syncs once per group and then decides each command against its cached state without reading
the store. A state read from the store, or written by this process, is cached only if no
`sync()` passed notifications between its read or write and its caching (`generation`): a
sync cannot drop what is not cached yet, so such a state could otherwise be cached stale.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

from domain.adapters.eventsourcing import last_id_probe

log = logging.getLogger(__name__)

PAGE = 1000


class LogFollower:
    def __init__(self, store: Any, states: Any, advance: Callable[[Any, Any], Any] | None = None):
        """`advance(state, notification)` is the state after the notification's event (from
        None: the state its first event starts, or None if the notification starts none)."""
        self.store = store
        self.states = states
        self.last_id = last_id_probe(store)     # None: read the notifications every time
        self.advance = advance
        self._lock = threading.Lock()
        self._sync_lock = threading.Lock()
        # Nothing is cached yet, so every cached state reflects the log up to its head now.
        self.head = store.recorder.max_notification_id() or 0
        self.generation = 0         # bumped by every sync that passes notifications
        self.syncs = 0
        self.passed = 0             # notifications syncs have passed (for tests)

    def wrote(self, ids: Sequence[int] | None) -> None:
        """This process has just committed notifications `ids` (in the order written); called
        before the batch's state is cached. Ids that directly follow the head move it on."""
        if not ids:
            return
        with self._lock:
            if ids[0] == self.head + 1 and ids[-1] == ids[0] + len(ids) - 1:
                self.head = ids[-1]

    def sync(self) -> None:
        """Bring the cache up to the log's latest notification."""
        with self._sync_lock:
            last = self.head
            while self.last_id is None or self.last_id() > last:
                page = self.store.recorder.select_notifications(last, PAGE, inclusive_of_start=False)
                if not page:
                    break
                # Under the lock, as `cache` is: a state cached meanwhile is either seen here
                # (and dropped if older) or refused for its generation.
                with self._lock:
                    for note in page:
                        self._follow(note)
                    self.generation += 1
                    self.passed += len(page)
                    last = page[-1].id
                    self.head = max(self.head, last)
                if len(page) < PAGE:
                    break
            self.syncs += 1

    def _follow(self, note: Any) -> None:
        key = str(note.originator_id)
        cached = self.states.get(key)
        seq = cached.seq if cached is not None else 0
        if seq >= note.originator_version or (cached is None and note.originator_version != 1):
            return
        if self.advance is not None and seq + 1 == note.originator_version:
            try:
                found = self.advance(cached, note)
            except Exception:       # a load from the store will do instead
                log.exception("could not fast-forward %s to seq %d", key, note.originator_version)
            else:
                if found is not None:
                    self.states.put(key, found)
                    return
        if cached is not None:
            self.states.drop(key)

    def cache(self, key: str, state: Any, generation: int) -> None:
        """Cache a state read from the store, or written by this process, while `generation`
        was current; refused if a sync has since passed other writers' notifications."""
        with self._lock:
            if self.generation == generation:
                self.states.put(key, state)
            else:
                self.states.drop(key)
