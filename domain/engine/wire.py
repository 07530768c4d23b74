"""The values a client may send: JSON that every part of the engine can store and hash.

The hash chain encodes with orjson and command digests with msgspec; both refuse a string
holding a lone surrogate (legal as a JSON escape, `"\\ud800"`, but not valid Unicode) and an
integer past 64 bits, and NaN or infinity have no JSON form at all. `check_wire` refuses such
values at the boundary, naming the field, so that nothing half-stored or a 500 follows.

Integers are bounded to the signed 64-bit range, -2**63 .. 2**63 - 1: the range every store
and client language here shares (orjson also encodes unsigned values up to 2**64 - 1, which
other encoders do not).
"""
from __future__ import annotations

import json
import marshal
import math
import re
from collections.abc import Mapping
from itertools import accumulate
from typing import Any, cast

from .errors import InvalidInput, quote

INT_MIN = -(2**63)
INT_MAX = 2**63 - 1
MAX_DEPTH = 64          # objects and arrays nested in one another; real setups nest about 6 deep


def check_wire(value: object, field: str) -> None:
    """Raise `InvalidInput` naming the first part of `value` that is not storable JSON: a
    string or key that is not valid Unicode, an integer outside 64 bits, NaN or infinity, a
    value of another type, or nesting deeper than `MAX_DEPTH`. Tuples count as arrays."""
    _check(value, field, 0)


def value_key(value: object) -> bytes | None:
    """`value`'s `marshal` bytes, which tell every type and value apart (a list from a tuple,
    True from 1, 1 from 1.0) and keep a mapping's order; None for a value marshal cannot write
    (a subclass of a builtin, a struct, nesting past its limit). Every bytes-like object is
    written alike, so a cache keyed by these keeps no value that holds one."""
    try:
        return marshal.dumps(cast(Any, value), 2)
    except (ValueError, RecursionError):
        return None


def check_wire_again(value: object, field: str) -> None:
    """`check_wire` for a value sent again and again (the setup battle after battle is made
    from): one that passed is known by its `value_key` and not walked again. A refused value
    is never remembered, and none that passed holds bytes (refused)."""
    known = value_key(value)
    if known is not None and known in _PASSED:
        return
    _check(value, field, 0)
    if known is not None:
        if len(_PASSED) >= _PASSED_MAX:
            _PASSED.clear()
        _PASSED.add(known)


_PASSED: set[bytes] = set()         # the `value_key` of values that passed `check_wire_again`
_PASSED_MAX = 1024


def _check(value: object, where: str, depth: int) -> None:
    if _plain(value):
        return
    kind = type(value)
    if kind is dict or kind is list or kind is tuple:       # told apart by exact type: no ABC check
        _check_container(value, where, depth)  # type: ignore[arg-type]
    elif isinstance(value, str):
        _check_text(value, where)
    elif isinstance(value, int):
        if not INT_MIN <= value <= INT_MAX:
            raise InvalidInput(where, f"{quote(value, 24)} is outside the 64-bit integer range "
                               f"{INT_MIN}..{INT_MAX}", min=INT_MIN, max=INT_MAX)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInput(where, "must be a finite number (not NaN or infinity)")
    elif isinstance(value, (Mapping, list, tuple)):
        _check_container(value, where, depth)
    else:
        raise InvalidInput(where, f"a value of type {type(value).__name__} is not JSON")


def _check_container(value: Mapping[object, object] | list[object] | tuple[object, ...], where: str,
                     depth: int) -> None:
    if depth >= MAX_DEPTH:
        raise InvalidInput(where, f"is nested more than {MAX_DEPTH} levels deep", max_depth=MAX_DEPTH)
    if type(value) is dict or isinstance(value, Mapping):
        _check_object(value, where, depth)
    else:
        for i, item in enumerate(value):
            if not _plain(item):
                _check(item, f"{where}[{i}]", depth + 1)


def _check_object(value: Mapping[Any, Any], where: str, depth: int) -> None:
    for key, item in value.items():
        if type(key) is not str or not key.isascii():       # an ASCII key needs nothing more
            if not isinstance(key, str):
                raise InvalidInput(where, f"keys must be strings, not {type(key).__name__} {quote(key, 24)}")
            _check_text(key, where, "has a key that is")
        kind = type(item)       # `_plain`, inlined: every command sent and replayed comes here
        if (kind is str and item.isascii()) or (kind is int and INT_MIN <= item <= INT_MAX) \
                or item is None or kind is bool:
            continue
        _check(item, _member(where, key), depth + 1)    # a path is only spelt out for a value that may fail


def _plain(value: object) -> bool:
    """The common case, told by exact type alone: None, a bool, an ASCII string, or an int
    within 64 bits. Anything else (every subclass too) gets the full check."""
    if type(value) is str:
        return value.isascii()
    if type(value) is int:
        return INT_MIN <= value <= INT_MAX
    return value is None or type(value) is bool


def _check_text(text: str, where: str, what: str = "is") -> None:
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidInput(where, f"{what} not valid Unicode: a lone surrogate "
                               f"{quote(exc.object[exc.start:exc.end], 16)} at index {exc.start}") from None


def _member(where: str, key: str) -> str:
    """The dotted path of `key` under `where`; a long key is shortened, so a path stays short."""
    return f"{where}.{key if len(key) <= 40 else key[:39] + '…'}" if where else key


# A string, escapes and all, or the rest of the text where one is left open: its brackets
# are text, not nesting. Possessive, so a string left open costs one pass, not a backtrack.
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"?', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def nested_deeper(body: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON text `body` nests objects and arrays more than `limit` levels deep: as
    deep as a recursive parser would go into it, malformed text included (an unclosed `[` is a
    level too). Text in another encoding is read as `json.loads` reads it; bytes that are not
    text in it are no brackets, but a parser may recurse before it meets them."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return False            # the common case: too few brackets to nest that deep at all
    text = body.decode(json.detect_encoding(body), "replace")
    brackets = _BRACKET.findall(_STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > limit
