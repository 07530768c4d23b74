"""Live fan-out: each committed batch reaches every stream following its battle as one frame.

A frame is the JSON array of a batch's wire events (`wire_event`, the one redaction function).
It is rendered and encoded once per kind of viewer (the spectator and each seat), and every
subscriber of that kind is handed the same bytes: a thousand spectators cost one redaction and
one encoding, not a thousand. A kind of viewer the read path holds back (the spectators of a
battle with a spectator delay) gets no frame: its streams read through the read path instead
(domain/reading.py), which knows how far they may see.

`LiveHub.publish` is a commit listener, called in the thread that committed (the group-commit
writer), so it does no rendering and no per-subscriber work there. It hands the batch,
unrendered, to each event loop of this process that has subscribers of the battle (one wake-up
per loop); the first to need its frames renders them, once. With Redis it also queues the batch for the
hub's relay (projections/live_relay.py), whose publisher thread encodes it (rendering it, unless
a loop has already) and publishes it on the battle's channel if another worker's spectators
follow the battle; every other worker's listener hands the frames as they came to its own
loops, so a command accepted by one worker reaches spectators on another.

A stream waiting for its next batch may take it on the spot instead (`Subscription.direct`):
the WebSocket streams write the batch's framed bytes straight to their sockets there, so a
caught-up spectator costs the fan-out one socket write, and no task wake-up, per batch.

Each subscriber has a bounded outbox of batches. One that is not drained (its socket stalled,
its client too slow) overflows and is marked too far behind; its stream then closes it, and the
client resumes from its next seq (api/streams.py). Delivery here is a fast path, not the source
of truth: a stream subscribes before it catches up from the store, drops seqs it has already
sent, and re-reads the store on any gap, or after a quiet spell in which the battle moved on,
so a lost message, a Redis restart or a late subscriber never skips or repeats a seq.

Besides batches the hub carries notices: a message about the battle that is not in its log (the
seats' presence, projections/presence.py), handed to every subscriber of the battle that asked
for notices, on every worker. A notice is a whole snapshot, so a subscriber keeps only the
latest one not yet sent, and a notice never fills an outbox.
"""
from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from domain.engine.battle import BattleState
from domain.engine.events import Recorded, Viewer, wire_event
from domain.access import held_back

from .live_relay import REFRESH_SECONDS, RedisRelay

log = logging.getLogger(__name__)
SPECTATOR_KEY = "spectator"
# Batches a subscriber may have waiting before it counts as too far behind
# (RINGSIDE_STREAM_OUTBOX, read by api/services.py).
OUTBOX_BATCHES = 256
# A send still unfinished this long after it started, when a batch arrives: too far behind
# (RINGSIDE_STREAM_SEND_SECONDS).
SEND_SECONDS = 10.0
WAKE_CHUNK = 64             # subscribers handed a batch per turn of their event loop


class TooFarBehind(Exception):
    """A subscriber fell too far behind (its outbox overflowed, or a send stayed stuck): its
    stream must close and its client resume."""


def kind_of(viewer: Viewer) -> str:
    return viewer.seat or SPECTATOR_KEY


