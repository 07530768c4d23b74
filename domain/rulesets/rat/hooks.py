"""The hook registry of rat's passives (ailments and equipment, by `kind`), and the queries
they modify: seed 003's modifiers and on_* callbacks. The hooks themselves are in `effects/`."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.engine.hooks import Effect, Hooks, Phase, Row

HOOKS = Hooks()
_BEFORE = Phase.BEFORE      # read once: reading an enum member costs a class attribute lookup


# The effects last asked about (a strong reference: no other tuple can take its address while
# it is kept), the hooks each query type has in play for them, and their kinds.
_LAST: list[Any] = [None, {}, frozenset()]


def in_play(query: type, effects: Sequence[Effect]) -> list[Row]:
    """The hooks on `query` that the effects in play run, in order: with none, `modify`
    returns the query as it is, so a caller that finds none need not build one. The rules ask
    this of the same effects many times running (a state keeps its tuple while they stay),
    so the answers for the last tuple are at hand without going through the registry; and a
    query that no kind in the tuple hooks has none, without a plan worked out."""
    if not effects:
        return []
    if _LAST[0] is effects:
        found: list[Row] | None = _LAST[1].get(query)
        if found is not None:
            return found
    else:
        _LAST[0], _LAST[1], _LAST[2] = effects, {}, frozenset([x.kind for x in effects])
    if HOOKS.kinds_on(_BEFORE, query).isdisjoint(_LAST[2]):
        found = _LAST[1][query] = []
    else:
        found = _LAST[1][query] = HOOKS.plan(_BEFORE, query, effects)
    return found


class StatQuery(msgspec.Struct, frozen=True, kw_only=True):
    """A stat in effect: ailments scale it (percent), and some floor SPD at -infinity."""
    entity: str
    stat: str
    pct: int = 100
    floor: bool = False


class CanAct(msgspec.Struct, frozen=True, kw_only=True):
    """Whether an entity may act this turn; `reason` names what stops it."""
    entity: str
    turn: int
    reason: str = ""


class Aging(msgspec.Struct, frozen=True, kw_only=True):
    """How far a status's elapsed counter advances at the start of `turn`."""
    entity: str
    kind: str
    turn: int
    step: int = 1


class Affliction(msgspec.Struct, frozen=True, kw_only=True):
    """An ailment about to be added: `result` is "gain", "immune", "freeze" (CHILLED twice)
    or "cure" (the ailments in `cures` are cured instead: BURNED cures FROZEN and CHILLED)."""
    entity: str
    kind: str
    result: str = "gain"
    cures: tuple[str, ...] = ()


class KoCheck(msgspec.Struct, frozen=True, kw_only=True):
    """An entity reached 0 HP: "knocked_out", "killed" (AT_RISK) or "spared:<by>"."""
    entity: str
    result: str = "knocked_out"


class Selectable(msgspec.Struct, frozen=True, kw_only=True):
    entity: str
    action: str
    allowed: bool = True


class StrikeQuery(msgspec.Struct, frozen=True, kw_only=True):
    """A STRIKE about to resolve: `heal_pct` > 0 makes it a heal of the user instead."""
    entity: str
    heal_pct: int = 0
