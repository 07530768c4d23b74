"""Tournaments: their rounds, sets and standings, and their audit."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from pydantic import Field
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from domain.tournaments.service import UnknownTournament, entrant_token, page_of
from replays.tournament_audit import audit_tournament

from ..auth import bearer, require_admin
from ..bodies import JsonBodyRoute
from ..json import json_response
from .battles import services_of
from .models import ERRORS, Clock, Strict

router = APIRouter(tags=["tournaments"], route_class=JsonBodyRoute)
TournamentId = Annotated[str, Path(max_length=64)]


class CreateTournament(Strict):
    ruleset: str = Field(max_length=64)
    format: str = Field(max_length=16)          # swiss | elimination
    rounds: int | None = Field(None, ge=-(2 ** 63), le=2 ** 63 - 1)     # checked by the domain: a 422 naming it
    games: int = Field(1, ge=-(2 ** 63), le=2 ** 63 - 1)
    mode: str = Field("best_of", pattern="^(best_of|all)$")
    clock: Clock = None
    name: str = Field("", max_length=100)


class Enter(Strict):
    bot: str | None = Field(None, max_length=64)    # a house entrant (admin); else the bearer's player token


@router.post("/tournaments", status_code=201, responses=ERRORS)
def create_tournament(body: CreateTournament, request: Request) -> Response:
    """A tournament, open for entrants until it starts (the admin token, when one is set)."""
    services = services_of(request)
    require_admin(request, services)
    made = services.tournaments.create(
        body.ruleset, body.format, rounds=body.rounds, games=body.games, mode=body.mode, clock=body.clock,
        name=body.name)
    return json_response({"tournament_id": made.tournament_id}, status=201)


@router.post("/tournaments/{tournament_id}/entrants", status_code=201, responses=ERRORS)
def enter_tournament(tournament_id: TournamentId, request: Request, body: Enter | None = None) -> Response:
    """Join as the registered player whose token is the bearer: the answer's `entrant_token` acts
    for you in every set of the tournament. With `{"bot": policy}` (and the admin token, when
    one is set) a house entrant joins instead."""
    services = services_of(request)
    if body is not None and body.bot is not None:
        require_admin(request, services)
        return json_response({"tournament_id": tournament_id,
                              "player": services.tournaments.enter_house(tournament_id, body.bot)}, status=201)
    token = bearer(request)
    player = services.players.player_of(token)
    assert token is not None
    return json_response(services.tournaments.enter(tournament_id, player, token), status=201)


@router.post("/tournaments/{tournament_id}/start", responses=ERRORS)
def start_tournament(tournament_id: TournamentId, request: Request) -> Response:
    """Pair round 1 and open its sets (the admin token, when one is set); the server moves each
    round on as its sets end."""
    services = services_of(request)
    require_admin(request, services)
    return json_response(page_of(services.tournaments.start(tournament_id)))


@router.get("/tournaments", responses=ERRORS)
def tournaments(request: Request, limit: Annotated[int, Query(ge=1, le=1000)] = 50) -> Response:
    """Tournaments, newest first (from the views): name, ruleset, format, entrants, champion."""
    store = services_of(request).views
    index = store.hgetall(store.key("history", "tournaments"))
    newest = store.ztop(store.key("history", "tournaments-order"), limit)
    return json_response({"tournaments": [index[tid] for tid, _ in newest if tid in index]})


@router.get("/tournaments/{tournament_id}/me", responses=ERRORS)
def my_pairing(tournament_id: TournamentId, request: Request) -> Response:
    """The bearer's place in the round in play: its set, the battle in progress, its seat and
    its entrant token; `set_id` null between rounds or for a bye."""
    services = services_of(request)
    token = bearer(request)
    player = services.players.player_of(token)
    assert token is not None
    state = services.tournaments.load(tournament_id)
    if all(e.id != player for e in state.entrants):
        raise UnknownTournament(f"{player} has not entered tournament {tournament_id}", tournament_id=tournament_id)
    shown: dict[str, Any] = {"tournament_id": state.tournament_id, "player": player, "round": None,
                             "set_id": None, "battle_id": None, "seat": None,
                             "entrant_token": entrant_token(token, state.tournament_id)}
    current = state.current
    if current is None:
        return json_response(shown)
    for pairing in current.pairings:
        if player in (pairing.a, pairing.b):
            set_id = ([pairing.set_id] + list(state.tiebreaks.get(pairing.a, ())))[-1] if pairing.set_id else None
            playing = services.sets.load(set_id).in_progress if set_id else None
            shown.update(round=current.round, set_id=set_id, seat="p1" if player == pairing.a else "p2",
                         battle_id=playing.battle_id if playing is not None else None)
    return json_response(shown)


@router.get("/tournaments/{tournament_id}", responses=ERRORS)
def tournament(tournament_id: TournamentId, request: Request) -> Response:
    """Entrants, each round's pairings (each a set: `/sets/{set_id}`) and results, the
    standings so far, and once it has ended the champion and the head hash."""
    services = services_of(request)
    return json_response(services.tournaments.page(tournament_id))


@router.get("/tournaments/{tournament_id}/audit", responses=ERRORS)
async def tournament_audit(tournament_id: TournamentId, request: Request) -> Response:
    """Every round's pairings, every result (from its sets' own audits) and the standings,
    re-derived from the log; `digest` once it has ended."""
    services = services_of(request)
    return json_response(await run_in_threadpool(audit_tournament, services.battles, services.sets, tournament_id))
