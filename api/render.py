"""Readable one-line renderings of wire events for `ringside log`, and of set scores."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from domain.engine.errors import ReplayError
from domain.engine.events import hidden_fields, topic_class


def event_line(wire: dict[str, Any]) -> str:
    data = wire["data"]
    try:
        hidden = {name for name, _ in hidden_fields(topic_class(wire["type"]))}
    except ReplayError:
        hidden = set()
    fields = " ".join(f"{k}={'hidden' if v is None and k in hidden else _short(v)}"
                      for k, v in data.items() if k != "seat_token_hashes")
    seat = data.get("seat")
    who = f"[{seat}] " if isinstance(seat, str) else ""
    return f"{wire['seq']:>6}  {wire['type']:<32} {who}{fields}"


def _short(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, str):
        return value
    text = orjson.dumps(value).decode()
    return text if len(text) <= 120 else text[:117] + "..."


def score_line(score: Mapping[str, int]) -> str:
    """`p1 1 - p2 2`: each seat's wins, in seat order."""
    return " - ".join(f"{seat} {wins}" for seat, wins in score.items())
