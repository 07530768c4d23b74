"""View stores: where projections keep their read models, with their tracking positions.

A projection turns one event into a list of small operations. `apply(view, ops, position)`
applies them together with the view's new tracking position, atomically, and only if the
view has not already reached that position, so a runner that crashes and restarts applies
each event exactly once. In Redis that is one Lua script; in memory, one lock.

Both stores are eventsourcing `TrackingRecorder`s (one tracking position per view, named by
the view), so the library's `ProjectionRunner` machinery can follow the log for them.

The operations are typed records (projections/ops.py); each store interprets them in one place.
"""
from __future__ import annotations

import threading
from abc import abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, TypeVar, assert_never, cast

import orjson
from eventsourcing.persistence import Tracking, TrackingRecorder

from .ops import HDel, HSet, LSetLast, Op, RPush, SetKey, ZAdd, ZRem

V = TypeVar("V")


class ViewStore(TrackingRecorder):
    transactional = False       # whether `batch()` is one transaction

    def __init__(self, prefix: str = "ringside"):
        self.prefix = prefix

    def key(self, view: str, *parts: str) -> str:
        return ":".join((self.prefix, "v", view, *parts))

    # -- writing --------------------------------------------------------------------------
    def apply(self, view: str, ops: Sequence[Op], position: int) -> bool:
        """Apply `ops` and move `view` to `position`, atomically; False if already there."""
        return bool(self.apply_views({view: ops}, position))

    @abstractmethod
    def apply_views(self, changes: Mapping[str, Sequence[Op]], position: int) -> list[str]:
        """For each view not yet at `position`: apply its ops and move it there; all in one
        atomic step. Returns the views that were applied."""

    def batch(self) -> AbstractContextManager[Any]:
        """A page of events applied together: one transaction where the store is
        `transactional` (SQLite), one round trip in Redis, where each `apply_views` stays
        atomic on its own. The batch's own thread reads what it has applied."""
        return nullcontext()

    @abstractmethod
    def positions(self) -> dict[str, int]:
        """Every view's last applied notification id."""

    def position(self, view: str) -> int | None:
        """The last notification id applied to `view` (None: nothing yet)."""
        return self.positions().get(view)

    @abstractmethod
    def drop(self, view: str) -> None:
        """Delete every key of `view` and its tracking position, so it rebuilds from the log."""

    def insert_tracking(self, tracking: Tracking) -> None:
        self.apply(tracking.application_name, (), tracking.notification_id)

    def max_tracking_id(self, application_name: str) -> int | None:
        return self.position(application_name)

    # -- reading --------------------------------------------------------------------------
    @abstractmethod
    def get(self, key: str) -> Any | None: ...

    @abstractmethod
    def lrange(self, key: str) -> list[Any]: ...

    @abstractmethod
    def hget(self, key: str, field: str) -> Any | None: ...

    @abstractmethod
    def hgetall(self, key: str) -> dict[str, Any]: ...

    @abstractmethod
    def ztop(self, key: str, limit: int) -> list[tuple[str, float]]:
        """Members by descending score (ties by member), at most `limit`."""

    def start(self) -> None:
        """Nothing to start: a store is ready once built (the service starts every component)."""

    def close(self) -> None:
        pass


