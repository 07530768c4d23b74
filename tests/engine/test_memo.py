"""`StateMemo`: answers kept per state object, by identity, for as long as the object lives."""
from __future__ import annotations

import gc

import msgspec

from domain.engine.memo import StateMemo


class State(msgspec.Struct, frozen=True, weakref=True):
    turn: int


def test_an_answer_belongs_to_the_object_it_was_put_for_not_to_an_equal_one():
    memo, first, equal = StateMemo(), State(1), State(1)
    assert memo.put(first, ("p1",), ["strike"]) == ["strike"]
    assert memo.get(first, ("p1",)) == ["strike"]
    assert memo.get(first, ("p2",)) is None            # another key: another answer
    assert memo.get(equal, ("p1",)) is None            # equal, but another object


def test_an_answer_is_forgotten_with_its_object():
    memo, state = StateMemo(), State(2)
    memo.put(state, "key", 42)
    assert len(memo) == 1
    del state
    gc.collect()
    assert len(memo) == 0
    assert memo.get(State(2), "key") is None           # a new object, perhaps at the same address