class Batch:
    """One committed batch: its seqs, whether it ended the battle, and a frame per kind of viewer
    that sees it live. Made from the records without rendering them; the frames are rendered on
    first use, once, whichever thread asks first."""

    def __init__(self, battle_id: str, first: int, last: int, ended: bool,
                 frames: dict[str, bytes] | None = None,
                 source: tuple[list[Recorded], BattleState] | None = None):
        self.battle_id = battle_id
        self.first = first
        self.last = last
        self.ended = ended
        self._frames = frames
        self._source = source
        self._lock = threading.Lock()
        self._messages: dict[str, list[bytes]] = {}
        self._encoded: dict[str, bytes] = {}

    @classmethod
    def of(cls, battle_id: str, records: list[Recorded], state: BattleState) -> "Batch":
        return cls(battle_id, records[0].seq, records[-1].seq, state.outcome is not None, source=(records, state))

    @property
    def frames(self) -> dict[str, bytes]:
        if self._frames is None:
            with self._lock:
                if self._frames is None:
                    assert self._source is not None
                    self._frames = render(*self._source)
                    self._source = None
        return self._frames

    def live_for(self, viewer: Viewer) -> bool:
        """Whether `viewer` may be shown this batch as it comes; if not, it reads the store."""
        return kind_of(viewer) in self.frames

    def frame_for(self, viewer: Viewer) -> bytes:
        """The viewer's frame: the same bytes for every subscriber of its kind."""
        return self.frames[kind_of(viewer)]

    def encoded_for(self, viewer: Viewer, encode: Callable[[bytes], bytes]) -> bytes:
        """The viewer's frame as `encode` (one transport's framing) makes it, once per kind."""
        key = kind_of(viewer)
        found = self._encoded.get(key)
        if found is None:
            found = self._encoded[key] = encode(self.frames[key])
        return found

    def messages_for(self, viewer: Viewer) -> list[bytes]:
        """The viewer's events one message each (Server-Sent Events), encoded once per kind."""
        key = kind_of(viewer)
        found = self._messages.get(key)
        if found is None:
            found = self._messages[key] = [orjson.dumps(wire) for wire in orjson.loads(self.frames[key])]
        return found

    def encode(self, origin: str) -> bytes:
        """For Redis, from the hub `origin`: a JSON header line, then one line per frame (JSON
        never holds a raw newline), so a listener hands the frames on without decoding them."""
        frames = self.frames
        header = orjson.dumps({"origin": origin, "battle_id": self.battle_id, "first": self.first,
                               "last": self.last, "ended": self.ended, "kinds": list(frames)})
        return b"\n".join([header, *frames.values()])

    @classmethod
    def decode(cls, raw: bytes) -> tuple[str, "Batch"]:
        """(the origin, the batch)."""
        header, *frames = raw.split(b"\n")
        body = orjson.loads(header)
        return body["origin"], cls(body["battle_id"], body["first"], body["last"], body["ended"],
                                   dict(zip(body["kinds"], frames)))


def render(records: list[Recorded], state: BattleState) -> dict[str, bytes]:
    kinds = [(SPECTATOR_KEY, Viewer()), *((seat, Viewer(seat=seat)) for seat in state.created.players)]
    return {key: orjson.dumps([wire_event(r, viewer, state.public) for r in records])
            for key, viewer in kinds if not held_back(state, viewer)}


