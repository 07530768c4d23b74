"""Live fan-out: each committed batch reaches every stream following its battle.

`LiveHub.publish` is a commit listener. It renders the batch once per kind of viewer (the
spectator and each seat) through `wire_event`, the one redaction function, so a thousand
spectators cost one redaction, not a thousand. A kind of viewer the read path holds back (the
spectators of a battle with a spectator delay) gets no rendering: its streams read through the
read path instead (domain/reading.py), which knows how far they may see. In one process the
hub hands batches straight to its subscribers. With Redis, a batch goes out on the battle's
channel and every worker's listener hands it to its own subscribers, so a command accepted by
one worker reaches spectators on another.

Delivery here is a fast path, not the source of truth: a stream subscribes before it catches
up from the store, drops seqs it has already sent, and re-reads the store on any gap or
quiet spell. So a lost message, a Redis restart or a late subscriber never skips or repeats
a seq.
"""
from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from domain.engine.battle import BattleState
from domain.engine.events import Recorded, Viewer, wire_event
from domain.reading import held_back

log = logging.getLogger(__name__)
SPECTATOR_KEY = "spectator"


@dataclass(frozen=True)
class Batch:
    """One committed batch, rendered for each kind of viewer: key -> wire events."""
    battle_id: str
    first: int
    last: int
    ended: bool
    rendered: Mapping[str, list[dict[str, Any]]]         # only for the kinds that see it live
    encoded: dict[str, list[bytes]] = field(default_factory=dict, compare=False)

    def live_for(self, viewer: Viewer) -> bool:
        """Whether `viewer` may be shown this batch as it comes; if not, it reads the store."""
        return (viewer.seat or SPECTATOR_KEY) in self.rendered

    def for_viewer(self, viewer: Viewer) -> list[dict[str, Any]]:
        return self.rendered[viewer.seat or SPECTATOR_KEY]

    def bytes_for(self, viewer: Viewer) -> list[bytes]:
        """The viewer's messages as JSON bytes, encoded once for every subscriber alike."""
        key = viewer.seat or SPECTATOR_KEY
        found = self.encoded.get(key)
        if found is None:
            found = self.encoded[key] = [orjson.dumps(wire) for wire in self.rendered[key]]
        return found

    def encode(self) -> bytes:
        return orjson.dumps({"battle_id": self.battle_id, "first": self.first, "last": self.last,
                             "ended": self.ended, "rendered": self.rendered})

    @classmethod
    def decode(cls, raw: bytes) -> "Batch":
        body = orjson.loads(raw)
        return cls(body["battle_id"], body["first"], body["last"], body["ended"], body["rendered"])


def render(battle_id: str, records: list[Recorded], state: BattleState) -> Batch:
    kinds = [(SPECTATOR_KEY, Viewer()), *((seat, Viewer(seat=seat)) for seat in state.created.players)]
    rendered = {key: [wire_event(r, viewer, state.public) for r in records]
                for key, viewer in kinds if not held_back(state, viewer)}
    return Batch(battle_id, records[0].seq, records[-1].seq, state.outcome is not None, rendered)


class Subscription:
    """One stream's inbox of batches, fed from any thread."""

    def __init__(self, hub: "LiveHub", battle_id: str):
        self.hub = hub
        self.battle_id = battle_id
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[Batch] = asyncio.Queue(maxsize=1024)

    def put(self, batch: Batch) -> None:
        """In the subscriber's loop: queue the batch."""
        if self.queue.full():           # a slow reader: drop; it re-reads the store on the gap
            return
        self.queue.put_nowait(batch)

    async def next(self, timeout: float) -> Batch | None:
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except asyncio.TimeoutError:
            return None

    def close(self) -> None:
        self.hub.unsubscribe(self)


def offer_all(subs: list[Subscription], batch: Batch) -> None:
    for sub in subs:
        sub.put(batch)


class LiveHub:
    """In-process fan-out; with a Redis URL, across worker processes through pub/sub."""

    def __init__(self, redis_url: str | None = None, prefix: str = "ringside"):
        self.redis_url = redis_url
        self.prefix = prefix
        self._subs: dict[str, set[Subscription]] = {}
        self._lock = threading.Lock()
        self._redis: Any = None
        self._listener: threading.Thread | None = None
        self._stopping = threading.Event()
        self.published = 0

    def channel(self, battle_id: str) -> str:
        return f"{self.prefix}:live:{battle_id}"

    # -- publishing (a commit listener, called in the thread that committed) --------------
    def publish(self, battle_id: str, records: list[Recorded], state: BattleState) -> None:
        batch = render(battle_id, records, state)
        self.published += 1
        if self._redis is not None:
            try:
                self._redis.publish(self.channel(battle_id), batch.encode())
                return
            except Exception as exc:    # Redis down: the store still has the batch; deliver locally
                log.warning("live publish to Redis failed (%s); delivering locally only", exc)
        self.deliver(batch)

    def deliver(self, batch: Batch) -> None:
        """Hand `batch` to the battle's subscribers: one wake-up per event loop, not one per
        subscriber, so the committing thread does no per-spectator work."""
        with self._lock:
            subs = list(self._subs.get(batch.battle_id, ()))
        by_loop: dict[asyncio.AbstractEventLoop, list[Subscription]] = {}
        for sub in subs:
            by_loop.setdefault(sub.loop, []).append(sub)
        for loop, group in by_loop.items():
            try:
                loop.call_soon_threadsafe(offer_all, group, batch)
            except RuntimeError:        # that loop has closed; its streams are gone
                pass

    # -- subscribing (from a running event loop) -------------------------------------------
    def subscribe(self, battle_id: str) -> Subscription:
        sub = Subscription(self, battle_id)
        with self._lock:
            self._subs.setdefault(battle_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subs.get(sub.battle_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.battle_id]

    def subscribers(self, battle_id: str) -> int:
        with self._lock:
            return len(self._subs.get(battle_id, ()))

    # -- the Redis side ----------------------------------------------------------------------
    def start(self) -> None:
        if self.redis_url is None or self._listener is not None:
            return
        import redis

        self._redis = redis.Redis.from_url(self.redis_url, socket_timeout=2, socket_connect_timeout=2)
        self._listener = threading.Thread(target=self._listen, name="live-hub", daemon=True)
        self._listener.start()

    def _listen(self) -> None:
        """Follow every battle channel; reconnect after Redis goes away."""
        import redis

        pattern = f"{self.prefix}:live:*"
        while not self._stopping.is_set():
            try:
                client = redis.Redis.from_url(self.redis_url, socket_connect_timeout=2, health_check_interval=5)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe(pattern)
                while not self._stopping.is_set():
                    message = pubsub.get_message(timeout=0.5)
                    if message is not None and message["type"] == "pmessage":
                        self.deliver(Batch.decode(message["data"]))
                pubsub.close()
                client.close()
            except Exception as exc:
                log.warning("live hub lost Redis (%s); reconnecting", exc)
                self._stopping.wait(0.5)

    def close(self) -> None:
        self._stopping.set()
        if self._listener is not None:
            self._listener.join(timeout=3)
        if self._redis is not None:
            self._redis.close()
