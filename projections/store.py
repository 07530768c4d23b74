"""View stores: where projections keep their read models, with their tracking positions.

A projection turns one event into a list of small operations. `apply(view, ops, position)`
applies them together with the view's new tracking position, atomically, and only if the
view has not already reached that position, so a runner that crashes and restarts applies
each event exactly once. In Redis that is one Lua script; in memory, one lock.

Both stores are eventsourcing `TrackingRecorder`s (one tracking position per view, named by
the view), so the library's `ProjectionRunner` machinery can follow the log for them.

Operations (values are JSON-ready):
  ("set", key, value)  ("rpush", key, value)  ("lset_last", key, value)
  ("hset", key, field, value)  ("hdel", key, field)  ("zadd", key, member, score)  ("zrem", key, member)
"""
from __future__ import annotations

import threading
from abc import abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

import orjson
from eventsourcing.persistence import Tracking, TrackingRecorder

Op = tuple[Any, ...]


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
    garbage collector to walk (its full passes paused the service for up to half a second)."""

    def __init__(self, prefix: str = "ringside"):
        super().__init__(prefix)
        self._data: dict[str, Any] = {}
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
        kind, key = op[0], op[1]
        data = self._data
        if kind == "set":
            data[key] = orjson.dumps(op[2])
        elif kind == "rpush":
            data.setdefault(key, []).append(orjson.dumps(op[2]))
        elif kind == "lset_last":
            data[key][-1] = orjson.dumps(op[2])
        elif kind == "hset":
            data.setdefault(key, {})[op[2]] = orjson.dumps(op[3])
        elif kind in ("hdel", "zrem"):
            found = data.get(key)
            if found is not None:
                found.pop(op[2], None)
                if not found:           # as Redis does: an emptied hash or sorted set is gone
                    del data[key]
        elif kind == "zadd":
            data.setdefault(key, {})[op[2]] = float(op[3])
        else:
            raise ValueError(f"unknown view operation {kind!r}")

    def positions(self) -> dict[str, int]:
        with self._lock:
            return dict(self._positions)

    def drop(self, view: str) -> None:
        start = self.key(view) + ":"
        with self._lock:
            for key in [k for k in self._data if k.startswith(start)]:
                del self._data[key]
            self._positions.pop(view, None)

    def get(self, key: str) -> Any | None:
        with self._lock:
            found = self._data.get(key)
        return None if found is None else orjson.loads(found)

    def lrange(self, key: str) -> list[Any]:
        with self._lock:
            found = list(self._data.get(key, ()))
        return [orjson.loads(item) for item in found]

    def hget(self, key: str, field: str) -> Any | None:
        with self._lock:
            value = self._data.get(key, {}).get(field)
        return None if value is None else orjson.loads(value)

    def hgetall(self, key: str) -> dict[str, Any]:
        with self._lock:
            found = dict(self._data.get(key, {}))
        return {field: orjson.loads(value) for field, value in found.items()}

    def ztop(self, key: str, limit: int) -> list[tuple[str, float]]:
        with self._lock:
            scores = dict(self._data.get(key, {}))
        return sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]


# For each view: compare its position first, and apply nothing if it already has the event.
APPLY_SCRIPT = """
local changes = cjson.decode(ARGV[2])
local applied = {}
for _, change in ipairs(changes) do
  local view = change[1]
  local current = redis.call('HGET', KEYS[1], view)
  if not current or tonumber(current) < tonumber(ARGV[1]) then
    for _, op in ipairs(change[2]) do
      local kind = op[1]
      if kind == 'set' then redis.call('SET', op[2], op[3])
      elseif kind == 'rpush' then redis.call('RPUSH', op[2], op[3])
      elseif kind == 'lset_last' then redis.call('LSET', op[2], -1, op[3])
      elseif kind == 'hset' then redis.call('HSET', op[2], op[3], op[4])
      elseif kind == 'hdel' then redis.call('HDEL', op[2], op[3])
      elseif kind == 'zadd' then redis.call('ZADD', op[2], op[4], op[3])
      elseif kind == 'zrem' then redis.call('ZREM', op[2], op[3])
      else return redis.error_reply('unknown view operation ' .. tostring(kind)) end
    end
    redis.call('HSET', KEYS[1], view, ARGV[1])
    table.insert(applied, view)
  end
end
return applied
"""


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
        encoded = [[view, [self._encode(op) for op in ops]] for view, ops in changes.items()]
        # An empty Lua table encodes as {} in cjson, so each change always carries its list.
        args = [position, orjson.dumps(encoded)]
        if self._pipe is not None:
            # Queued: the script applies each view only past its position, as the caller
            # (which has read the positions) expects it to.
            self._apply(keys=[self.tracking_key], args=args, client=self._pipe)
            return list(changes)
        applied = self._apply(keys=[self.tracking_key], args=args)
        return [v.decode() if isinstance(v, bytes) else v for v in applied]

    @staticmethod
    def _encode(op: Op) -> list[Any]:
        kind = op[0]
        if kind in ("set", "rpush", "lset_last"):
            return [kind, op[1], orjson.dumps(op[2]).decode()]
        if kind == "hset":
            return [kind, op[1], op[2], orjson.dumps(op[3]).decode()]
        if kind == "zadd":
            return [kind, op[1], op[2], repr(float(op[3]))]
        return list(op)

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
        rows = self.redis.zrevrange(key, 0, max(limit, 1) * 4 - 1, withscores=True)
        ordered = sorted(((m.decode(), s) for m, s in rows), key=lambda item: (-item[1], item[0]))
        return ordered[:limit]

    def close(self) -> None:
        self.redis.close()
