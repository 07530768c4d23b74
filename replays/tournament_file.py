"""Tournament file v1: a whole tournament in one JSON Lines file, to audit with no database
(`ringside audit tournament FILE`).

- Line 1 is the header: `{"format": "ringside-tournament", "version": 1, "tournament_id",
  "events", "sets": [{"set_id", "lines"}]}`.
- Then the tournament's own log, `events` lines of `{seq, type, data, chain}`, whole.
- Then each of its sets, in the order the header lists them, as its set file (`ringside replay
  export --set` writes the same): `lines` lines each.

The counts frame the file: one cut short, or with lines past its last set, is refused before
anything is audited. A `.jsonl.gz` file is gzip of the same.
"""
from __future__ import annotations

import gzip
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from domain.engine.errors import ReplayError, quote
from domain.engine.events import OMNISCIENT, Recorded, wire_event
from domain.sets import Sets
from domain.tournaments.service import Tournaments, results_of

from . import set_file
from .set_file import SetFile
from .verify import Bad, decode

FORMAT = "ringside-tournament"
VERSION = 1
MAX_FILE_BYTES = 64 * set_file.MAX_SET_BYTES


@dataclass(frozen=True)
class TournamentFile:
    header: dict[str, Any]
    events: list[dict[str, Any]]
    sets: dict[str, SetFile]                # by set id, in the header's order
    name: str = field(default="tournament file", compare=False)

    def records(self) -> list[Recorded]:
        """The tournament's log; ReplayError names a line that is not a well-formed event."""
        if not all(isinstance(line, dict) and {"seq", "type", "data", "chain"} <= set(line) for line in self.events):
            raise ReplayError(f"{self.name}: a tournament event line lacks its seq, type, data or chain")
        try:
            return decode(self.events)
        except Bad as bad:
            raise ReplayError(f"{self.name}: the tournament's event {bad.seq} cannot be read ({bad.reason})") from None


def build(tournaments: Tournaments, sets: Sets, tournament_id: str) -> TournamentFile:
    """A finished tournament's file: its log and every set's file, whole (the operator's)."""
    state = tournaments.load(tournament_id)
    if state.ended is None:
        raise ReplayError(f"tournament {tournament_id} has not ended; only a finished one is exported")
    files = {sid: set_file.build(sets, sid, OMNISCIENT) for played in results_of(state) for sid in played.set_ids}
    events = [wire_event(rec, OMNISCIENT, True) for rec in tournaments.records(tournament_id)]
    header = {"format": FORMAT, "version": VERSION, "tournament_id": state.tournament_id, "events": len(events)}
    return TournamentFile(header, events, files)


def dumps(found: TournamentFile) -> bytes:
    """The file's bytes; the header lists each set with the lines its set file takes."""
    encoded = {sid: set_file.dumps(f) for sid, f in found.sets.items()}
    header = {**found.header, "sets": [{"set_id": sid, "lines": body.count(b"\n")} for sid, body in encoded.items()]}
    lines = [orjson.dumps(header), *(orjson.dumps(line) for line in found.events)]
    return b"\n".join(lines) + b"\n" + b"".join(encoded.values())


def write(found: TournamentFile, path: Path) -> None:
    body = dumps(found)
    path.write_bytes(gzip.compress(body, mtime=0) if path.name.endswith(".gz") else body)


def read(path: Path) -> TournamentFile:
    return parse(set_file.inflated(path, MAX_FILE_BYTES), str(path))


def is_tournament_file(path: Path) -> bool:
    return set_file.header_format(set_file.inflated(path, MAX_FILE_BYTES)) == FORMAT


def parse(text: bytes, name: str = "tournament file") -> TournamentFile:
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ReplayError(f"{name}: empty file, no tournament header")
    header = _framing(_json(lines[0], name, 1), name)
    at = 1 + header["events"]
    if len(lines) < at:
        raise ReplayError(f"{name}: cut short within the tournament's events")
    events = [_json(line, name, i + 2) for i, line in enumerate(lines[1:at])]
    files: dict[str, SetFile] = {}
    for listed in header["sets"]:
        chunk = lines[at:at + listed["lines"]]
        if len(chunk) < listed["lines"]:
            raise ReplayError(f"{name}: cut short within the set {listed['set_id']}")
        files[listed["set_id"]] = set_file.parse(b"\n".join(chunk) + b"\n", f"{name}, set {listed['set_id']}")
        at += listed["lines"]
    if at != len(lines):
        raise ReplayError(f"{name}: {len(lines) - at} lines past its last set")
    return TournamentFile(header, events, files, name)


def _json(line: bytes, name: str, number: int) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        raise ReplayError(f"{name}: line {number} is not JSON") from None


def _framing(header: Any, name: str) -> dict[str, Any]:
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ReplayError(f"{name}: line 1 is not a {FORMAT} header")
    if header.get("version") != VERSION:
        raise ReplayError(f"{name}: tournament file format version {quote(header.get('version'))} is not supported")
    sets = header.get("sets")
    if not (type(header.get("events")) is int and header["events"] >= 1 and isinstance(sets, list)
            and all(isinstance(s, dict) and isinstance(s.get("set_id"), str) and type(s.get("lines")) is int
                    and s["lines"] >= 1 for s in sets)):
        raise ReplayError(f"{name}: line 1 lacks the tournament's event count, or a set id and line count per set")
    return header
