"""Set file v1: a whole competitive set in one JSON Lines file, to audit with no database
(`ringside audit set FILE`) or to store in another one (`ringside replay import FILE`).

- Line 1 is the set header: `{"format": "ringside-set", "version": 1, "set_id", "ruleset": {"id",
  "version", "content_hash"}, "players", "games", "mode", "private", "created_at", "battles":
  [{"index", "battle_id", "seed_commitment", "events"}], "result": {"winner", "score"}, "head",
  "events"}`: what the set's log says, at a glance. The audit holds it against the log.
- Then the set's own log, `events` lines of `{seq, type, data, chain}`, whole (the set's
  server-only setup too): `SetCreated`, each battle's `SetBattleStarted` and
  `SetBattleFinished`, then `SetEnded`.
- Then each battle in the set's order, exactly as `ringside replay export` writes it: its
  replay header, then its `events` event lines.

The counts in the header frame the file: one cut short, or with lines past its last battle,
is refused as such before anything is audited. A `.jsonl.gz` file is gzip of the same.
"""
from __future__ import annotations

import gzip
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from domain.engine.battle import parse_battle_setup
from domain.engine.content import recorded_inputs
from domain.engine.errors import PayloadTooLarge, ReplayError, RingsideError, quote
from domain.engine.events import OMNISCIENT, Recorded, Viewer, wire_event
from domain.engine.ruleset import ruleset_of
from domain.engine.wire import nested_deeper
from domain.sets import SetBattle, SetBattleFinished, SetBattleStarted, SetCreated, SetEnded, SetState, Sets
from domain.sets.state import set_sides

from . import format as replay_format
from .format import CHUNK_BYTES, MAX_LINE_DEPTH, MAX_TEXT_BYTES, Inflater, Replay
from .verify import Bad, decode

FORMAT = "ringside-set"
VERSION = 1
MAX_SET_BYTES = 8 * MAX_TEXT_BYTES      # a set file's JSON Lines; a ring battle is about 250 kB of them


class NotExportable(RingsideError):
    code = "not_exportable"


@dataclass(frozen=True)
class SetFile:
    header: dict[str, Any]
    events: list[dict[str, Any]]        # the set's own log
    battles: list[Replay]               # in the file's order
    name: str = field(default="set file", compare=False)       # what errors call it: its path


def build(sets: Sets, set_id: str, viewer: Viewer) -> SetFile:
    """A finished set's file. The set's log is whole, its sealed setup included, so a set is
    exported only once it is public, unless `viewer` is omniscient (the operator's export)."""
    state = sets.load(set_id)
    if state.ended is None:
        raise NotExportable(f"set {state.set_id} has not ended; a set file holds a finished set", set_id=state.set_id)
    if not (state.public or viewer.omniscient):
        raise NotExportable(f"set {state.set_id} is private, so its battles never become public; only a whole "
                            "export (as all) holds them", set_id=state.set_id)
    battles = sets.battles
    replays = [battles.reading.sight_of(battles.load(b.battle_id), viewer).replay() for b in state.battles]
    events = [wire_event(rec, OMNISCIENT, True) for rec in sets.records(state.set_id)]
    return SetFile(header_of(state, {r.header["battle_id"]: r for r in replays}), events, replays)


def header_of(state: SetState, replays: Mapping[str, Replay]) -> dict[str, Any]:
    """The header of a set's file, from the set and its battles' replays by battle id: as it is
    written, and as an audit expects to find it."""
    created = state.created
    return {"format": FORMAT, "version": VERSION, "set_id": state.set_id,
            "ruleset": {"id": created.ruleset, "version": created.ruleset_version,
                        "content_hash": created.content_hash},
            "players": created.players, "games": created.games, "mode": created.mode, "private": created.private,
            "created_at": created.created_at,
            "battles": [_listed(battle, replays.get(battle.battle_id)) for battle in state.battles],
            "result": {"winner": state.ended.winner, "score": state.ended.score} if state.ended else None,
            "head": state.chain, "events": state.seq}


