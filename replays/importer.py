"""Import into an event store what was exported from another: a replay file, only if it
verifies, under its own battle id; a set file, only if its set audits, as the set with every
battle of it. Either is stored exactly as it was written, with keyframes for seeking, in one
transaction: a refused import writes nothing."""
from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eventsourcing.persistence import IntegrityError

from domain.battles import Battles
from domain.engine.battle import BattleState
from domain.engine.errors import RingsideError, quote
from domain.engine.events import Recorded
from domain.engine.ruleset import ruleset_of
from domain.loader import keyframes
from domain.sets.service import membership, per_battle
from domain.store import StoredRecord

from .audit import FiledBattles, SeenBattle, audit_set_file, fold_set, played
from .format import Replay
from .set_file import SetFile, set_log
from .verify import verify


class ImportRefused(RingsideError):
    code = "import_refused"


@dataclass(frozen=True)
class Imported:
    battle_id: str
    events: int
    head: str
    winner: str | None


@dataclass(frozen=True)
class ImportedSet:
    set_id: str
    battles: int
    events: int             # every battle's, together
    digest: str             # the set's head hash
    winner: str | None


def import_replay(battles: Battles, replay: Replay) -> Imported:
    report = verify(replay)
    if report.status == "unverifiable":
        raise ImportRefused(f"refused: the replay cannot be verified here: {report.reason}", status=report.status)
    if not report.ok:
        raise ImportRefused(f"refused: first bad event seq {report.seq}: {report.reason}", seq=report.seq,
                            reason=report.reason)
    records, state = played(replay)
    stored_as(state.battle_id, "battle id")
    try:
        battles.save_battle(records, state)
    except IntegrityError:
        raise ImportRefused(f"refused: battle {state.battle_id} is already stored here",
                            battle_id=state.battle_id) from None
    return Imported(state.battle_id, len(records), state.chain, report.winner)


def import_set(battles: Battles, found: SetFile) -> ImportedSet:
    """Store a set file's set and battles, after auditing it as `ringside audit set FILE` does."""
    filed = FiledBattles(found)
    report = audit_set_file(found, filed)
    if report["status"] != "ok":
        reason = "; ".join(report["problems"]) or "the set has not ended"
        raise ImportRefused(f"refused: the set does not audit: {reason}", problems=report["problems"])
    set_records = set_log(found)
    state = fold_set(set_records)
    sid = stored_as(state.set_id, "set id")
    games = [whole(filed(b.battle_id)) for b in state.battles]
    refuse_stored(battles, state.set_id, [battle.battle_id for _, battle in games])
    items: list[Any] = []
    for index, ((before, after), (records, battle)) in enumerate(zip(per_battle(set_records), games, strict=True)):
        bid = uuid.UUID(battle.battle_id)
        items += [*(StoredRecord(sid, r) for r in before), *(StoredRecord(bid, r) for r in records),
                  *(StoredRecord(sid, r) for r in after), membership(str(bid), state.set_id, index)]
    writer = battles.writer
    try:
        generation = writer.write(items)
    except IntegrityError:
        raise ImportRefused(f"refused: set {state.set_id} or one of its battles is already stored here",
                            set_id=state.set_id) from None
    for records, battle in games:
        writer.committed_batch(uuid.UUID(battle.battle_id), list(records), battle, 0, snapshots=False,
                               generation=generation)
        if writer.snapshot_every:
            writer.snapshot(*keyframes(ruleset_of(battle.created), records, writer.snapshot_every))
    return ImportedSet(state.set_id, len(games), sum(len(records) for records, _ in games), state.chain,
                       report["winner"])


def whole(seen: SeenBattle) -> tuple[Sequence[Recorded], BattleState]:
    """A battle of a set that audits ok, stored under its UUID: its log and final state."""
    assert seen.state is not None, "the audit reads every battle of a set it passes"
    stored_as(seen.state.battle_id, "battle id")
    return seen.records, seen.state


def stored_as(key: str, what: str) -> uuid.UUID:
    """The UUID a store keeps an aggregate by."""
    try:
        return uuid.UUID(str(key))
    except ValueError:
        raise ImportRefused(f"refused: {what} {quote(key)} is not a UUID; a store keeps battles and sets by UUID") \
            from None


def refuse_stored(battles: Battles, set_id: str, battle_ids: Sequence[str]) -> None:
    """Refuse a set that is stored here already, or one whose battle is."""
    if list(battles.store.events.get(uuid.UUID(set_id), limit=1)):
        raise ImportRefused(f"refused: set {set_id} is already stored here", set_id=set_id)
    for battle_id in battle_ids:
        if list(battles.store.events.get(uuid.UUID(battle_id), limit=1)):
            raise ImportRefused(f"refused: battle {battle_id} of set {set_id} is already stored here",
                                set_id=set_id, battle_id=battle_id)
