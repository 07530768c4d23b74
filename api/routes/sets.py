"""Competitive sets: create one, follow it, audit it."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel
from starlette.responses import Response

from domain.engine.ruleset import get_ruleset
from replays.audit import audit_set

from ..auth import require_admin
from ..bodies import JsonBodyRoute
from ..json import json_response
from .models import ERRORS, SET_LINKS, CreatedSetOut, CreateSet

router = APIRouter(tags=["sets"], route_class=JsonBodyRoute)
SetId = Annotated[str, Path(max_length=64)]


class SetOut(BaseModel):
    set_id: str
    ruleset: str
    players: dict[str, str | dict[str, str | int]]      # a player id per seat, or {"bot": policy} for a house seat
    games: int
    mode: str
    clock: dict[str, Any] | None                  # the clock every battle runs (its fields); null for none
    battles: list[dict[str, Any]]                 # each with its head hash once that battle is public
    score: dict[str, int]                         # wins per side
    winner: str | None
    finished: bool
    current_battle: str | None
    head: str | None                              # the set's head hash, once the set is public


@router.post("/sets", status_code=201, responses={201: {"model": CreatedSetOut, "links": SET_LINKS}, **ERRORS})
def create_set(body: CreateSet, request: Request) -> Response:
    """A set of `games` battles (`mode` best_of stops at a majority); its seat tokens (one per
    seat a person plays, none for a house seat) act in every battle of the set, each started as
    the one before it ends. With a `clock` (as `POST /battles` takes it) every battle runs it:
    a seat that never makes its first move loses that battle, and a timeout loses it
    (`forfeit`) or has the rules play on (`auto`)."""
    services = request.app.state.services
    require_admin(request, services)
    setup = body.full_setup(get_ruleset(body.ruleset).fresh_setup())
    made = services.sets.create(body.ruleset, body.player_entries(), setup, games=body.games, mode=body.mode,
                                seed_nonces=body.seed_nonces, private=body.private, clock=body.clock)
    return json_response({"set_id": made.set_id, "battle_id": made.battle_id, "seat_tokens": made.seat_tokens,
                          "seed_commitment": made.seed_commitment}, status=201)


@router.get("/sets/{set_id}", responses={200: {"model": SetOut}, **ERRORS})
def get_set(set_id: SetId, request: Request) -> Response:
    """The set: its battles, score per side and result. A battle's `head` is shown once the
    battle is public (ended, in a set that is not private), the set's once the set is: each
    hash commits to the hidden moves before it. A set whose battle has ended without the set
    recording it (the write failed) records it now, before answering."""
    return json_response(request.app.state.services.sets.get(set_id))


@router.get("/sets/{set_id}/audit", responses=ERRORS)
def get_set_audit(set_id: SetId, request: Request) -> Response:
    """Verify every battle, then the set's results, carry-over and hash chain. A battle's `head`
    is shown once it is public, and `digest` (the set's head hash, which names it all) once the
    set has ended and is not private; the battle in progress is `in_progress`, with no head."""
    services = request.app.state.services
    return json_response(audit_set(services.battles, services.sets, set_id))
