"""A battle's replay as a viewer may see it: the header and the wire events of replay format v1.

The read path builds replays here (domain/reading.py); the file format around them (JSON
Lines, gzip, parsing and limits) is replays/format.py's.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from domain.engine.battle import BattleCreated, BattleState
from domain.engine.events import OMNISCIENT, SPECTATOR, Recorded, Viewer, wire_event

FORMAT = "ringside-replay"
VERSION = 1


@dataclass(frozen=True)
class Replay:
    header: dict[str, Any]
    events: list[dict[str, Any]]


def build(state: BattleState, records: Sequence[Recorded], viewer: Viewer = SPECTATOR) -> Replay:
    """Full once the battle is public; otherwise redacted for `viewer` and the seed withheld."""
    created = cast(BattleCreated, records[0].event)
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
