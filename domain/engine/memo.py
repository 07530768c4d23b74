"""Answers remembered for one immutable state object, for as long as that object lives.

A frozen state never changes, so what the rules work out from it (the legal commands, say)
stays right for as long as the object exists. A `StateMemo` finds an object's answers by
the object's identity, never by equality, and forgets them once the object is collected,
so a later object at the same address starts with none. Whatever else an answer depends on
(the content in force, a seat) belongs in its key. An answer must not refer to the state
itself, or the state would never be collected.

The state type must accept weak references (`weakref=True` on a msgspec Struct).
"""
from __future__ import annotations

import weakref
from collections.abc import Hashable
from typing import Any


class StateMemo:
    """`memo.get(state, key)` is None until `memo.put(state, key, answer)`."""

    def __init__(self) -> None:
        # id(state) -> (a weak reference to that state, its answers by key)
        self._by_state: dict[int, tuple[_Ref, dict[Hashable, Any]]] = {}
        # One callback for every reference (a reference knows its address): states come and
        # go once per command, so none needs a function of its own.
        self._forget = self._forgotten

    def get(self, state: object, key: Hashable) -> Any:
        found = self._by_state.get(id(state))
        if found is None or found[0]() is not state:
            return None
        return found[1].get(key)

    def put(self, state: object, key: Hashable, answer: Any) -> Any:
        """Remember `answer` for `state` under `key`, and return it."""
        found = self._by_state.get(id(state))
        if found is None or found[0]() is not state:
            ref = _Ref(state, self._forget)
            ref.address = id(state)
            found = self._by_state[ref.address] = (ref, {})
        found[1][key] = answer
        return answer

    def _forgotten(self, ref: _Ref) -> None:
        found = self._by_state.get(ref.address)
        if found is not None and found[0] is ref:
            self._by_state.pop(ref.address, None)

    def __len__(self) -> int:
        """How many live states have answers (for tests)."""
        return len(self._by_state)


class _Ref(weakref.ref):
    """A weak reference to a state that knows the address its entry is kept under."""
    __slots__ = ("address",)
    address: int
