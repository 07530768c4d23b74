"""Every error a client can cause becomes JSON `{error: {code, message, details}}` with the
right status. Nothing a client sends reaches a 500."""
from __future__ import annotations

import logging
from collections.abc import Mapping
from itertools import islice
from typing import Any

import orjson
from eventsourcing.persistence import PersistenceError
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from domain.engine.errors import InvalidInput, RingsideError, clip
from domain.engine.wire import INT_MAX, INT_MIN

log = logging.getLogger(__name__)
MAX_DETAIL = 200        # characters of any one string in `details`
MAX_ITEMS = 20          # items of any one list or object in `details`

STATUS_BY_CODE = {
    "rule_violation": 400, "bad_request": 400,
    "unauthorized": 401,
    "forbidden": 403, "not_your_turn": 403,
    "not_found": 404, "unknown_ruleset": 404, "seq_out_of_range": 404,
    "stale": 409, "idempotency_conflict": 409, "battle_over": 409, "time_out": 409, "player_taken": 409,
    "ticket_exists": 409,
    "bad_setup": 422, "bad_replay": 422, "unknown_policy": 422, "resolve_depth": 422, "invalid": 422,
    "ruleset_not_installed": 422,
    "payload_too_large": 413,
    "unavailable": 503,
}


class ApiError(RingsideError):
    """An HTTP-level refusal (a missing or wrong token, a bad header)."""

    def __init__(self, code: str, message: str, **details: object):
        super().__init__(message, **details)
        self.code = code


class BodyTooLarge(StarletteHTTPException):
    """A request body past its limit. An HTTPException, so FastAPI lets it through from the
    body reader to the handler below instead of calling it a parse error."""

    def __init__(self, limit: int):
        super().__init__(413, too_large_message(limit))
        self.limit = limit


class BodyTooDeep(StarletteHTTPException):
    """A JSON body nested past the limit (api/bodies.py). An HTTPException for the same reason
    as `BodyTooLarge`; it answers as the engine's own refusal of a value nested too deep."""

    def __init__(self, limit: int):
        self.refusal = InvalidInput("body", f"is nested more than {limit} levels deep", max_depth=limit)
        super().__init__(422, self.refusal.message)


def too_large_message(limit: int) -> str:
    return f"the request body is larger than the limit of {limit} bytes"


def too_large_response(limit: int) -> Response:
    return error_response(413, "payload_too_large", too_large_message(limit), {"limit": limit})


def error_response(status: int, code: str, message: str, details: Any = None) -> Response:
    """The JSON error. The message and every detail are capped, whatever raised them."""
    body = {"error": {"code": code, "message": clip(message), "details": short_json(details or {})}}
    return Response(orjson.dumps(body, default=str), status_code=status, media_type="application/json")


def short_json(value: Any, depth: int = 0) -> Any:
    """`value` with strings clipped, containers cut to their first items and no integer past
    64 bits: details echo what a client sent, and a client may send a lot."""
    if isinstance(value, str):
        return clip(value, MAX_DETAIL)
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return value
    if isinstance(value, int):
        return value if INT_MIN <= value <= INT_MAX else clip(str(value), MAX_DETAIL)
    if depth >= 4:
        return clip(str(value), MAX_DETAIL)
    if isinstance(value, Mapping):
        return {clip(str(k), MAX_DETAIL): short_json(v, depth + 1) for k, v in islice(value.items(), MAX_ITEMS)}
    if isinstance(value, (list, tuple)):
        return [short_json(v, depth + 1) for v in value[:MAX_ITEMS]]
    return clip(str(value), MAX_DETAIL)


def ringside_response(exc: RingsideError) -> Response:
    return error_response(STATUS_BY_CODE.get(exc.code, 400), exc.code, exc.message, exc.details)


def store_down_response(exc: PersistenceError) -> Response:
    log.warning("event store error: %s", exc)
    return error_response(503, "unavailable", "the event store is unavailable; retry")


def bug_response(method: str, path: str) -> Response:
    """For an exception nothing else handles (logged here, with its traceback)."""
    log.exception("unhandled error on %s %s", method, path)
    return error_response(500, "internal", "internal error")


def install(app: FastAPI) -> None:
    @app.exception_handler(RingsideError)
    async def ringside_error(request: Request, exc: RingsideError) -> Response:
        return ringside_response(exc)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        found = exc.errors()[:MAX_ITEMS]
        errors = [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
                  for e in found]
        where = field_of(list(found[0].get("loc", ())) if found else [])
        msg = str(found[0].get("msg", "")) if found else "invalid request"
        return error_response(422, "invalid", f"{where}: {msg}" if where else msg,
                              {"field": where, "errors": errors})

    @app.exception_handler(BodyTooLarge)
    async def too_large(request: Request, exc: BodyTooLarge) -> Response:
        return too_large_response(exc.limit)

    @app.exception_handler(BodyTooDeep)
    async def too_deep(request: Request, exc: BodyTooDeep) -> Response:
        return ringside_response(exc.refusal)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed", 401: "unauthorized", 403: "forbidden",
                413: "payload_too_large"}.get(exc.status_code, "http_error")
        return error_response(exc.status_code, code, str(exc.detail))

    @app.exception_handler(PersistenceError)
    async def store_down(request: Request, exc: PersistenceError) -> Response:
        return store_down_response(exc)

    @app.exception_handler(Exception)
    async def server_bug(request: Request, exc: Exception) -> Response:
        return bug_response(request.method, request.url.path)


def field_of(loc: list[Any]) -> str:
    """`players.p1` from pydantic's `["body", "players", "p1"]`; a header or query keeps its place."""
    parts = [str(part) for part in (loc[1:] if loc[:1] == ["body"] else loc)]
    return ".".join(parts)