class MemoryViewStore(ViewStore):
    """The embedded default: plain dicts in this process, rebuilt from the log at start.

    Values are kept as their JSON bytes, as Redis keeps them: a reader gets its own copy by
    decoding them, and a busy service's views are a few million fewer objects for the cyclic
    garbage collector to walk (its full passes paused the service for up to half a second).
    Each kind of value has its own dict, as each has its own table in SQLite."""

    def __init__(self, prefix: str = "ringside"):
        super().__init__(prefix)
        self._values: dict[str, bytes] = {}
        self._lists: dict[str, list[bytes]] = {}
        self._hashes: dict[str, dict[str, bytes]] = {}
        self._scores: dict[str, dict[str, float]] = {}
        self._positions: dict[str, int] = {}
        self._lock = threading.RLock()

    def apply_views(self, changes: Mapping[str, Sequence[Op]], position: int) -> list[str]:
        with self._lock:
            applied = []
            for view, ops in changes.items():
                if self._positions.get(view, 0) >= position:
                    continue
                for op in ops:
                    self._apply_one(op)
                self._positions[view] = position
                applied.append(view)
            return applied

    def _apply_one(self, op: Op) -> None:
        match op:
            case SetKey():
                self._values[op.key] = orjson.dumps(op.value)
            case RPush():
                self._lists.setdefault(op.key, []).append(orjson.dumps(op.value))
            case LSetLast():
                self._lists[op.key][-1] = orjson.dumps(op.value)
            case HSet():
                self._hashes.setdefault(op.key, {})[op.field] = orjson.dumps(op.value)
            case HDel():
                _forget(self._hashes, op.key, op.field)
            case ZAdd():
                self._scores.setdefault(op.key, {})[op.member] = float(op.score)
            case ZRem():
                _forget(self._scores, op.key, op.member)
            case _:
                assert_never(op)

    def contents(self) -> dict[str, object]:
        """Every key with its value decoded (a hash or ranking as a dict, a list as a list): what
        two stores built from the same log are compared by."""
        with self._lock:
            found: dict[str, object] = {key: orjson.loads(value) for key, value in self._values.items()}
            found.update((key, [orjson.loads(item) for item in items]) for key, items in self._lists.items())
            found.update((key, {f: orjson.loads(v) for f, v in fields.items()}) for key, fields in self._hashes.items())
            found.update((key, dict(scores)) for key, scores in self._scores.items())
            return found

    def positions(self) -> dict[str, int]:
        with self._lock:
            return dict(self._positions)

    def drop(self, view: str) -> None:
        start = self.key(view) + ":"
        with self._lock:
            _drop_keys(self._values, start)
            _drop_keys(self._lists, start)
            _drop_keys(self._hashes, start)
            _drop_keys(self._scores, start)
            self._positions.pop(view, None)

    def get(self, key: str) -> Any | None:
        with self._lock:
            found = self._values.get(key)
        return None if found is None else orjson.loads(found)

    def lrange(self, key: str) -> list[Any]:
        with self._lock:
            found = list(self._lists.get(key, ()))
        return [orjson.loads(item) for item in found]

    def hget(self, key: str, field: str) -> Any | None:
        with self._lock:
            value = self._hashes.get(key, {}).get(field)
        return None if value is None else orjson.loads(value)

    def hgetall(self, key: str) -> dict[str, Any]:
        with self._lock:
            found = dict(self._hashes.get(key, {}))
        return {field: orjson.loads(value) for field, value in found.items()}

    def ztop(self, key: str, limit: int) -> list[tuple[str, float]]:
        with self._lock:
            scores = dict(self._scores.get(key, {}))
        return sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]


def _drop_keys(kind: dict[str, V], start: str) -> None:
    for key in [k for k in kind if k.startswith(start)]:
        del kind[key]


def _forget(kind: dict[str, dict[str, V]], key: str, field: str) -> None:
    """A hash field or ranking member deleted; as in Redis, an emptied hash or ranking is gone."""
    found = kind.get(key)
    if found is not None:
        found.pop(field, None)
        if not found:
            del kind[key]


# For each view: compare its position first, and apply nothing if it already has the event.
# Each operation arrives as the Redis command it is (`redis_command`), so the script only runs it.
APPLY_SCRIPT = """
local changes = cjson.decode(ARGV[2])
local applied = {}
for _, change in ipairs(changes) do
  local view = change[1]
  local current = redis.call('HGET', KEYS[1], view)
  if not current or tonumber(current) < tonumber(ARGV[1]) then
    for _, command in ipairs(change[2]) do
      redis.call(unpack(command))
    end
    redis.call('HSET', KEYS[1], view, ARGV[1])
    table.insert(applied, view)
  end
end
return applied
"""

RedisArg = str | int


def redis_command(op: Op) -> list[RedisArg]:
    """The Redis command that applies `op`: the Redis store's one interpreter of operations.
    Values go as their JSON text and scores as their repr, so Redis keeps them exactly."""
    match op:
        case SetKey():
            return ["SET", op.key, orjson.dumps(op.value).decode()]
        case RPush():
            return ["RPUSH", op.key, orjson.dumps(op.value).decode()]
        case LSetLast():
            return ["LSET", op.key, -1, orjson.dumps(op.value).decode()]
        case HSet():
            return ["HSET", op.key, op.field, orjson.dumps(op.value).decode()]
        case HDel():
            return ["HDEL", op.key, op.field]
        case ZAdd():
            return ["ZADD", op.key, repr(float(op.score)), op.member]
        case ZRem():
            return ["ZREM", op.key, op.member]
        case _:
            assert_never(op)


