"""Numbers and permissions Dynamics can modify. BEFORE hooks change them (or, for
`AbilityCheck`, return None to block); they are not events."""
from __future__ import annotations

import msgspec


class AbilityCheck(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    seat: str
    unit: str | None
    ability: str
    mp: int


class SwapCost(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    seat: str
    amount: int


class ApRestore(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    seat: str
    amount: int


class Odds(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Effectiveness chances in basis points for `seat`'s ability."""
    seat: str
    ability: str
    glancing: int
    normal: int
    critical: int
