"""Who is asking: a seat (by its bearer token), a spectator (no token), or the admin; and whom
they may view as."""
from __future__ import annotations

import hmac

from fastapi import Request

from domain.engine.events import Viewer

from .errors import ApiError
from .services import Services


def bearer(request: Request, query_token: str | None = None) -> str | None:
    """The token from `Authorization: Bearer <token>` (or a `token` query parameter)."""
    header = request.headers.get("authorization")
    if header:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError("unauthorized", "Authorization must be 'Bearer <token>'")
        return token.strip()
    return query_token or None


def seat_of(services: Services, battle_id: str, token: str | None) -> str:
    """The seat a token acts for; 401 without a token, 403 with one that opens no seat."""
    if token is None:
        raise ApiError("unauthorized", "a seat token is required (Authorization: Bearer <token>)")
    seat = services.battles.seat_for_token(battle_id, token)
    if seat is None:
        raise ApiError("forbidden", "this token is not a seat token of this battle")
    return seat


def viewer_of(services: Services, battle_id: str, token: str | None, view_as: str | None = None) -> Viewer:
    """A seat's viewer with a valid token, the spectator without one; 403 for a wrong token.

    `view_as` (the `as` query: a seat, `spectator` or `all`) picks another viewer. A token
    only ever views as its own seat. Without a token, a seat's or the omniscient view is
    open only once the battle is public (ended and not private): until then it would show
    that seat's secrets to anyone."""
    if token is not None:
        seat = seat_of(services, battle_id, token)
        if view_as is not None and view_as != seat:
            raise ApiError("forbidden", f"this token is the {seat} seat's; it can only view as {seat}",
                           seat=seat, view_as=view_as)
        return Viewer(seat=seat)
    if view_as is None or view_as == "spectator":
        return Viewer()
    state = services.battles.load(battle_id)
    viewer = Viewer.parse(view_as, state.created.players)
    if not state.public:
        raise ApiError("forbidden", f"viewing as {view_as} without its seat token is open only once the battle "
                       "has ended (and was not private)", view_as=view_as)
    return viewer


def require_admin(request: Request, services: Services) -> None:
    """Creating battles and sets needs the admin token when RINGSIDE_ADMIN_TOKEN is set."""
    expected = services.settings.admin_token
    if expected is None:
        return
    token = bearer(request)
    if token is None:
        raise ApiError("unauthorized", "the admin token is required (Authorization: Bearer <token>)")
    if not hmac.compare_digest(token.encode(), expected.encode()):
        raise ApiError("forbidden", "wrong admin token")