def _listed(battle: SetBattle, replay: Replay | None) -> dict[str, Any]:
    seed = replay.header.get("seed") if replay is not None else None
    return {"index": battle.index, "battle_id": battle.battle_id,
            "seed_commitment": seed.get("commitment") if isinstance(seed, dict) else None,
            "events": len(replay.events) if replay is not None else None}


def misfits(found: SetFile, state: SetState) -> list[str]:
    """Where the file disagrees with the set's log (`state`): its header, and its battles'
    order. A battle of the set that the file lacks is the audit's to find."""
    expected = header_of(state, by_battle(found))
    problems = [f"the file header's {name} field differs from what the set's log and battles say"
                for name, value in expected.items() if found.header.get(name) != value]
    problems += [f"the file header has {quote(name)}, which a set file does not"
                 for name in sorted(found.header.keys() - expected.keys())]
    order = [b.battle_id for b in state.battles]
    held = [r.header.get("battle_id") for r in found.battles]
    problems += [f"the file holds battle {quote(b)}, which is not the set's" for b in held if b not in order]
    filed = [b for b in held if b in order]
    if filed != [b for b in order if b in held]:
        problems.append(f"the file's battles are not in the set's order: the set plays {', '.join(order)}; "
                        f"the file holds them as {', '.join(str(b) for b in filed)}")
    return problems


def by_battle(found: SetFile) -> dict[str, Replay]:
    """The file's battles by the battle id their replay header names."""
    return {r.header["battle_id"]: r for r in found.battles if isinstance(r.header.get("battle_id"), str)}


def set_log(found: SetFile) -> list[Recorded]:
    """The set's log from the file, decoded, and checked to be in the shape a set writes (which
    folding the set relies on); whether it follows from the battles is the audit's question."""
    name = found.name
    for line in found.events:
        if not (isinstance(line, dict) and type(line.get("seq")) is int and isinstance(line.get("type"), str)
                and isinstance(line.get("data"), dict) and isinstance(line.get("chain"), str)):
            raise ReplayError(f"{name}: the set's log holds a line that is not a whole event (seq, type, data, chain)")
    lines: list[Mapping[str, Any]] = list(found.events)
    try:
        records = decode(lines)
    except Bad as bad:
        raise ReplayError(f"{name}: the set's event seq {bad.seq}: {bad.reason}") from None
    wrong = _out_of_shape(records)
    if wrong is not None:
        raise ReplayError(f"{name}: the set's log is not a set's: {wrong}")
    return records


def _out_of_shape(records: list[Recorded]) -> str | None:
    """What makes `records` no set's log: seqs from 1, `SetCreated` first, then each battle's
    start and finish in turn (a winner among the set's sides), then at most one `SetEnded`."""
    started = finished = 0
    sides: tuple[str, ...] = ()
    for number, rec in enumerate(records, start=1):
        event = rec.event
        if rec.seq != number:
            return f"event {number} has seq {quote(rec.seq)}"
        if number == 1:
            if not isinstance(event, SetCreated):
                return f"it starts with {event.TOPIC}, not {SetCreated.TOPIC}"
            if event.setup is None:
                return "its setup is withheld"
            with recorded_inputs():
                parse_battle_setup(ruleset_of(event), event.setup)      # SetupError names a bad field
            sides = set_sides(event)
        elif isinstance(event, SetBattleStarted) and event.index == started == finished:
            started += 1
        elif isinstance(event, SetBattleFinished) and event.index == finished == started - 1 and \
                (event.winner is None or event.winner in sides):
            finished += 1
        elif not (isinstance(event, SetEnded) and 0 < finished == started and number == len(records)):
            return f"seq {number} ({event.TOPIC}) is out of place"
    return None if records else "it is empty"


def dumps(found: SetFile) -> bytes:
    lines = [orjson.dumps(found.header), *(orjson.dumps(line) for line in found.events)]
    return b"\n".join(lines) + b"\n" + b"".join(replay_format.dumps(replay) for replay in found.battles)


def write(found: SetFile, path: Path) -> None:
    body = dumps(found)
    path.write_bytes(gzip.compress(body, mtime=0) if path.name.endswith(".gz") else body)


def read(path: Path) -> SetFile:
    """A set file (JSON Lines, or gzip of them)."""
    text = inflated(path)
    if header_format(text) == replay_format.FORMAT:
        raise ReplayError(f"{path}: a battle's replay file, not a set file (`ringside replay verify` checks it)")
    return parse(text, str(path))


