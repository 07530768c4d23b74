"""Setups parsed once: battles of the same setup share one parse.

A bench, a balance pass or a tournament opens thousands of battles from a handful of setups,
and a ruleset's parse reads much of its content each time (decks, units, formations). A
`SetupCache` keeps what a parse gave, by everything the parse reads:

- the raw setup, as its `marshal` bytes (`wire.value_key`), which tell every type apart (a list
  from a tuple, True from 1, 1 from 1.0) and keep a mapping's order;
- the param defaults of the release in force (`in_force.param_defaults`) and whether the
  inputs are a new battle's (`content.new_inputs`), which decide what a setup may leave out;
- the content in force, by identity, and the records the parse read from it (`Reads`): a
  record replaced in place (a test does) is a miss, never a stale answer.

Only a setup of JSON's own types is kept: marshal writes every bytes-like object alike, and
a kept key holds none. A parsed setup is frozen and nothing changes the dicts it holds, so
the battles of one setup share it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import repeat
from operator import is_
from typing import Any, Generic, NamedTuple, TypeVar

import msgspec

from .content import new_inputs
from .in_force import param_defaults
from .wire import value_key

T = TypeVar("T")

# (table, id): a content record a parse read, named by its `Content` attribute and its key.
Wanted = list[tuple[str, str]]


class Reads(NamedTuple):
    """The content records an answer kept for later read: each one's table (a `Content`
    attribute), its id there, and the record found (None where it was gone)."""
    tables: tuple[str, ...]
    ids: tuple[str, ...]
    records: tuple[Any, ...]

    def hold(self, known: Any) -> bool:
        """Whether `known` has every one of these records still, the same objects."""
        found = map(dict.get, map(getattr, repeat(known), self.tables), self.ids)
        return all(map(is_, self.records, found))


def reads(known: Any, wanted: Wanted) -> Reads:
    """The records of `known` at (table, id) each, as `Reads` keeps them."""
    tables = tuple(table for table, _ in wanted)
    ids = tuple(key for _, key in wanted)
    return Reads(tables, ids, tuple(getattr(known, table).get(key) for table, key in wanted))


class NotPlain(Exception):
    """A setup holding something other than JSON's own types: parsed afresh, kept nowhere."""


def plain(value: Any) -> None:
    """Raise `NotPlain` unless `value` holds JSON's own types only, exactly (no subclass, no
    tuple): the setups a `SetupCache` keeps are these."""
    kind = type(value)
    if kind is dict:
        for k, x in value.items():
            if type(k) is not str:
                plain(k)
            if type(x) is not str:
                plain(x)
    elif kind is list:
        for x in value:
            if type(x) is not str:
                plain(x)
    elif not (kind is str or kind is int or kind is bool or kind is float or value is None):
        raise NotPlain


class SetupCache(Generic[T]):
    """`parse`, kept for the same inputs (see above). `params` is the ruleset's params struct
    (its defaults may differ by release), `content` gives the content in force, and `wanted`
    names the content records a parse of that setup read."""

    def __init__(self, parse: Callable[[Mapping[str, Any]], T], params: type[msgspec.Struct],
                 content: Callable[[], Any], wanted: Callable[[Any, T], Wanted], limit: int = 256):
        self.parse, self.params, self.content, self.wanted, self.limit = parse, params, content, wanted, limit
        self._parsed: dict[tuple[Any, ...], tuple[Any, Reads, T]] = {}

    def __call__(self, raw: Mapping[str, Any]) -> T:
        raw_key = value_key(raw)
        if raw_key is None:
            return self.parse(raw)
        key = (raw_key, tuple(param_defaults(self.params).items()), new_inputs())
        try:
            hash(key)
        except TypeError:
            return self.parse(raw)
        known = self.content()
        found = self._parsed.get(key)
        if found is not None and found[0] is known and found[1].hold(known):
            return found[2]
        parsed = self.parse(raw)
        try:
            plain(raw)
        except NotPlain:
            return parsed
        if len(self._parsed) >= self.limit:
            self._parsed.clear()
        self._parsed[key] = (known, reads(known, self.wanted(known, parsed)), parsed)
        return parsed

    def clear(self) -> None:
        self._parsed.clear()
