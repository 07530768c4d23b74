"""Battles: create, view, legal commands, commands, the event log, time travel, the replay.

A view is the read path's (domain/reading.py), clocks included as of its seq. Time travel
(`/at/{seq}`) is history alone, the very view a replay file gives at that seq. The battle's
view now also carries two things of the moment it is answered: the seats' `presence`
(projections/presence.py), and for a clocked battle `now_ms`, the server's time then, on the
clock that accepts commands. A client ticks a running clock down by the server's time,
`remaining_ms - (now_ms - at_ms)`, and then by its own time elapsed since the answer came, so
its own clock's offset from the server's never counts.
"""
from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query, Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from domain.battles import Battles
from domain.engine.battle import BattleState
from domain.engine.events import Viewer, wire_event
from domain.engine.ruleset import get_ruleset
from domain.engine.timing import clock_control
from domain.engine.wire import check_wire
from domain.reading import Sight
from replays import format as replay_format

from ..auth import bearer, require_admin_token
from ..bodies import JsonBodyRoute
from ..errors import ApiError
from ..json import json_response
from ..services import Services
from .models import (BATTLE_LINKS, ERRORS, LEGAL_LINKS, SUBMITTED_LINKS, CreateBattle, CreatedBattleOut, EventsOut,
                     LegalOut, SubmitCommand, SubmittedOut, ViewOut, with_delay)

router = APIRouter(tags=["battles"], route_class=JsonBodyRoute)
BattleId = Annotated[str, Path(max_length=64)]
ViewAs = Annotated[str | None, Query(alias="as", max_length=32, pattern="^[A-Za-z0-9_-]+$", description=(
    "View as `spectator`, a seat or `all` (omniscient). A seat token views only as its seat; without "
    "one, a seat or `all` is open once the battle has ended, unless it was private."))]
MAX_KEY = 200


