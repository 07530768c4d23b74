"""Registered players: an id and the player token that queues and tournaments take."""
from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel
from starlette.responses import Response

from ..auth import require_admin
from ..bodies import JsonBodyRoute
from ..json import json_response
from .battles import services_of
from .models import ERRORS, Strict

router = APIRouter(tags=["players"], route_class=JsonBodyRoute)


class RegisterPlayer(Strict):
    player_id: object       # checked by domain.players, so a bad id is a 422 naming `player_id`


class RegisteredOut(BaseModel):
    player_id: str
    player_token: str       # shown once; only its hash is kept


@router.post("/players", status_code=201, responses={201: {"model": RegisteredOut}, **ERRORS})
def register_player(body: RegisterPlayer, request: Request) -> Response:
    """Register a player id and get its player token. The id is kept case-folded (NFKC): a
    look-alike of a registered id is refused with 409 `player_taken`. With
    RINGSIDE_ADMIN_TOKEN set, only the game server (bearing it) registers players."""
    services = services_of(request)
    require_admin(request, services)
    made = services.players.register(body.player_id)
    return json_response({"player_id": made.player_id, "player_token": made.player_token}, status=201)
