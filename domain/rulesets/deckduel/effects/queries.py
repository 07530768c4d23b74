"""Numbers drills can modify. BEFORE hooks change them; they are not events."""
from __future__ import annotations

import msgspec


class Cost(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    card: str
    kind: str
    amount: int


class PowerUp(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    amount: int


class ReadyDraw(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    amount: int


class HandSize(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    amount: int