def read_any(path: Path) -> SetFile | Replay:
    """A set file or a battle's replay file, whichever `path` holds (its header says which)."""
    text = inflated(path)
    if header_format(text) == FORMAT:
        return parse(text, str(path))
    if len(text) > MAX_TEXT_BYTES:
        raise PayloadTooLarge(f"{path}: a replay may be at most {MAX_TEXT_BYTES} bytes", limit=MAX_TEXT_BYTES)
    return replay_format.parse(text, str(path))


def inflated(path: Path, limit: int = MAX_SET_BYTES) -> bytes:
    """The file's JSON Lines text, read (and inflated) in chunks under `limit`."""
    inflater = Inflater(str(path), limit)
    try:
        with path.open("rb") as file:
            for chunk in iter(lambda: file.read(CHUNK_BYTES), b""):
                inflater.feed(chunk)
    except OSError as exc:
        raise ReplayError(f"cannot read {path}: {exc.strerror or exc}") from None
    return inflater.finish()


def header_format(text: bytes) -> object:
    """The `format` its first line names, if that line is a JSON object."""
    first = text.split(b"\n", 1)[0]
    try:
        header = orjson.loads(first)
    except orjson.JSONDecodeError:
        return None
    return header.get("format") if isinstance(header, dict) else None


def parse(text: bytes, name: str = "set file") -> SetFile:
    """A set file from its JSON Lines text, cut where its header's counts say."""
    if nested_deeper(text, MAX_LINE_DEPTH):
        raise ReplayError(f"{name}: a line is nested more than {MAX_LINE_DEPTH} levels deep", max_depth=MAX_LINE_DEPTH)
    lines = Lines(text, name)
    header = framing(lines.take("the set header")[1], name)
    events = [lines.take(f"the set's event {seq}")[1] for seq in range(1, header["events"] + 1)]
    battles = []
    for number, listed in enumerate(header["battles"], start=1):
        at, head = lines.take(f"battle {number}'s replay")
        if not isinstance(head, dict) or head.get("format") != replay_format.FORMAT or \
                head.get("version") != replay_format.VERSION:
            raise ReplayError(f"{name}: line {at} is not the {replay_format.FORMAT} header of battle {number}")
        battles.append(Replay(head, [lines.take(f"battle {number}'s event {seq}")[1]
                                     for seq in range(1, listed["events"] + 1)]))
    lines.end()
    return SetFile(header, events, battles, name)


def framing(header: Any, name: str) -> dict[str, Any]:
    """The set header, checked for what frames the file: its event count and its battles'."""
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ReplayError(f"{name}: line 1 is not a {FORMAT} header")
    if header.get("version") != VERSION:
        raise ReplayError(f"{name}: set file format version {quote(header.get('version'))} is not supported")
    battles = header.get("battles")
    if not (_count(header.get("events")) and isinstance(battles, list) and
            all(isinstance(b, dict) and isinstance(b.get("battle_id"), str) and _count(b.get("events"))
                for b in battles)):
        raise ReplayError(f"{name}: line 1 lacks the set's event count, or a battle id and event count per battle")
    return header


def _count(value: object) -> bool:
    return type(value) is int and value >= 1


class Lines:
    """A file's non-blank lines, each parsed as JSON as it is taken."""

    def __init__(self, text: bytes, name: str):
        self.name = name
        self.lines = [(number, line) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
        self.at = 0

    def take(self, what: str) -> tuple[int, Any]:
        if self.at == len(self.lines):
            if not self.lines:
                raise ReplayError(f"{self.name}: empty file, no set header")
            raise ReplayError(f"{self.name}: truncated: the file ends before {what}")
        number, line = self.lines[self.at]
        self.at += 1
        try:
            return number, orjson.loads(line)
        except orjson.JSONDecodeError:
            raise ReplayError(f"{self.name}: line {number} is not valid JSON (truncated or corrupted)") from None

    def end(self) -> None:
        if self.at < len(self.lines):
            raise ReplayError(f"{self.name}: line {self.lines[self.at][0]} follows the set's last battle")
