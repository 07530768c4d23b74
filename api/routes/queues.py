"""Queues and tickets: join a queue with a player token, follow the ticket to its battle."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Path, Request
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response, StreamingResponse

from ..auth import bearer
from ..bodies import JsonBodyRoute
from ..json import json_response
from .battles import services_of
from .models import ERRORS, Strict

router = APIRouter(tags=["queues"], route_class=JsonBodyRoute)
QueueId = Annotated[str, Path(max_length=64)]
TicketId = Annotated[str, Path(max_length=64)]
FOLLOW_SECONDS = 0.25       # how often a followed ticket is read again
KEEPALIVE_SECONDS = 15.0    # an SSE comment this often, so proxies keep a quiet stream open


class OpenTicket(Strict):
    setup: dict[str, Any] | None = None     # the player's own part (a deck, a team); the ruleset checks it


class TicketOut(BaseModel):
    ticket: str
    queue: str
    player: str
    status: str                 # waiting | paired | cancelled
    battle_id: str | None = None
    seat: str | None = None
    seat_token: str | None = None       # once paired, to the ticket's owner only


@router.get("/queues", responses=ERRORS)
def list_queues(request: Request) -> Response:
    """Every queue: its ruleset, clock, seats, wave timing, and how many tickets wait."""
    return json_response({"queues": services_of(request).queues.listing()})


@router.post("/queues/{queue_id}/tickets", status_code=201, responses={201: {"model": TicketOut}, **ERRORS})
def open_ticket(queue_id: QueueId, request: Request, body: OpenTicket | None = None) -> Response:
    """Join the queue as the player whose token is the bearer (POST /players gives one). One
    ticket per player per queue; the battle's seat token comes with the ticket once paired."""
    made = services_of(request).queues.open(queue_id, bearer(request), body.setup if body else None)
    return json_response(made, status=201)


@router.get("/tickets/{ticket_id}", responses={200: {"model": TicketOut}, **ERRORS})
def ticket(ticket_id: TicketId, request: Request) -> Response:
    return json_response(services_of(request).queues.ticket(ticket_id, bearer(request)))


@router.delete("/tickets/{ticket_id}", responses={200: {"model": TicketOut}, **ERRORS})
def cancel_ticket(ticket_id: TicketId, request: Request) -> Response:
    return json_response(services_of(request).queues.cancel(ticket_id, bearer(request)))


@router.get("/tickets/{ticket_id}/stream.sse", responses={200: {"content": {"text/event-stream": {}}}, **ERRORS})
async def follow_ticket(ticket_id: TicketId, request: Request, token: str | None = None) -> StreamingResponse:
    """The ticket as Server-Sent Events (`event: ticket`): now, then once more when it is
    paired or cancelled, and the stream ends. `token` may stand in for the Authorization
    header (an EventSource cannot set one)."""
    queues = services_of(request).queues
    token = bearer(request, token)
    read = await run_in_threadpool(queues.follow, ticket_id, token)       # refusals answer before streaming
    first = await run_in_threadpool(read)

    async def body() -> AsyncIterator[bytes]:
        shown, quiet = first, 0.0
        yield b"event: ticket\ndata: %s\n\n" % orjson.dumps(shown)
        while shown["status"] == "waiting":
            await asyncio.sleep(FOLLOW_SECONDS)
            if await request.is_disconnected():
                return
            now = await run_in_threadpool(read)
            if now["status"] != "waiting":
                yield b"event: ticket\ndata: %s\n\n" % orjson.dumps(now)
                return
            quiet += FOLLOW_SECONDS
            if quiet >= KEEPALIVE_SECONDS:
                quiet = 0.0
                yield b": waiting\n\n"

    return StreamingResponse(body(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
