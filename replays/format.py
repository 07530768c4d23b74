"""Replay format v1: JSON Lines; a header, then one `{seq, type, data, chain}` line per event.

A `.jsonl.gz` file is read and written gzip-compressed.
"""
from __future__ import annotations

import gzip
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from domain.engine.battle import BattleCreated, BattleState
from domain.engine.errors import ReplayError
from domain.engine.events import OMNISCIENT, SPECTATOR, Recorded, Viewer, wire_event

FORMAT = "ringside-replay"
VERSION = 1


@dataclass(frozen=True)
class Replay:
    header: dict[str, Any]
    events: list[dict[str, Any]]


def build(state: BattleState, records: Sequence[Recorded], viewer: Viewer = SPECTATOR) -> Replay:
    """Full once the battle is public; otherwise redacted for `viewer` and the seed withheld."""
    created: BattleCreated = records[0].event  # type: ignore[assignment]
    full = state.public or viewer.omniscient
    shown = OMNISCIENT if full else viewer
    events = [wire_event(r, shown, state.public) for r in records]
    header = {
        "format": FORMAT, "version": VERSION, "battle_id": state.battle_id,
        "ruleset": {"id": created.ruleset, "version": created.ruleset_version,
                    "content_hash": created.content_hash},
        "setup": events[0]["data"]["setup"], "players": created.players,
        "seed": {"commitment": created.seed_commitment, "nonces": created.seed_nonces,
                 "revealed": created.seed if full else None},
        "created_at": created.created_at,
    }
    return Replay(header, events)


def dumps(replay: Replay) -> bytes:
    lines = [orjson.dumps(replay.header)] + [orjson.dumps(e) for e in replay.events]
    return b"\n".join(lines) + b"\n"


def write(replay: Replay, path: Path) -> None:
    body = dumps(replay)
    path.write_bytes(gzip.compress(body, mtime=0) if path.name.endswith(".gz") else body)


def read(path: Path) -> Replay:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ReplayError(f"cannot read {path}: {exc.strerror or exc}") from None
    return loads(raw, str(path))


def loads(raw: bytes, name: str = "replay") -> Replay:
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise ReplayError(f"{name}: broken gzip data ({exc})") from None
    lines = raw.splitlines()
    if not lines or not lines[0].strip():
        raise ReplayError(f"{name}: empty file, no replay header")
    header = _line(lines[0], 1, name)
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ReplayError(f"{name}: line 1 is not a {FORMAT} header")
    if header.get("version") != VERSION:
        raise ReplayError(f"{name}: replay format version {header.get('version')!r} is not supported")
    events = []
    for number, line in enumerate(lines[1:], start=2):
        if line.strip():
            events.append(_line(line, number, name))
    return Replay(header, events)


def _line(line: bytes, number: int, name: str) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        raise ReplayError(f"{name}: line {number} is not valid JSON (truncated or corrupted)") from None
