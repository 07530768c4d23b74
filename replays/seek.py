"""A replay file played back: its events decoded and folded under the ruleset it pins, to
render the view at any seq or to mark its actions and turns. Nothing is verified here
(`verify` does that); a file that cannot be folded is refused with the seq where it breaks.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.engine.battle import BattleCreated, BattleState, fold
from domain.engine.errors import ReplayError, RingsideError, SeqOutOfRange
from domain.engine.events import Recorded, Viewer, decode_record
from domain.engine.ruleset import Ruleset, all_rulesets
from domain.reading import view_json

from .format import Replay
from .timeline import Timeline


class RulesetNotInstalled(RingsideError):
    """The replay pins a ruleset id, version or content hash this installation does not have."""
    code = "ruleset_not_installed"


class UnknownSeat(RingsideError):
    code = "invalid"


def pinned_ruleset(replay: Replay) -> Ruleset[Any]:
    pinned = replay.header.get("ruleset")
    if not isinstance(pinned, Mapping):
        raise ReplayError("the header's ruleset must be a JSON object")
    ruleset_id, version, content_hash = pinned.get("id"), pinned.get("version"), pinned.get("content_hash")
    installed = all_rulesets().get(ruleset_id) if isinstance(ruleset_id, str) else None
    found = installed.release(version, content_hash) if installed is not None and isinstance(version, str) \
        and isinstance(content_hash, str) else None
    if installed is None or found is None:
        have = f"{installed.version} ({installed.content_hash})" if installed is not None else "no such ruleset"
        raise RulesetNotInstalled(f"the replay pins ruleset {ruleset_id} {version} ({content_hash}); "
                                  f"this server has {have}", ruleset=dict(pinned))
    return found


def decode_events(replay: Replay, upto: int | None = None) -> list[Recorded]:
    """The file's events (up to seq `upto`) as records; a malformed line is refused by seq."""
    lines = replay.events if upto is None else replay.events[:upto]
    records = []
    for expected, line in enumerate(lines, start=1):
        if (not isinstance(line, Mapping) or line.get("seq") != expected or not isinstance(line.get("type"), str)
                or not isinstance(line.get("data"), Mapping)):
            raise ReplayError(f"event line {expected} is malformed, missing or out of order", seq=expected)
        version = line.get("v", 1)
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise ReplayError(f"seq {expected}: bad class version {version!r}", seq=expected)
        records.append(decode_record(expected, line["type"], line["data"], line.get("chain") or "", version))
    return records


def _check_created(replay: Replay, records: list[Recorded]) -> None:
    created = records[0].event if records else None
    pinned = replay.header["ruleset"]
    if not isinstance(created, BattleCreated):
        raise ReplayError("the replay's first event is not BattleCreated", seq=1)
    if (created.ruleset, created.ruleset_version, created.content_hash) != (
            pinned["id"], pinned["version"], pinned["content_hash"]):
        raise ReplayError("BattleCreated pins another ruleset than the header", seq=1)


def state_at(replay: Replay, seq: int | None) -> BattleState:
    """The battle right after event `seq` (default: the last)."""
    ruleset = pinned_ruleset(replay)
    last = len(replay.events)
    if not last:
        raise ReplayError("the replay has no events")
    seq = last if seq is None else seq
    if not 1 <= seq <= last:
        raise SeqOutOfRange(f"the replay has {last} events; there is no seq {seq}", seq=seq, last=last)
    records = decode_events(replay, seq)
    _check_created(replay, records)
    state = None
    for rec in records:
        state = _fold(ruleset, state, rec, records)
    assert state is not None
    return state


def view_at(replay: Replay, seq: int | None, viewer: Viewer) -> dict[str, Any]:
    """The view for `viewer` right after event `seq`, shaped as `GET /battles/{id}/at/{seq}`."""
    state = state_at(replay, seq)
    if viewer.seat is not None and viewer.seat not in state.created.players:
        raise UnknownSeat(f"the replay has no seat {viewer.seat!r}; its seats: {', '.join(state.created.players)}",
                          field="as")
    try:
        return view_json(state, viewer)
    except UNFOLDABLE as exc:
        raise ReplayError(f"the view at seq {state.seq} cannot be rendered from this replay "
                          f"({type(exc).__name__}); it may be redacted", seq=state.seq) from None


def timeline(replay: Replay) -> Timeline:
    """Every event of the file folded, with its action and turn marks."""
    ruleset = pinned_ruleset(replay)
    records = decode_events(replay)
    _check_created(replay, records)
    line = Timeline(ruleset)
    for rec in records:
        _feed(line, rec, records)
    return line


UNFOLDABLE = (RingsideError, KeyError, TypeError, ValueError, AttributeError)


def _fold(ruleset: Ruleset[Any], state: BattleState | None, rec: Recorded, records: list[Recorded]) -> BattleState:
    try:
        return fold(ruleset, state, rec)
    except UNFOLDABLE as exc:
        raise _unfoldable(rec, exc, records) from None


def _feed(line: Timeline, rec: Recorded, records: list[Recorded]) -> None:
    try:
        line.feed([rec])
    except UNFOLDABLE as exc:
        raise _unfoldable(rec, exc, records) from None


def _unfoldable(rec: Recorded, exc: Exception, records: list[Recorded]) -> ReplayError:
    # The rules may need what a redacted replay (hidden fields nulled, no chain) leaves out.
    why = exc.message if isinstance(exc, RingsideError) else type(exc).__name__
    redacted = any(not r.chain for r in records)
    return ReplayError(f"seq {rec.seq} ({rec.topic}) cannot be played back: {why}"
                       f"{'; this replay is redacted, and only a full one can be played back' if redacted else ''}",
                       seq=rec.seq, redacted=redacted)
