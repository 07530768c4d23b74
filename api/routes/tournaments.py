"""Tournaments: their rounds, sets and standings, and their audit."""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from domain.tournaments.service import Tournaments
from replays.tournament_audit import audit_tournament

from ..bodies import JsonBodyRoute
from ..json import json_response
from .battles import services_of
from .models import ERRORS

router = APIRouter(tags=["tournaments"], route_class=JsonBodyRoute)
TournamentId = Annotated[str, Path(max_length=64)]


@router.get("/tournaments/{tournament_id}", responses=ERRORS)
def tournament(tournament_id: TournamentId, request: Request) -> Response:
    """Entrants, each round's pairings (each a set: `/sets/{set_id}`) and results, the
    standings so far, and once it has ended the champion and the head hash."""
    services = services_of(request)
    return json_response(Tournaments(services.battles, services.sets).page(tournament_id))


@router.get("/tournaments/{tournament_id}/audit", responses=ERRORS)
async def tournament_audit(tournament_id: TournamentId, request: Request) -> Response:
    """Every round's pairings, every result (from its sets' own audits) and the standings,
    re-derived from the log; `digest` once it has ended."""
    services = services_of(request)
    return json_response(await run_in_threadpool(audit_tournament, services.battles, services.sets, tournament_id))
