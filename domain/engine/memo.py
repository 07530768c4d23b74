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
        self._by_state: dict[int, tuple[weakref.ref[Any], dict[Hashable, Any]]] = {}

    def get(self, state: object, key: Hashable) -> Any:
        found = self._by_state.get(id(state))
        if found is None or found[0]() is not state:
            return None
        return found[1].get(key)

    def put(self, state: object, key: Hashable, answer: Any) -> Any:
        """Remember `answer` for `state` under `key`, and return it."""
        found = self._by_state.get(id(state))
        if found is None or found[0]() is not state:
            found = (weakref.ref(state, self._forgetter(id(state))), {})
            self._by_state[id(state)] = found
        found[1][key] = answer
        return answer

    def _forgetter(self, address: int) -> Any:
        def forget(ref: weakref.ref[Any]) -> None:
            found = self._by_state.get(address)
            if found is not None and found[0] is ref:
                self._by_state.pop(address, None)
        return forget

    def __len__(self) -> int:
        """How many live states have answers (for tests)."""
        return len(self._by_state)
