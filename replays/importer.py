"""Import a replay file into an event store: only a replay that verifies is stored, under
its own battle id, with keyframes for seeking, exactly as it was written."""
from __future__ import annotations

import uuid
from dataclasses import dataclass

from eventsourcing.persistence import IntegrityError

from domain.battles import Battles
from domain.engine.battle import fold
from domain.engine.errors import RingsideError
from domain.engine.ruleset import ruleset_of

from .format import Replay
from .verify import decode, verify


class ImportRefused(RingsideError):
    code = "import_refused"


@dataclass(frozen=True)
class Imported:
    battle_id: str
    events: int
    head: str
    winner: str | None


def import_replay(battles: Battles, replay: Replay) -> Imported:
    report = verify(replay)
    if report.status == "unverifiable":
        raise ImportRefused(f"refused: the replay cannot be verified here: {report.reason}", status=report.status)
    if not report.ok:
        raise ImportRefused(f"refused: first bad event seq {report.seq}: {report.reason}", seq=report.seq,
                            reason=report.reason)
    records = decode(replay.events)
    try:
        uuid.UUID(str(records[0].event.battle_id))      # type: ignore[attr-defined]
    except ValueError:
        raise ImportRefused(f"refused: battle id {records[0].event.battle_id!r} is not a UUID; "  # type: ignore[attr-defined]
                            "a store keeps battles by UUID") from None
    ruleset = ruleset_of(records[0].event)
    state = None
    for rec in records:
        state = fold(ruleset, state, rec)
    assert state is not None
    try:
        battles.save_battle(records, state)
    except IntegrityError:
        raise ImportRefused(f"refused: battle {state.battle_id} is already stored here",
                            battle_id=state.battle_id) from None
    return Imported(state.battle_id, len(records), state.chain, report.winner)