def services_of(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


def sight_of(request: Request, battle_id: str, view_as: str | None = None) -> Sight:
    """The caller's look at the battle, through the one read path: its seat's with a bearer
    token, the spectator's without one, or `as` another viewer where that is open."""
    return services_of(request).battles.reading.client_sight(battle_id, bearer(request), view_as)


@router.post("/battles", status_code=201,
             responses={201: {"model": CreatedBattleOut, "links": BATTLE_LINKS}, **ERRORS})
async def create_battle(body: CreateBattle, request: Request) -> Response:
    """Create a battle; the answer holds one secret token per seat a person plays (only hashes
    are kept). A house seat gets none: the service plays it, and no token ever acts for it."""
    return await create(services_of(request), body, request.headers.get("authorization"))


async def create(services: Services, body: Any, authorization: str | None) -> Response:
    """A battle from a create body (`CreateBattle`, or its twin in api/fast.py): the route, and
    the fast path in front of it."""
    require_admin_token(services, authorization)
    setup = with_delay(body.setup, body.spectator_delay, get_ruleset(body.ruleset).fresh_setup())
    # Deciding the opening batch is pure CPU; only the commit is waited for, off the loop.
    made = await asyncio.wrap_future(services.battles.create_later(
        body.ruleset, dict(body.players), setup, seed_nonces=body.seed_nonces, private=body.private,
        clock=body.clock))
    return json_response({"battle_id": made.battle_id, "seat_tokens": made.seat_tokens,
                          "seed_commitment": made.seed_commitment, "seq": made.seq}, status=201)


@router.get("/battles/{battle_id}", responses={200: {"model": ViewOut}, **ERRORS})
def battle_view(battle_id: BattleId, request: Request, view_as: ViewAs = None) -> Response:
    """The view: a seat's with its bearer token, the spectator's without one; with the seats'
    presence and, for a clocked battle, its time control (`clock_spec`) and the server's time
    (`now_ms`)."""
    sight = sight_of(request, battle_id, view_as)
    view = sight.view()
    view["presence"] = request.app.state.presence.of(battle_id, sight.state.created.players)
    if "clock" in view:
        view["clock_spec"] = clock_control(sight.state.clock)
        view["now_ms"] = services_of(request).battles.now_ms()
    return json_response(view)


@router.get("/battles/{battle_id}/legal", responses={200: {"model": LegalOut, "links": LEGAL_LINKS}, **ERRORS})
async def legal_commands(battle_id: BattleId, request: Request) -> Response:
    return await legal_of(services_of(request).battles, battle_id, bearer(request))


async def legal_of(battles: Battles, battle_id: str, token: str | None) -> Response:
    """The seat's legal commands: the route, and the fast path in front of it (api/fast.py)."""
    if token is None:
        raise ApiError("unauthorized", "a seat token is required (Authorization: Bearer <token>)")
    # The latest state, from the cache once the writer has synced it with the log (no thread
    # hop, no store read); a battle not in the cache is loaded off the loop.
    state = await asyncio.wrap_future(battles.latest_later(battle_id))
    if state is None:
        return await run_in_threadpool(legal_answer, battles, battle_id, token, None)
    return legal_answer(battles, battle_id, token, state)


def legal_answer(battles: Battles, battle_id: str, token: str, state: BattleState | None) -> Response:
    state = state or battles.load(battle_id)
    seat = battles.reading.token_seat(battle_id, token, state)
    awaiting = sorted(battles.ruleset_of(state).awaiting(state.game)) if state.outcome is None else []
    return json_response({"battle_id": battle_id, "seat": seat, "seq": state.seq, "awaiting": awaiting,
                          "ended": state.outcome is not None,
                          "legal": battles.legal(battle_id, seat, state) if seat in awaiting else []})


@router.post("/battles/{battle_id}/commands",
             responses={200: {"model": SubmittedOut, "links": SUBMITTED_LINKS}, **ERRORS})
async def submit_command(battle_id: BattleId, body: SubmitCommand, request: Request,
                         idempotency_key: Annotated[str | None, Header()] = None) -> Response:
    """Act for the token's seat. `expected_seq` refuses a stale client (409); a repeated
    `Idempotency-Key` returns the first answer and appends nothing."""
    return await submit(services_of(request).battles, battle_id, body.command, body.expected_seq,
                        bearer(request), idempotency_key)


async def submit(battles: Battles, battle_id: str, command: dict[str, Any], expected_seq: int | None,
                 token: str | None, idempotency_key: str | None) -> Response:
    """A command for the token's seat: the route, and the fast path in front of it (api/fast.py)."""
    if token is None:
        raise ApiError("unauthorized", "a seat token is required (Authorization: Bearer <token>)")
    if idempotency_key is not None:
        if not 0 < len(idempotency_key) <= MAX_KEY:
            raise ApiError("bad_request", f"Idempotency-Key must be 1 to {MAX_KEY} characters",
                           field="Idempotency-Key", max_length=MAX_KEY)
        check_wire(idempotency_key, "Idempotency-Key")
    # The event loop never waits on the store: the group-commit writer decides, saves and
    # answers; this coroutine resumes once the batch has committed.
    submitted = battles.submit_later(battle_id, command, token=token, expected_seq=expected_seq,
                                     idempotency_key=idempotency_key)
    done = await asyncio.wrap_future(submitted)
    viewer = Viewer(seat=done.seat)
    return json_response({"seq": done.seq, "events": [wire_event(r, viewer, done.public) for r in done.records]})


@router.get("/battles/{battle_id}/events", responses={200: {"model": EventsOut}, **ERRORS})
def battle_events(battle_id: BattleId, request: Request,
                  from_seq: Annotated[int, Query(alias="from", ge=1, le=2**31)] = 1,
                  view_as: ViewAs = None) -> Response:
    events = sight_of(request, battle_id, view_as).events(from_seq)
    return json_response({"battle_id": battle_id, "events": events})


@router.get("/battles/{battle_id}/at/{seq}", responses={200: {"model": ViewOut}, **ERRORS})
def battle_at(battle_id: BattleId, seq: Annotated[int, Path(ge=1, le=2**31)], request: Request,
              view_as: ViewAs = None) -> Response:
    """Time travel: the view as it was right after event `seq`, clocks included."""
    return json_response(sight_of(request, battle_id, view_as).view(at=seq))


@router.get("/battles/{battle_id}/replay", responses={200: {"content": {"application/x-ndjson": {}}}, **ERRORS})
def battle_replay(battle_id: BattleId, request: Request) -> Response:
    """The replay file: full once the battle has ended, redacted for the caller before."""
    replay = sight_of(request, battle_id).replay()
    return Response(replay_format.dumps(replay), media_type="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{battle_id}.jsonl"'})