class RedisViewStore(ViewStore):
    """Views in Redis, shared by every worker; one Lua script per applied event."""

    def __init__(self, url: str, prefix: str = "ringside"):
        import redis

        super().__init__(prefix)
        self.redis = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=3)
        self._apply = self.redis.register_script(APPLY_SCRIPT)
        self.tracking_key = f"{prefix}:tracking"
        self._batching = threading.local()      # a batch's pipeline, for its own thread only

    @contextmanager
    def batch(self) -> Iterator[None]:
        """The events applied inside go to Redis in one round trip, each still its own atomic
        script (compared with its positions there). A read inside sends what is queued first."""
        if self._pipe is not None:
            yield
            return
        self._batching.pipe = self.redis.pipeline(transaction=False)
        try:
            yield
            self._send_queued()
        finally:
            self._batching.pipe = None

    @property
    def _pipe(self) -> Any:
        return getattr(self._batching, "pipe", None)

    def _send_queued(self) -> None:
        pipe = self._pipe
        if pipe is not None and len(pipe):
            pipe.execute()

    def _read(self, command: str, *args: Any, **kwargs: Any) -> Any:
        """One read, after what the batch has queued and in the same round trip."""
        pipe = self._pipe
        if pipe is not None and len(pipe):
            getattr(pipe, command)(*args, **kwargs)
            return pipe.execute()[-1]
        return getattr(self.redis, command)(*args, **kwargs)

    def apply_views(self, changes: Mapping[str, Sequence[Op]], position: int) -> list[str]:
        encoded = [[view, [redis_command(op) for op in ops]] for view, ops in changes.items()]
        # An empty Lua table encodes as {} in cjson, so each change always carries its list.
        args: list[RedisArg | bytes] = [position, orjson.dumps(encoded)]
        if self._pipe is not None:
            # Queued: the script applies each view only past its position, as the caller
            # (which has read the positions) expects it to.
            self._apply(keys=[self.tracking_key], args=args, client=self._pipe)
            return list(changes)
        applied = self._apply(keys=[self.tracking_key], args=args)
        return [v.decode() if isinstance(v, bytes) else v for v in applied]

    def positions(self) -> dict[str, int]:
        return {k.decode(): int(v) for k, v in self._read("hgetall", self.tracking_key).items()}

    def drop(self, view: str) -> None:
        self._send_queued()     # nothing queued for the view may land after it is dropped
        pattern = self.key(view) + ":*"
        batch = []
        for key in self.redis.scan_iter(match=pattern, count=1000):
            batch.append(key)
            if len(batch) >= 1000:
                self.redis.delete(*batch)
                batch = []
        if batch:
            self.redis.delete(*batch)
        self.redis.hdel(self.tracking_key, view)

    def get(self, key: str) -> Any | None:
        found = self._read("get", key)
        return None if found is None else orjson.loads(found)

    def lrange(self, key: str) -> list[Any]:
        return [orjson.loads(item) for item in self._read("lrange", key, 0, -1)]

    def hget(self, key: str, field: str) -> Any | None:
        found = self._read("hget", key, field)
        return None if found is None else orjson.loads(found)

    def hgetall(self, key: str) -> dict[str, Any]:
        return {k.decode(): orjson.loads(v) for k, v in self._read("hgetall", key).items()}

    def ztop(self, key: str, limit: int) -> list[tuple[str, float]]:
        self._send_queued()
        # redis-py types every reply as sync-or-async; with scores, this one is (member, score) pairs.
        reply = self.redis.zrevrange(key, 0, max(limit, 1) * 4 - 1, withscores=True)
        rows = cast(list[tuple[bytes, float]], reply)
        ordered = sorted(((m.decode(), s) for m, s in rows), key=lambda item: (-item[1], item[0]))
        return ordered[:limit]

    def close(self) -> None:
        self.redis.close()
