"""Who is asking: a seat (by its bearer token), a spectator (no token), or the admin. Whom they
may view as is the read path's to decide (domain/reading.py)."""
from __future__ import annotations

import hmac

from fastapi import Request

from .errors import ApiError
from .services import Services


def bearer(request: Request, query_token: str | None = None) -> str | None:
    """The token from `Authorization: Bearer <token>` (or a `token` query parameter)."""
    return bearer_of(request.headers.get("authorization"), query_token)


def bearer_of(header: str | None, query_token: str | None = None) -> str | None:
    """`bearer`, given the Authorization header's value."""
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
    return services.battles.reading.token_seat(battle_id, token)


def require_admin(request: Request, services: Services) -> None:
    """Creating battles and sets needs the admin token when RINGSIDE_ADMIN_TOKEN is set."""
    require_admin_token(services, request.headers.get("authorization"))


def require_admin_token(services: Services, authorization: str | None) -> None:
    """`require_admin`, given the Authorization header's value."""
    expected = services.settings.admin_token
    if expected is None:
        return
    token = bearer_of(authorization)
    if token is None:
        raise ApiError("unauthorized", "the admin token is required (Authorization: Bearer <token>)")
    if not hmac.compare_digest(token.encode(), expected.encode()):
        raise ApiError("forbidden", "wrong admin token")
