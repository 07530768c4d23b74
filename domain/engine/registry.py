"""One kind of registry for everything found by id (rulesets, hooks, reducer handlers, bots).

Registering an id twice is a mistake in the code, never something to resolve by "last one
wins": a typo'd or copied id would silently replace another game's piece. So a second
registration of an id raises at import time, naming where both were registered.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class DuplicateId(Exception):
    """The same id registered twice; the message names both places."""


def caller_place(depth: int = 2) -> str:
    """`file:line` of the code `depth` frames above the caller (where a decorator was applied)."""
    frame = sys._getframe(depth)
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


class Registry(Mapping[K, V]):
    """A read-only mapping once built; `add` is the only way in, and refuses a known id."""

    def __init__(self, what: str):
        self.what = what
        self._items: dict[K, V] = {}
        self._places: dict[K, str] = {}

    def add(self, key: K, value: V, place: str | None = None) -> V:
        """Register `value` under `key`; `place` says where (default: the caller's caller)."""
        where = place or caller_place(2)
        if key in self._items:
            raise DuplicateId(f"{self.what} {key!r} is registered twice: at {self._places[key]} and at {where}")
        self._items[key] = value
        self._places[key] = where
        return value

    def register(self, key: K) -> Callable[[V], V]:
        """A decorator: `@STEPS.register("deal_damage")` over the behaviour content names."""
        place = caller_place(2)

        def add(value: V) -> V:
            return self.add(key, value, place)
        return add

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)
