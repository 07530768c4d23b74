"""Audit an uploaded replay file (JSON Lines, or gzip of it)."""
from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from replays.format import loads
from replays.verify import verify

from ..errors import ApiError
from ..json import json_response

router = APIRouter(tags=["replays"])
MAX_REPLAY_BYTES = 64 * 1024 * 1024


@router.post("/replays/verify", openapi_extra={"requestBody": {
    "required": True, "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}}},
    responses={200: {"description": "the verify report"}, 413: {"description": "too large"},
               422: {"description": "not a replay file"}})
async def verify_replay(request: Request) -> Response:
    """The verify report: `status` ok, fail (with the first bad `seq` and a `reason`) or
    unverifiable (the pinned ruleset version is not installed)."""
    body = await request.body()
    if len(body) > MAX_REPLAY_BYTES:
        raise ApiError("payload_too_large", f"a replay may be at most {MAX_REPLAY_BYTES} bytes")
    replay = loads(body, "upload")
    report = await run_in_threadpool(verify, replay)
    return json_response(report.as_json())
