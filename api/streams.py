"""Live streams of a battle's events: WebSocket and Server-Sent Events.

Both catch up from the store from `from`, then follow the live hub. Every message is
`wire_event` output, redacted for the caller. A stream subscribes before it catches up,
sends seqs strictly in order, drops what it has already sent, and re-reads the store through
the read path (domain/reading.py) whenever the live path shows a gap, goes quiet, or holds
the caller back; so no seq is ever skipped or repeated, across reconnects and workers, and a
held-back spectator stops where every other read stops. After the battle's last event the
stream ends (WebSocket close 1000; SSE `event: end`).
"""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Path, Query, Request, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse

from domain.engine.errors import RingsideError
from domain.engine.events import Viewer

from .auth import bearer
from .errors import STATUS_BY_CODE
from .routes.models import ERRORS
from .services import Services

router = APIRouter(tags=["streams"])
QUIET_SECONDS = 1.0          # re-read the store after this long without live news
HEARTBEAT_SECONDS = 15.0


class EventFeed:
    """The ordered, gap-free sequence of wire events one viewer may see, from `next_seq` on."""

    def __init__(self, services: Services, battle_id: str, viewer: Viewer, from_seq: int):
        self.services = services
        self.battle_id = battle_id
        self.viewer = viewer
        self.next_seq = from_seq
        self.last_seq: int | None = None        # the battle's final seq, once it has ended
        self.sub = services.live.subscribe(battle_id)

    async def catch_up(self) -> list[tuple[int, bytes]]:
        events, last = await run_in_threadpool(self._read)
        self.last_seq = last
        return self._take(events)

    def _read(self) -> tuple[list[dict[str, Any]], int | None]:
        sight = self.services.battles.reading.sight(self.battle_id, self.viewer)
        return sight.events(self.next_seq), sight.state.seq if sight.state.outcome is not None else None

    def _take(self, events: list[dict[str, Any]], encoded: list[bytes] | None = None) -> list[tuple[int, bytes]]:
        """The events due next, in order, as (seq, JSON bytes); already-sent seqs are dropped."""
        fresh = []
        for i, wire in enumerate(events):
            if wire["seq"] == self.next_seq:
                fresh.append((wire["seq"], encoded[i] if encoded is not None else orjson.dumps(wire)))
                self.next_seq += 1
        return fresh

    @property
    def done(self) -> bool:
        return self.last_seq is not None and self.next_seq > self.last_seq

    async def next_events(self, wait: float) -> list[tuple[int, bytes]]:
        """The next events in order; [] when nothing new arrived."""
        batch = await self.sub.next(wait)
        if batch is None:
            return await self.catch_up()
        if batch.last < self.next_seq:
            return []
        if batch.first > self.next_seq or not batch.live_for(self.viewer):
            return await self.catch_up()
        if batch.ended:
            self.last_seq = batch.last
        return self._take(batch.for_viewer(self.viewer), batch.bytes_for(self.viewer))

    def close(self) -> None:
        self.sub.close()


async def open_feed(services: Services, battle_id: str, token: str | None, from_seq: int) -> EventFeed:
    """The feed, once the battle is known to exist and the token to open it: a stream decides
    every refusal (404, 401, 403) before it starts, while it can still answer with an error."""
    sight = await run_in_threadpool(services.battles.reading.client_sight, battle_id, token)
    return EventFeed(services, battle_id, sight.viewer, from_seq)


async def follow(feed: EventFeed) -> AsyncIterator[list[tuple[int, bytes]] | None]:
    """Yield (seq, JSON bytes) lists in order until the battle's last event; None marks a
    quiet spell."""
    first = await feed.catch_up()
    if first:
        yield first
    while not feed.done:
        events = await feed.next_events(QUIET_SECONDS)
        yield events or None


@router.websocket("/battles/{battle_id}/stream")
async def websocket_stream(websocket: WebSocket, battle_id: str,
                           from_seq: int = Query(1, alias="from", ge=1, le=2**31), token: str | None = None) -> None:
    """Catch-up, then live; each message `{seq, type, data, chain}`. Close codes: 1000 after the
    battle's last event, 4401/4403/4404 for a missing, wrong or unknown battle or token."""
    services: Services = websocket.app.state.services
    try:
        feed = await open_feed(services, battle_id, token, from_seq)
    except RingsideError as exc:
        # Accept, then close with 4000 + the HTTP status, so browsers can read why.
        await websocket.accept()
        reason = exc.message.encode()[:120].decode(errors="ignore")     # a close reason holds 123 bytes
        await websocket.close(code=4000 + STATUS_BY_CODE.get(exc.code, 400), reason=reason)
        return
    await websocket.accept()
    sending = asyncio.create_task(_send_all(websocket, feed))
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


async def _send_all(websocket: WebSocket, feed: EventFeed) -> None:
    try:
        async for events in follow(feed):
            for _, message in events or ():
                await websocket.send_bytes(message)
        await websocket.close(code=1000, reason="the battle has ended")
    except WebSocketDisconnect:
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
                     token: str | None = None,
                     last_event_id: Annotated[str | None, Query(include_in_schema=False)] = None) -> StreamingResponse:
    """Server-Sent Events: `id` is the seq, so a reconnect with `Last-Event-ID` resumes."""
    services: Services = request.app.state.services
    resume = request.headers.get("last-event-id") or last_event_id
    if resume is not None and resume.isdigit():
        from_seq = max(from_seq, int(resume) + 1)
    feed = await open_feed(services, battle_id, bearer(request, token), from_seq)

    async def body() -> AsyncIterator[bytes]:
        quiet = 0.0
        try:
            async for events in follow(feed):
                if await request.is_disconnected():
                    return
                if not events:
                    quiet += QUIET_SECONDS
                    if quiet >= HEARTBEAT_SECONDS:
                        quiet = 0.0
                        yield b": keep-alive\n\n"
                    continue
                quiet = 0.0
                for seq, message in events:
                    yield b"id: %d\nevent: battle\ndata: %s\n\n" % (seq, message)
            yield b"event: end\ndata: {}\n\n"
        finally:
            feed.close()

    return StreamingResponse(body(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
