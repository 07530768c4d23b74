"""Stored battles' timelines (action and turn marks), kept folded to the last seq read.

A battle's events never change once written, so a kept timeline stays right: the next read
of a live battle folds only the events that came after it.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from domain.reading import Sight
from replays.timeline import Timeline


class Timelines:
    def __init__(self, size: int = 64):
        self.size = size
        self._kept: OrderedDict[str, tuple[threading.Lock, Timeline]] = OrderedDict()
        self._lock = threading.Lock()

    def marks(self, sight: Sight) -> dict[str, Any]:
        """The battle's marks up to the sight's horizon, folded as far as the state it looks at."""
        head = sight.state.seq
        lock, line = self._entry(sight)
        # One reader folds a given battle at a time; other battles go on in parallel.
        with lock:
            if line.seq < head:
                line.feed(sight.battles.records(sight.battle_id, line.seq + 1, head))
            return line.marks(sight.horizon)

    def _entry(self, sight: Sight) -> tuple[threading.Lock, Timeline]:
        battle_id = sight.battle_id
        with self._lock:
            found = self._kept.get(battle_id)
            if found is not None:
                self._kept.move_to_end(battle_id)
                return found
        ruleset = sight.battles.ruleset_of(sight.state)
        with self._lock:
            found = self._kept.setdefault(battle_id, (threading.Lock(), Timeline(ruleset)))
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
            return found
