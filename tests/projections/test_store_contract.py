"""One contract for every view store (memory, Redis, SQLite): atomic, idempotent application with tracking."""
from __future__ import annotations

from projections.ops import HDel, HSet, LSetLast, RPush, SetKey, ZAdd, ZRem


def test_ops_and_position_apply_together_once(store):
    key = store.key("demo", "list")
    ops = [RPush(key, {"n": 1}), SetKey(store.key("demo", "doc"), {"a": [1, 2]}),
           HSet(store.key("demo", "h"), "f", {"x": True}), ZAdd(store.key("demo", "z"), "m", 2.5)]
    assert store.position("demo") is None
    assert store.apply("demo", ops, 7) is True
    assert store.apply("demo", ops, 7) is False         # the same event again: nothing applied
    assert store.apply("demo", ops, 5) is False         # an older one: nothing applied
    assert store.position("demo") == 7
    assert store.lrange(key) == [{"n": 1}]
    assert store.get(store.key("demo", "doc")) == {"a": [1, 2]}
    assert store.hget(store.key("demo", "h"), "f") == {"x": True}
    assert store.hgetall(store.key("demo", "h")) == {"f": {"x": True}}
    assert store.ztop(store.key("demo", "z"), 10) == [("m", 2.5)]


def test_list_update_hash_delete_and_ranking(store):
    key = store.key("v", "turns")
    store.apply("v", [RPush(key, 1), RPush(key, 2)], 1)
    store.apply("v", [LSetLast(key, 3), HSet(store.key("v", "h"), "a", 1),
                      HSet(store.key("v", "h"), "b", 2)], 2)
    store.apply("v", [HDel(store.key("v", "h"), "a")], 3)
    assert store.lrange(key) == [1, 3]
    assert store.hgetall(store.key("v", "h")) == {"b": 2}
    z = store.key("v", "z")
    store.apply("v", [ZAdd(z, "carol", 1.0), ZAdd(z, "alice", 3.0), ZAdd(z, "bob", 3.0),
                      ZAdd(z, "dave", -2.0)], 4)
    store.apply("v", [ZRem(z, "dave")], 5)
    assert store.ztop(z, 2) == [("alice", 3.0), ("bob", 3.0)]
    assert store.ztop(z, 10) == [("alice", 3.0), ("bob", 3.0), ("carol", 1.0)]
    assert store.get(store.key("v", "missing")) is None and store.lrange(store.key("v", "none")) == []


def test_drop_forgets_one_view_only(store):
    store.apply("a", [SetKey(store.key("a", "x"), 1)], 3)
    store.apply("b", [SetKey(store.key("b", "x"), 2)], 4)
    store.drop("a")
    assert store.position("a") is None and store.get(store.key("a", "x")) is None
    assert store.position("b") == 4 and store.get(store.key("b", "x")) == 2


def test_tracking_recorder_interface(store):
    from eventsourcing.persistence import Tracking
    store.insert_tracking(Tracking(application_name="t", notification_id=9))
    assert store.max_tracking_id("t") == 9 and store.has_tracking_id("t", 9) and not store.has_tracking_id("t", 10)


def test_a_batch_reads_its_own_writes_and_applies_each_event_once(store):
    # given a batch of three events, the last a repeat of the second's position
    key = store.key("v", "actions")
    with store.batch():
        store.apply("v", [RPush(key, "first")], 1)
        # when the batch's own thread reads inside it, it sees what it has applied so far
        assert store.lrange(key) == ["first"]
        store.apply("v", [RPush(key, "second")], 2)
        store.apply("v", [RPush(key, "again")], 2)
    # then after the batch each position was applied once
    assert store.lrange(key) == ["first", "second"] and store.position("v") == 2


def test_a_view_dropped_inside_a_batch_keeps_nothing_applied_before_the_drop(store):
    # given an event applied to a view inside a batch
    key = store.key("v", "doc")
    with store.batch():
        store.apply("v", [SetKey(key, {"seq": 1})], 1)
        # when the view is dropped in the same batch
        store.drop("v")
    # then neither the event's value nor its position survives the batch
    assert store.get(key) is None and store.position("v") is None


def test_inside_a_batch_its_thread_reads_every_kind_of_write_it_has_made(store):
    # given values, hash fields and rankings already stored
    doc, h, z = store.key("v", "doc"), store.key("v", "h"), store.key("v", "z")
    store.apply("v", [SetKey(doc, 1), HSet(h, "a", 1), HSet(h, "b", 2), ZAdd(z, "x", 1.0)], 1)
    with store.batch():
        # when a batch overwrites, deletes and ranks them anew, event after event
        store.apply("v", [SetKey(doc, 2), HDel(h, "a"), ZAdd(z, "y", 5.0)], 2)
        store.apply("v", [SetKey(doc, 3), HSet(h, "c", 3), ZRem(z, "x")], 3)
        # then its own reads see the latest of each
        assert store.get(doc) == 3 and store.hget(h, "a") is None and store.hget(h, "c") == 3
        assert store.hgetall(h) == {"b": 2, "c": 3}
        assert store.ztop(z, 10) == [("y", 5.0)] and store.positions()["v"] == 3
        store.apply("v", [ZAdd(z, "x", 9.0)], 4)
    # and after it, so does everyone
    assert store.get(doc) == 3 and store.hgetall(h) == {"b": 2, "c": 3}
    assert store.ztop(z, 10) == [("x", 9.0), ("y", 5.0)] and store.position("v") == 4