class Subscription:
    """One stream's bounded outbox of batches, filled and drained in the stream's event loop.

    Its client is too far behind when a batch arrives while the outbox is full, or while a send
    has been stuck for the hub's `send_seconds`. Checking as batches arrive costs no timer per send, and a
    stuck send that nothing follows holds nothing back."""

    def __init__(self, hub: "LiveHub", battle_id: str):
        self.hub = hub
        self.battle_id = battle_id
        self.loop = asyncio.get_running_loop()
        self.outbox: deque[Batch] = deque()
        self.behind = False
        self.closed = False
        self._waiter: asyncio.Future[None] | None = None
        self._sender: asyncio.Task[Any] | None = None
        self._sending_since: float | None = None
        self._cut_short = False
        # Set by a stream that can take a batch on the spot while it waits for one: True if it
        # has sent the batch itself, so that nothing need wake it (api/streams.py).
        self.direct: Callable[[Batch], bool] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._taken = False         # a batch was taken on the spot during the current wait
        self._ended = False         # the battle's last batch was, and the stream must close
        self.notices = False        # set by a stream that sends the battle's notices too
        self._notice: bytes | None = None

    def put(self, batch: Batch) -> None:
        """In the subscriber's loop: hand the batch to a waiting stream that takes it on the spot,
        or queue it, or find the subscriber too far behind."""
        if self.behind or self.closed:
            return
        if self.direct is not None and self._waiting() and not self.outbox and self.direct(batch):
            self._taken = True
            self._ended = batch.ended       # the stream wakes only to close (see offer_chunk)
            return
        hub = self.hub
        stuck = self._sending_since is not None and self.loop.time() - self._sending_since > hub.send_seconds
        if stuck or len(self.outbox) >= hub.outbox_batches:
            self.fall_behind()
            return
        self.outbox.append(batch)
        self._wake()

    def notify(self, message: bytes) -> None:
        """In the subscriber's loop: a notice for a stream that asked for them; it supersedes
        any notice not yet taken, and wakes the stream."""
        if self.notices and not (self.behind or self.closed):
            self._notice = message
            self._wake()

    def take_notice(self) -> bytes | None:
        """The latest notice not yet sent, once."""
        found, self._notice = self._notice, None
        return found

    def _waiting(self) -> bool:
        """Whether the stream is waiting in `next()` and nothing has woken it yet."""
        return self._waiter is not None and not self._waiter.done()

    def _wake(self) -> None:
        if self._waiting():
            self._waiter.set_result(None)       # type: ignore[union-attr]

    def wake_if_ended(self) -> None:
        """Wake a stream that took the battle's last batch on the spot, so that it closes."""
        if self._ended:
            self._wake()

    def fall_behind(self) -> None:
        """Let the batches go and end a send the stream is stuck in: it must close and its
        client resume."""
        self.behind = True
        self.outbox.clear()
        self._wake()
        if self._sending_since is not None and self._sender is not None and not self._cut_short:
            self._cut_short = True
            self._sender.cancel()

    async def next(self, timeout: float) -> Batch | None:
        """The next batch; None after `timeout` seconds without one. TooFarBehind once the
        subscriber has fallen behind."""
        if not self.outbox and not self.behind:
            waiter = self._waiter = self.loop.create_future()
            self._taken = False
            self._timer = self.loop.call_later(timeout, self._expire, timeout)
            try:
                await waiter
            finally:
                if self._timer is not None:
                    self._timer.cancel()
                self._waiter = self._timer = None
        if self.behind:
            raise TooFarBehind
        return self.outbox.popleft() if self.outbox else None

    def _expire(self, timeout: float) -> None:
        """The wait's time is up: None for the stream, unless batches were taken on the spot
        meanwhile, which is news, not a quiet spell; then the wait goes on without waking it."""
        if self._taken and self._waiting():
            self._taken = False
            self._timer = self.loop.call_later(timeout, self._expire, timeout)
        else:
            self._wake()

    async def send(self, send: Callable[[bytes], Awaitable[None]], frame: bytes) -> None:
        """Send one frame; TooFarBehind if the subscriber falls behind before it is sent."""
        if self.behind:
            raise TooFarBehind
        self._sender = self._sender or asyncio.current_task()
        self._sending_since = self.loop.time()
        try:
            await send(frame)
        except asyncio.CancelledError:
            # Cut short here, and not also cancelled from outside: the stream closes with 4408.
            if self._cut_short and self._sender is not None and self._sender.uncancel() == 0:
                raise TooFarBehind from None
            raise
        finally:
            self._sending_since = None

    def close(self) -> None:
        self.closed = True
        self.outbox.clear()
        self.hub.unsubscribe(self)


def offer_all(subs: list[Subscription], batch: Batch) -> None:
    """In one loop: hand `batch` to its subscribers, WAKE_CHUNK per turn of the loop, so that a
    big fan-out does not hold up the loop's other work (the command's own answer first)."""
    offer_chunk(tuple(subs), batch, 0)


def offer_chunk(subs: tuple[Subscription, ...], batch: Batch, start: int) -> None:
    for sub in subs[start:start + WAKE_CHUNK]:
        sub.put(batch)
    if start + WAKE_CHUNK < len(subs):
        # A batch moves on one chunk a turn, and a later batch starts no sooner and queues
        # behind it: every subscriber still gets the batches in commit order.
        subs[0].loop.call_soon(offer_chunk, subs, batch, start + WAKE_CHUNK)
    elif batch.ended:
        # Streams that took the battle's last batch on the spot close only once every one has
        # been handed it: their closing handshakes would otherwise hold up the later chunks.
        for sub in subs:
            sub.wake_if_ended()


def notify_all(subs: list[Subscription], message: bytes) -> None:
    """In one loop: hand a notice to the battle's subscribers there."""
    for sub in tuple(subs):
        sub.notify(message)


