"""Shared helpers for the set tests: a store that refuses the next write of a set's result, as
a database that is briefly away would, so a set is left behind the battle that ended."""
from __future__ import annotations

import uuid
from collections.abc import Sequence

from eventsourcing.persistence import OperationalError

from domain.battles import Battles
from domain.engine.events import Recorded
from domain.sets import SetBattleFinished


class RefuseSetResult:
    """Patches the event recorder so that its next write holding a `SetBattleFinished` (the
    commit listener advancing the set) fails; every other save goes through."""

    def __init__(self, battles: Battles, monkeypatch) -> None:
        self.refused = 0
        self._armed = True
        real = battles.store.recorder.insert_events

        def insert_events(stored, **kwargs):
            if self._armed and any(s.topic == SetBattleFinished.TOPIC for s in stored):
                self._armed = False
                self.refused += 1
                raise OperationalError("database is locked")
            return real(stored, **kwargs)

        monkeypatch.setattr(battles.store.recorder, "insert_events", insert_events)


def stored_topics(battles: Battles, set_id: str) -> list[str]:
    """The set's log as stored, read past `Sets` (whose reads would move the set on)."""
    return [rec.event.TOPIC for rec in battles.store.events.get(uuid.UUID(set_id))]


def topics(*names: str) -> list[str]:
    return [f"sets.{name}" for name in names]


def battle_ids(records: Sequence[Recorded]) -> list[str]:
    return [rec.event.battle_id for rec in records if rec.event.TOPIC == "sets.SetBattleStarted"]
