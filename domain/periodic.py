"""A background component that does one piece of work at once and then every few seconds, in
a thread of its own, until closed. A failed round is logged and the next one comes all the
same: the store may be away for a while."""
from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod

log = logging.getLogger(__name__)


class Periodic(ABC):
    """Subclasses name their thread and give `round()`, the work of one round."""
    name = "periodic"

    def __init__(self, every_seconds: float):
        self.every_seconds = every_seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @abstractmethod
    def round(self) -> object:
        """One round of the work."""

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.round()
            except Exception:
                log.exception("%s failed; retrying", self.name)
            self._stop.wait(self.every_seconds)
