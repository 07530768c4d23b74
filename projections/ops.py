"""View operations: what a projection asks a view store to do, one record type per kind.

Projections return lists of these; each store interprets them in one place (its `_apply_one`
or, for Redis, the command each becomes), matching on the record type. Values are JSON-ready
(anything orjson encodes); a store keeps them as their JSON bytes, and a score as a float.
The kinds are Redis's, whose semantics every store follows: a hash or ranking emptied by its
last delete is gone.
"""
from __future__ import annotations

from typing import TypeAlias

import msgspec


class SetKey(msgspec.Struct, frozen=True):
    """The value at `key`, replacing any before it."""
    key: str
    value: object


class RPush(msgspec.Struct, frozen=True):
    """`value` appended to the list at `key` (created if absent)."""
    key: str
    value: object


class LSetLast(msgspec.Struct, frozen=True):
    """The last item of the list at `key` replaced by `value`; the list must not be empty."""
    key: str
    value: object


class HSet(msgspec.Struct, frozen=True):
    """Field `field` of the hash at `key` set to `value`."""
    key: str
    field: str
    value: object


class HDel(msgspec.Struct, frozen=True):
    """Field `field` of the hash at `key` deleted, if there."""
    key: str
    field: str


class ZAdd(msgspec.Struct, frozen=True):
    """`member` of the ranking at `key` given `score`."""
    key: str
    member: str
    score: float


class ZRem(msgspec.Struct, frozen=True):
    """`member` removed from the ranking at `key`, if there."""
    key: str
    member: str


Op: TypeAlias = SetKey | RPush | LSetLast | HSet | HDel | ZAdd | ZRem
