"""View operations are typed records; each store interprets them in one place, and Redis keeps
exactly the bytes it kept when operations were tuples."""
from __future__ import annotations

import orjson
import pytest

from projections.ops import HDel, HSet, LSetLast, RPush, SetKey, ZAdd, ZRem
from projections.store import MemoryViewStore, redis_command


def test_each_operation_becomes_the_redis_command_that_applies_it():
    assert redis_command(SetKey("k", {"a": [1, 2]})) == ["SET", "k", '{"a":[1,2]}']
    assert redis_command(RPush("k", "x")) == ["RPUSH", "k", '"x"']
    assert redis_command(LSetLast("k", 3)) == ["LSET", "k", -1, "3"]
    assert redis_command(HSet("k", "f", None)) == ["HSET", "k", "f", "null"]
    assert redis_command(HDel("k", "f")) == ["HDEL", "k", "f"]
    assert redis_command(ZAdd("k", "m", 2)) == ["ZADD", "k", "2.0", "m"]
    assert redis_command(ZRem("k", "m")) == ["ZREM", "k", "m"]


def test_redis_keeps_values_as_their_json_bytes_and_scores_exactly(redis_store):
    # given one operation of every kind
    doc, items, fields, ranking = (redis_store.key("v", name) for name in ("doc", "items", "fields", "ranking"))
    redis_store.apply("v", [SetKey(doc, {"seq": 1, "who": "p1"}), RPush(items, [1]), RPush(items, [2]),
                            HSet(fields, "a", {"x": True}), HSet(fields, "b", 2), ZAdd(ranking, "m", 0.1)], 1)
    redis_store.apply("v", [LSetLast(items, [3]), HDel(fields, "b"), ZAdd(ranking, "n", 1 / 3)], 2)
    # then Redis holds each value as orjson's bytes of it, and each score as the float given
    raw = redis_store.redis
    assert raw.get(doc) == orjson.dumps({"seq": 1, "who": "p1"})
    assert raw.lrange(items, 0, -1) == [b"[1]", b"[3]"]
    assert raw.hgetall(fields) == {b"a": b'{"x":true}'}
    assert raw.zrange(ranking, 0, -1, withscores=True) == [(b"m", 0.1), (b"n", 1 / 3)]


def test_an_operation_that_is_not_a_record_is_refused_and_nothing_is_applied(store):
    # given a view with a value at position 1
    key = store.key("v", "doc")
    store.apply("v", [SetKey(key, 1)], 1)
    # when an event's operations include the untyped tuple form
    with pytest.raises(AssertionError, match="unreachable"):
        store.apply("v", [SetKey(key, 2), ("set", key, 3)], 2)
    # then the view stays at its position; Redis refuses before sending anything, SQLite rolls
    # back, and memory (no rollback) has applied only the record before the tuple
    assert store.position("v") == 1
    assert store.get(key) == (2 if isinstance(store, MemoryViewStore) else 1)