class LiveHub:
    """In-process fan-out; with a Redis URL, across worker processes through pub/sub."""

    def __init__(self, redis_url: str | None = None, prefix: str = "ringside", *,
                 outbox_batches: int = OUTBOX_BATCHES, send_seconds: float = SEND_SECONDS,
                 watch_refresh: float | None = None):
        self.redis_url = redis_url
        self.prefix = prefix
        self.outbox_batches = outbox_batches
        self.send_seconds = send_seconds
        self.watch_refresh = watch_refresh      # None: the relay's own (live_relay.REFRESH_SECONDS)
        # battle id -> event loop -> that loop's subscriptions: a batch costs the committing
        # thread one wake-up per loop, however many subscribers each loop serves.
        self._subs: dict[str, dict[asyncio.AbstractEventLoop, list[Subscription]]] = {}
        self._latest: dict[str, int] = {}       # battle id -> last seq handed to its subscribers
        self.heads: dict[str, tuple[float, int]] = {}   # battle id -> (when read, head seq): streams' quiet checks
        self._lock = threading.Lock()
        self.relay: RedisRelay | None = None
        self.origin = uuid.uuid4().hex          # this hub's own batches come back from Redis: skip them
        self.published = 0

    # -- publishing (a commit listener, called in the thread that committed) --------------
    def publish(self, battle_id: str, records: list[Recorded], state: BattleState) -> None:
        """This process's subscribers get the batch at once; the other workers through Redis."""
        batch = Batch.of(battle_id, records, state)
        self.published += 1
        self.deliver(batch)
        if self.relay is not None:
            self.relay.publish(batch)

    def received(self, raw: bytes) -> None:
        """A batch from Redis, as `Batch.encode` wrote it: delivered here unless this hub sent it."""
        origin, batch = Batch.decode(raw)
        if origin != self.origin:
            self.deliver(batch)

    def notify(self, battle_id: str, message: bytes) -> None:
        """A notice about the battle (from any thread): to its subscribers here and, through
        Redis, on the other workers."""
        self.deliver_notice(battle_id, message)
        if self.relay is not None:
            self.relay.notice(battle_id, message)

    def noticed(self, raw: bytes) -> None:
        """A notice from Redis, as `RedisRelay.notice` wrote it: delivered here unless this
        hub sent it."""
        header, _, message = raw.partition(b"\n")
        body = orjson.loads(header)
        if body["origin"] != self.origin:
            self.deliver_notice(body["battle_id"], message)

    def deliver_notice(self, battle_id: str, message: bytes) -> None:
        with self._lock:
            loops = list(self._subs.get(battle_id, {}).items())
        for loop, subs in loops:
            try:
                loop.call_soon_threadsafe(notify_all, subs, message)
            except RuntimeError:        # that loop has closed; its streams are gone
                pass

    def deliver(self, batch: Batch) -> None:
        """Hand `batch` to the battle's subscribers: one wake-up per event loop."""
        with self._lock:
            loops = list(self._subs.get(batch.battle_id, {}).items())
            if loops:
                self._latest[batch.battle_id] = max(self._latest.get(batch.battle_id, 0), batch.last)
        for loop, subs in loops:
            try:
                loop.call_soon_threadsafe(offer_all, subs, batch)
            except RuntimeError:        # that loop has closed; its streams are gone
                pass

    # -- subscribing (from a running event loop) -------------------------------------------
    def subscribe(self, battle_id: str) -> Subscription:
        sub = Subscription(self, battle_id)
        with self._lock:
            first = battle_id not in self._subs
            self._subs.setdefault(battle_id, {}).setdefault(sub.loop, []).append(sub)
        if first and self.relay is not None:
            self.relay.watching(battle_id)
        return sub

    def watched(self) -> list[str]:
        """The battles with subscribers in this process."""
        with self._lock:
            return list(self._subs)

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            loops = self._subs.get(sub.battle_id, {})
            subs = loops.get(sub.loop, [])
            if sub in subs:
                subs.remove(sub)
            if not subs:
                loops.pop(sub.loop, None)
            if not loops:
                self._subs.pop(sub.battle_id, None)
                self._latest.pop(sub.battle_id, None)
                self.heads.pop(sub.battle_id, None)

    def latest(self, battle_id: str) -> int:
        """The last seq of the battle handed to its subscribers here (0: none yet): a batch up
        to it is on its way to each of them, if not there already."""
        return self._latest.get(battle_id, 0)

    def subscribers(self, battle_id: str) -> int:
        with self._lock:
            return sum(len(subs) for subs in self._subs.get(battle_id, {}).values())

    # -- the Redis side (projections/live_relay.py) -------------------------------------------
    def start(self) -> None:
        if self.redis_url is None or self.relay is not None:
            return
        refresh = REFRESH_SECONDS if self.watch_refresh is None else self.watch_refresh
        self.relay = RedisRelay(self, self.redis_url, refresh)

    def close(self) -> None:
        if self.relay is not None:
            self.relay.close()
