"""Live streams of a battle's events: WebSocket and Server-Sent Events.

Both catch up from the store from `from`, then follow the live hub. A WebSocket message is a
frame: the JSON array `[{seq, type, data, chain}, ...]` of one committed batch (the same bytes
for every subscriber of its kind of viewer), or of up to `CATCH_UP_EVENTS` events read from the
store. SSE sends one event per message, with `id:` its seq, so `Last-Event-ID` resumes exactly.
Every event is `wire_event` output, redacted for the caller. A stream subscribes before it
catches up, sends seqs strictly in order, drops what it has already sent, and re-reads the store
through the read path (domain/reading.py) whenever the live path shows a gap, goes quiet while
the battle has moved on, or holds the caller back; so no seq is ever skipped or repeated, across
reconnects and workers, and a held-back spectator stops where every other read stops. After the
battle's last event the stream ends (WebSocket close 1000; SSE `event: end`).

On a server offering the `ringside.frames` extension (`ringside serve`: api/adapters/uvicorn.py), a
caught-up WebSocket stream is written each live batch on the spot, from the fan-out, without
waking its task (`_write_now`); the rules above hold all the same.

A client that falls too far behind is dropped, so that it never holds up the others or the
server's memory: each subscriber has a bounded outbox, and one whose outbox overflows, or whose
socket has not taken a frame in `SEND_SECONDS` when the next batch comes (projections/live.py),
is closed. The WebSocket closes with 4408 and the reason `too far behind; reconnect with
from=N`, N being the first seq it was not sent; SSE sends `event: behind` with
`data: {"from": N}` and ends. Either way the client resumes from N and gets exactly the rest.

A stream opened with a seat token makes that seat present (projections/presence.py) while it is
open; a spectator's does not. A stream opened with `presence=true` is sent the battle's presence,
`{"type": "presence", "battle_id", "presence": {seat: {"connected", "since_ms", "house"}}}`: once
as it opens, then whenever a seat's streams come or go, on whichever worker. On the WebSocket it is
a message of its own (a JSON object, where a batch is a JSON array); on SSE an `event: presence`
with no `id:`, so `Last-Event-ID` still counts seqs alone. A stream opened without it is sent
batches only, exactly as before.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from functools import partial
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Path, Query, Request, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse

from domain.engine.errors import RingsideError
from domain.engine.events import Viewer
from projections.live import Batch, TooFarBehind
from projections.presence import Connection, Presence

from .auth import bearer
from .errors import STATUS_BY_CODE
from .routes.models import ERRORS
from .services import Services
from .adapters.uvicorn import EXTENSION, binary_frame

log = logging.getLogger(__name__)
router = APIRouter(tags=["streams"])
QUIET_SECONDS = 1.0          # check for missed news after this long without any
HEARTBEAT_SECONDS = 15.0
CATCH_UP_EVENTS = 200        # events per frame when catching up from the store
CLOSE_SECONDS = 10.0         # how long the 4408 close may wait for the socket to drain to it
TOO_FAR_BEHIND = 4408        # 4000 + 408, in the family of the refusals (4401, 4403, 4404)
AskPresence = Annotated[bool, Query(description="also send the battle's presence: as the stream opens, and on every change")]


class Frame:
    """Consecutive events due next, `first`..`last`: a live batch (encoded once for every
    subscriber of its kind of viewer) or wire events read from the store."""
    __slots__ = ("first", "last", "batch", "viewer", "events")

    def __init__(self, first: int, last: int, *, batch: Batch | None = None, viewer: Viewer | None = None,
                 events: list[dict[str, Any]] | None = None):
        self.first, self.last = first, last
        self.batch, self.viewer, self.events = batch, viewer, events

    def array(self) -> bytes:
        """The WebSocket message: the JSON array of the events."""
        if self.batch is not None and self.viewer is not None:
            return self.batch.frame_for(self.viewer)
        return orjson.dumps(self.events)

    def messages(self) -> list[tuple[int, bytes]]:
        """The SSE messages: (seq, one event's JSON) each."""
        if self.batch is not None and self.viewer is not None:
            encoded = self.batch.messages_for(self.viewer)
        else:
            encoded = [orjson.dumps(wire) for wire in self.events or ()]
        return list(zip(range(self.first, self.last + 1), encoded))


class EventFeed:
    """The ordered, gap-free sequence of wire events one viewer may see, from `next_seq` on."""

    def __init__(self, services: Services, battle_id: str, viewer: Viewer, from_seq: int,
                 players: Mapping[str, object] | None = None):
        self.services = services
        self.battle_id = battle_id
        self.viewer = viewer
        self.players = players or {}            # the battle's seats, for its presence
        self.next_seq = from_seq
        self.handed = from_seq                  # the first seq not yet handed to the socket
        self.last_seq: int | None = None        # the battle's final seq, once it has ended
        self.read_head = 0                      # the battle's head when the store was last read
        self.sub = services.live.subscribe(battle_id)

    async def catch_up(self) -> list[Frame]:
        events, head, ended = await run_in_threadpool(self._read)
        self.read_head = max(self.read_head, head)
        self.last_seq = head if ended else None
        return self._take(events)

    def _read(self) -> tuple[list[dict[str, Any]], int, bool]:
        sight = self.services.battles.reading.sight(self.battle_id, self.viewer)
        return sight.events(self.next_seq), sight.state.seq, sight.state.outcome is not None

    async def _missed(self) -> bool:
        """After a quiet spell: whether the battle has moved past everything this stream has
        read or been handed (a batch lost on the way, as in a Redis outage). The head is read
        once per QUIET_SECONDS for every stream of the battle in this process, not once each."""
        heads = self.services.live.heads
        checked = heads.get(self.battle_id)
        now = time.monotonic()
        if checked is None or now - checked[0] >= QUIET_SECONDS:
            heads[self.battle_id] = (now, checked[1] if checked else 0)     # the others wait for the next
            head = await run_in_threadpool(lambda: self.services.battles.load(self.battle_id).seq)
            heads[self.battle_id] = (now, head)
        else:
            head = checked[1]
        return head >= self.next_seq and head > max(self.read_head, self.services.live.latest(self.battle_id))

    def _take(self, events: list[dict[str, Any]]) -> list[Frame]:
        """The events due next, in order, in frames of up to CATCH_UP_EVENTS; already-sent seqs
        are dropped."""
        fresh = []
        for wire in events:
            if wire["seq"] == self.next_seq:
                fresh.append(wire)
                self.next_seq += 1
        chunks = (fresh[i:i + CATCH_UP_EVENTS] for i in range(0, len(fresh), CATCH_UP_EVENTS))
        return [Frame(chunk[0]["seq"], chunk[-1]["seq"], events=chunk) for chunk in chunks]

    @property
    def done(self) -> bool:
        return self.last_seq is not None and self.next_seq > self.last_seq

    async def next_frames(self, wait: float) -> list[Frame]:
        """The next frames in order; [] when nothing new arrived. TooFarBehind once the
        subscriber's outbox has overflowed."""
        batch = await self.sub.next(wait)
        if batch is None:
            return await self.catch_up() if not self.done and await self._missed() else []
        if batch.last < self.next_seq:
            return []
        if batch.first > self.next_seq or not batch.live_for(self.viewer):
            return await self.catch_up()
        if batch.ended:
            self.last_seq = batch.last
        if batch.first < self.next_seq:         # partly sent already (by a catch-up): the rest
            return self._take(orjson.loads(batch.frame_for(self.viewer)))
        self.next_seq = batch.last + 1
        return [Frame(batch.first, batch.last, batch=batch, viewer=self.viewer)]

    def close(self) -> None:
        self.sub.close()


async def open_feed(services: Services, battle_id: str, token: str | None, from_seq: int) -> EventFeed:
    """The feed, once the battle is known to exist and the token to open it: a stream decides
    every refusal (404, 401, 403) before it starts, while it can still answer with an error."""
    sight = await run_in_threadpool(services.battles.reading.client_sight, battle_id, token)
    return EventFeed(services, battle_id, sight.viewer, from_seq, sight.state.created.players)


def join(presence: Presence, feed: EventFeed, token: str | None) -> Connection | None:
    """A stream opened with a seat token makes its seat present until it closes; the
    spectator's (and a seat's view asked for with `as`, without the token) does not."""
    if token is None or feed.viewer.seat is None:
        return None
    return presence.join(feed.battle_id, feed.viewer.seat, feed.players)


async def presence_now(presence: Presence, feed: EventFeed) -> bytes:
    """The presence message as the stream opens; the changes after it come as notices."""
    feed.sub.notices = True
    return await run_in_threadpool(presence.message, feed.battle_id, feed.players)


async def follow(feed: EventFeed) -> AsyncIterator[list[Frame] | None]:
    """Yield frames in order until the battle's last event; None marks a quiet spell."""
    first = await feed.catch_up()
    if first:
        yield first
    while not feed.done:
        frames = await feed.next_frames(QUIET_SECONDS)
        yield frames or None


@router.websocket("/battles/{battle_id}/stream")
async def websocket_stream(websocket: WebSocket, battle_id: str,
                           from_seq: int = Query(1, alias="from", ge=1, le=2**31), token: str | None = None,
                           presence: AskPresence = False) -> None:
    """Catch-up, then live; each message a JSON array of `{seq, type, data, chain}` (one batch),
    or with `presence=true` also a presence object. Close codes: 1000 after the battle's last
    event; 4401/4403/4404 for a missing, wrong or unknown battle or token; 4408 too far behind,
    reconnect with the `from` the reason names."""
    services: Services = websocket.app.state.services
    seats: Presence = websocket.app.state.presence
    try:
        feed = await open_feed(services, battle_id, token, from_seq)
    except RingsideError as exc:
        # Accept, then close with 4000 + the HTTP status, so browsers can read why.
        await websocket.accept()
        reason = exc.message.encode()[:120].decode(errors="ignore")     # a close reason holds 123 bytes
        await websocket.close(code=4000 + STATUS_BY_CODE.get(exc.code, 400), reason=reason)
        return
    await websocket.accept()
    connection = join(seats, feed, token)
    write = websocket.scope.get("extensions", {}).get(EXTENSION, {}).get("write")
    if write is not None:
        feed.sub.direct = partial(_write_now, feed, write)
    sending = asyncio.create_task(_send_all(websocket, feed, seats if presence else None))
    # A client that goes away must stop its feed at once, even while the battle is quiet.
    listening = asyncio.create_task(_until_disconnect(websocket))
    try:
        await asyncio.wait({sending, listening}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        # No waiting here: a store read in the threadpool may still be running, and the
        # feed must be released even when this handler is itself being cancelled.
        for task in (sending, listening):
            task.cancel()
        feed.close()
        if connection is not None:
            connection.close()


async def _send_all(websocket: WebSocket, feed: EventFeed, presence: Presence | None) -> None:
    """Send every frame, and with `presence` every notice. Each subscriber has a task of its
    own, so a stalled socket holds up nobody else; one that stays stalled falls behind
    (projections/live.py) and is closed."""
    try:
        if presence is not None:
            await feed.sub.send(websocket.send_bytes, await presence_now(presence, feed))
        async for frames in follow(feed):
            for frame in frames or ():
                await feed.sub.send(websocket.send_bytes, frame.array())
                feed.handed = frame.last + 1
            notice = feed.sub.take_notice()
            if notice is not None:
                await feed.sub.send(websocket.send_bytes, notice)
        await websocket.close(code=1000, reason="the battle has ended")
    except TooFarBehind:
        feed.close()                # its outbox goes now, not once the close gets through
        await _close_behind(websocket, feed.handed)
    except WebSocketDisconnect:
        pass


def _write_now(feed: EventFeed, write: Callable[[bytes], bool], batch: Batch) -> bool:
    """While the stream waits for its next batch: write `batch` straight to the socket if it is
    the very next one and seen live, and the server's `ringside.frames` extension takes it
    (api/adapters/uvicorn.py). No task wakes up (but for the battle's last batch, to close), and every
    spectator of a kind is written the same framed bytes. False: the stream is handed the batch
    as usual."""
    if batch.first != feed.next_seq or not batch.live_for(feed.viewer):
        return False
    try:
        if not write(batch.encoded_for(feed.viewer, binary_frame)):
            return False
    except Exception:       # the stream itself meets it again, and ends with it
        log.exception("writing a live frame failed")
        return False
    feed.next_seq = feed.handed = batch.last + 1
    if batch.ended:
        feed.last_seq = batch.last
    return True


async def _close_behind(websocket: WebSocket, resume: int) -> None:
    """Close with 4408. The close frame follows every frame already written, so the client has
    read exactly the seqs before `resume` when it sees it; a socket that never drains is left
    to the server to drop after CLOSE_SECONDS."""
    try:
        async with asyncio.timeout(CLOSE_SECONDS):
            await websocket.close(code=TOO_FAR_BEHIND, reason=f"too far behind; reconnect with from={resume}")
    except (TimeoutError, WebSocketDisconnect):
        pass


async def _until_disconnect(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends until it disconnects."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return


@router.get("/battles/{battle_id}/stream.sse", responses={200: {"content": {"text/event-stream": {}}}, **ERRORS})
async def sse_stream(battle_id: Annotated[str, Path(max_length=64)], request: Request,
                     from_seq: Annotated[int, Query(alias="from", ge=1, le=2**31)] = 1,
                     token: str | None = None, presence: AskPresence = False,
                     last_event_id: Annotated[str | None, Query(include_in_schema=False)] = None) -> StreamingResponse:
    """Server-Sent Events, one event per message: `id` is the seq, so a reconnect with
    `Last-Event-ID` resumes. A client too far behind gets `event: behind` and the stream ends.
    With `presence=true` the battle's presence comes as `event: presence` (no `id`)."""
    services: Services = request.app.state.services
    resume = request.headers.get("last-event-id") or last_event_id
    if resume is not None and resume.isdigit():
        from_seq = max(from_seq, int(resume) + 1)
    token = bearer(request, token)
    feed = await open_feed(services, battle_id, token, from_seq)
    seats: Presence = request.app.state.presence
    return StreamingResponse(_sse_body(feed, request, seats, token, presence), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


async def _sse_body(feed: EventFeed, request: Request, seats: Presence, token: str | None,
                    presence: bool) -> AsyncIterator[bytes]:
    quiet, resume = 0.0, feed.next_seq
    connection = join(seats, feed, token)
    try:
        if presence:
            yield b"event: presence\ndata: %s\n\n" % await presence_now(seats, feed)
        async for frames in follow(feed):
            if await request.is_disconnected():
                return
            notice = feed.sub.take_notice()
            if notice is not None:
                quiet = 0.0
                yield b"event: presence\ndata: %s\n\n" % notice
            if not frames:
                quiet += QUIET_SECONDS
                if quiet >= HEARTBEAT_SECONDS:
                    quiet = 0.0
                    yield b": keep-alive\n\n"
                continue
            quiet = 0.0
            for frame in frames:
                for seq, message in frame.messages():
                    yield b"id: %d\nevent: battle\ndata: %s\n\n" % (seq, message)
                    resume = seq + 1
        yield b"event: end\ndata: {}\n\n"
    except TooFarBehind:
        yield b"event: behind\ndata: {\"from\": %d}\n\n" % resume
    finally:
        feed.close()
        if connection is not None:
            connection.close()
