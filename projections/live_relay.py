"""The live hub's Redis side: batches cross to the other workers by pub/sub, and only the
battles that some other worker's spectators follow.

Each hub announces, on the watch channel, the battles it has subscribers for: at once when a
battle gets its first one here, and all of them every `refresh` seconds. A hub publishes a
batch only for a battle another hub has announced within the last 3 refreshes, so a worker
whose battles nobody follows elsewhere renders, encodes and publishes nothing, and the other
workers' listeners decode nothing. A listener that (re)connects says hello and the others
announce theirs at once, so a worker that starts or a Redis that restarts catches up.

Notices (a battle's presence: small, and only when a seat's streams come or go) go to every
hub on one channel of their own, followed or not, so a stream that has just subscribed misses
none.

A spectator that joins elsewhere may miss a batch committed before its announcement arrived;
its stream then finds the gap at the next batch, or after a quiet spell, and reads the store
(api/streams.py), as it does for a batch lost in a Redis outage. Nothing is skipped or
repeated; only that first batch comes late.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any, Protocol

import orjson

log = logging.getLogger(__name__)
REFRESH_SECONDS = 2.0
ALL = None                  # an announcement of every battle watched here


class Outgoing(Protocol):
    """A batch as the relay sends it (`projections.live.Batch`)."""
    battle_id: str

    def encode(self, origin: str) -> bytes: ...


class Hub(Protocol):
    """What the relay needs of its hub (`projections.live.LiveHub`, which starts the relay and
    so sits above it): its key prefix and own name, the battles followed there, and where a
    batch or a notice another hub published goes (the hub decodes it: the relay never looks
    inside)."""
    prefix: str
    origin: str

    def watched(self) -> list[str]: ...
    def received(self, raw: bytes) -> None: ...
    def noticed(self, raw: bytes) -> None: ...


class Notice:
    """A notice about a battle, on its way to the other hubs."""
    __slots__ = ("battle_id", "message")

    def __init__(self, battle_id: str, message: bytes):
        self.battle_id, self.message = battle_id, message


class RedisRelay:
    """The Redis side of `hub`: its publisher and listener threads and what the others follow."""

    def __init__(self, hub: Hub, url: str, refresh: float = REFRESH_SECONDS):
        import redis

        self.hub = hub
        self.url, self.prefix, self.origin = url, hub.prefix, hub.origin
        self.refresh = refresh
        self.elsewhere: dict[str, float] = {}   # battle id -> until when another hub follows it
        self.sent = 0                           # batches published
        self._redis = redis.Redis.from_url(self.url, socket_timeout=2, socket_connect_timeout=2)
        self._outgoing: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._stopping = threading.Event()
        self._threads = [threading.Thread(target=self._listen, name="live-hub", daemon=True),
                         threading.Thread(target=self._publish_all, name="live-publish", daemon=True)]
        for thread in self._threads:
            thread.start()

    def channel(self, battle_id: str) -> str:
        return f"{self.prefix}:live:{battle_id}"

    @property
    def watch_channel(self) -> str:
        return f"{self.prefix}:live-watch"      # not matched by the battles' pattern

    @property
    def notice_channel(self) -> str:
        return f"{self.prefix}:live-notice"     # nor this one

    def publish(self, batch: Outgoing) -> None:
        """From the committing thread: the batch goes out, in commit order, if it is followed."""
        self._outgoing.put(batch)

    def notice(self, battle_id: str, message: bytes) -> None:
        """From any thread: the notice goes out to every other hub, in order with the batches."""
        self._outgoing.put(Notice(battle_id, message))

    def watching(self, battle_id: str) -> None:
        """The battle got its first subscriber here: tell the other hubs at once."""
        self._outgoing.put(("watch", [battle_id]))

    def followed(self, battle_id: str) -> bool:
        return self.elsewhere.get(battle_id, 0.0) > time.monotonic()

    # -- the publisher thread ----------------------------------------------------------------
    def _publish_all(self) -> None:
        due = time.monotonic() + self.refresh
        while True:
            try:
                item = self._outgoing.get(timeout=max(0.0, due - time.monotonic()))
            except queue.Empty:
                item = ("watch", ALL)
            if item is None:
                return
            if time.monotonic() >= due:
                due = time.monotonic() + self.refresh
                self._forget_expired()
                if item != ("watch", ALL):
                    self._send(("watch", ALL))
            self._send(item)

    def _send(self, item: Any) -> None:
        try:
            if isinstance(item, Notice):
                header = orjson.dumps({"origin": self.origin, "battle_id": item.battle_id})
                self._redis.publish(self.notice_channel, header + b"\n" + item.message)
                return
            if not isinstance(item, tuple):     # a batch; the rest are announcements
                if self.followed(item.battle_id):
                    self._redis.publish(self.channel(item.battle_id), item.encode(self.origin))
                    self.sent += 1
                return
            kind, battles = item
            body = {"origin": self.origin, "battles": self.hub.watched() if battles is ALL else battles,
                    "hello": kind == "hello"}
            if body["battles"] or body["hello"]:
                self._redis.publish(self.watch_channel, orjson.dumps(body))
        except Exception as exc:    # Redis down: the store still has the batch for the others
            log.warning("live publish to Redis failed (%s); delivered in this worker only", exc)

    def _forget_expired(self) -> None:
        now = time.monotonic()
        for battle_id in [b for b, until in list(self.elsewhere.items()) if until <= now]:
            self.elsewhere.pop(battle_id, None)

    # -- the listener thread -----------------------------------------------------------------
    def _listen(self) -> None:
        """Follow every battle channel and the watch channel; reconnect after Redis goes away."""
        import redis

        while not self._stopping.is_set():
            try:
                client = redis.Redis.from_url(self.url, socket_connect_timeout=2, health_check_interval=5)
                pubsub = client.pubsub()
                pubsub.psubscribe(f"{self.prefix}:live:*")
                pubsub.subscribe(self.watch_channel, self.notice_channel)
                confirmed, notices = 0, self.notice_channel.encode()
                while not self._stopping.is_set():
                    message = pubsub.get_message(timeout=0.5)
                    if message is None:
                        continue
                    if message["type"] in ("psubscribe", "subscribe"):
                        confirmed += 1
                        if confirmed == 3:      # only now: the others' answers reach us
                            self._outgoing.put(("hello", ALL))
                    elif message["type"] == "pmessage":
                        self.hub.received(message["data"])
                    elif message["type"] == "message" and message["channel"] == notices:
                        self.hub.noticed(message["data"])
                    elif message["type"] == "message":
                        self._heard(orjson.loads(message["data"]))
                pubsub.close()
                client.close()
            except Exception as exc:
                log.warning("live hub lost Redis (%s); reconnecting", exc)
                self._stopping.wait(0.5)

    def _heard(self, body: dict[str, Any]) -> None:
        """Another hub's announcement (ours come back too: skipped)."""
        if body["origin"] == self.origin:
            return
        until = time.monotonic() + 3 * self.refresh
        for battle_id in body["battles"]:
            self.elsewhere[battle_id] = until
        if body["hello"]:
            self._outgoing.put(("watch", ALL))

    def close(self) -> None:
        self._stopping.set()
        self._outgoing.put(None)
        for thread in self._threads:
            thread.join(timeout=3)
        self._redis.close()
