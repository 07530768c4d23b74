"""The wave runner: a background component that runs each queue's pairing wave when due.

Every worker runs one. Two workers deciding the same wave append at the same queue version:
the store keeps one, and the other finds the tickets paired (domain/matchmaking/service.py).
A worker that dies mid-wave stored nothing of it, so the next wave, on any worker, pairs
those tickets: no wave is lost.
"""
from __future__ import annotations

import logging
import threading

from .service import Queues

log = logging.getLogger(__name__)
WAVE_CHECK_SECONDS = 0.25       # how often each queue is asked whether a wave is due


class QueueWaves:
    def __init__(self, queues: Queues, every_seconds: float = WAVE_CHECK_SECONDS):
        self.queues = queues
        self.every_seconds = every_seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="queue-waves", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.queues.run_due()
            except Exception:       # the store may be away for a while: keep trying
                log.exception("queue waves failed; retrying")
            self._stop.wait(self.every_seconds)
