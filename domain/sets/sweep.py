"""The set sweep: every few seconds, advance the sets left behind by a battle that ended.

The battles' commit listener advances a set the moment its battle ends, but a failure there
is only logged (the battle is committed; undoing it is not an option). The sweep follows the
notification log past the position it has reached, reading only the set events and
`BattleEnded`: a `SetBattleStarted` opens a battle of a set, its `SetBattleFinished` closes it,
and a set is due when one of its open battles has a `BattleEnded`. A healthy set is never
due, so the sweep costs one read of the new log a round, and no look-up per battle.

It starts from the beginning of the log, so a set left behind before a restart is found too.
A set whose advance fails stays due for the next round. Sweeps in several workers may
advance the same set at once: the set's aggregate version lets one of them win, and the
other reloads and finds nothing left to do.
"""
from __future__ import annotations

import logging

from domain.engine.battle import BattleEnded
from domain.engine.events import Recorded
from domain.periodic import Periodic
from domain.store import LogCursor

from .events import SetBattleFinished, SetBattleStarted
from .service import Sets

log = logging.getLogger(__name__)
DEFAULT_EVERY_SECONDS = 5.0
TOPICS = [SetBattleStarted.TOPIC, SetBattleFinished.TOPIC, BattleEnded.TOPIC]


class SetSweep(Periodic):
    """A background component: `start()` sweeps at once and then every `every_seconds`."""
    name = "set-sweep"

    def __init__(self, sets: Sets, every_seconds: float = DEFAULT_EVERY_SECONDS):
        super().__init__(every_seconds)
        self.sets = sets
        self._log = LogCursor(sets.battles.store, TOPICS)
        self._open: dict[str, str] = {}         # battle id -> set id, for battles whose result the set lacks
        self._ended: set[str] = set()           # open battles with a BattleEnded: their sets are due

    def round(self) -> list[str]:
        return self.sweep()

    def sweep(self) -> list[str]:
        """Advance every set whose battle has ended without the set recording it; returns those
        sets' ids, sorted (a set that could not be advanced stays due)."""
        self._follow()
        due = sorted({self._open[battle_id] for battle_id in self._ended})
        for set_id in due:
            try:
                self.sets.advance(set_id)
            except Exception:
                log.exception("set sweep could not advance set %s; it stays due", set_id)
                continue
            for battle_id in [b for b in self._ended if self._open[b] == set_id]:
                self._ended.discard(battle_id)
                del self._open[battle_id]
        return due

    def _follow(self) -> None:
        """Read the log past the cursor: open and close set battles, and note those that ended."""
        for note in self._log.read():
            if note.topic == BattleEnded.TOPIC:
                if str(note.originator_id) in self._open:
                    self._ended.add(str(note.originator_id))
                continue
            rec = self.sets.battles.store.mapper.to_domain_event(note)
            assert isinstance(rec, Recorded), note.topic
            event = rec.event
            if isinstance(event, SetBattleStarted):
                self._open[event.battle_id] = event.set_id
            elif isinstance(event, SetBattleFinished):
                self._open.pop(event.battle_id, None)
                self._ended.discard(event.battle_id)
