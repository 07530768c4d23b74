"""The wave runner: a background component that runs each queue's pairing wave when due.

Every worker runs one. Two workers deciding the same wave append at the same queue version:
the store keeps one, and the other finds the tickets paired (domain/matchmaking/service.py).
A worker that dies mid-wave stored nothing of it, so the next wave, on any worker, pairs
those tickets: no wave is lost.
"""
from __future__ import annotations

from domain.periodic import Periodic

from .service import Queues

WAVE_CHECK_SECONDS = 0.25       # how often each queue is asked whether a wave is due


class QueueWaves(Periodic):
    name = "queue-waves"

    def __init__(self, queues: Queues, every_seconds: float = WAVE_CHECK_SECONDS):
        super().__init__(every_seconds)
        self.queues = queues

    def round(self) -> object:
        return self.queues.run_due()
