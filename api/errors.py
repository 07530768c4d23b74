"""Every error a client can cause becomes JSON `{error: {code, message, details}}` with the
right status. Nothing a client sends reaches a 500."""
from __future__ import annotations

import logging
from typing import Any

import orjson
from eventsourcing.persistence import PersistenceError
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from domain.engine.errors import RingsideError

log = logging.getLogger(__name__)

STATUS_BY_CODE = {
    "rule_violation": 400, "bad_request": 400,
    "unauthorized": 401,
    "forbidden": 403, "not_your_turn": 403,
    "not_found": 404, "unknown_ruleset": 404, "seq_out_of_range": 404,
    "stale": 409, "idempotency_conflict": 409, "battle_over": 409,
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


def error_response(status: int, code: str, message: str, details: Any = None) -> Response:
    body = {"error": {"code": code, "message": message, "details": details or {}}}
    return Response(orjson.dumps(body, default=str), status_code=status, media_type="application/json")


def install(app: FastAPI) -> None:
    @app.exception_handler(RingsideError)
    async def ringside_error(request: Request, exc: RingsideError) -> Response:
        return error_response(STATUS_BY_CODE.get(exc.code, 400), exc.code, exc.message, exc.details)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        errors = [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
                  for e in exc.errors()]
        first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
        where = ".".join(str(part) for part in first["loc"])
        return error_response(422, "invalid", f"{where}: {first['msg']}" if where else first["msg"],
                              {"errors": errors})

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed", 401: "unauthorized", 403: "forbidden"}.get(
            exc.status_code, "http_error")
        return error_response(exc.status_code, code, str(exc.detail))

    @app.exception_handler(PersistenceError)
    async def store_down(request: Request, exc: PersistenceError) -> Response:
        log.warning("event store error: %s", exc)
        return error_response(503, "unavailable", "the event store is unavailable; retry")

    @app.exception_handler(Exception)
    async def server_bug(request: Request, exc: Exception) -> Response:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return error_response(500, "internal", "internal error")
