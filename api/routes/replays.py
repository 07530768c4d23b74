"""Audit an uploaded replay file (JSON Lines, or gzip of it)."""
from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from replays.format import Inflater, Replay, parse
from replays.verify import verify

from ..json import json_response
from .models import ERRORS

router = APIRouter(tags=["replays"])
MAX_REPLAY_BYTES = 64 * 1024 * 1024     # an upload as sent (gzip or not); api/app.py enforces it


@router.post("/replays/verify", openapi_extra={"requestBody": {
    "required": True, "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}}},
    responses={200: {"description": "the verify report"}, **ERRORS})
async def verify_replay(request: Request) -> Response:
    """The verify report: `status` ok, fail (with the first bad `seq` and a `reason`) or
    unverifiable (the pinned ruleset version is not installed). The upload may be at most
    64 MiB as sent, and at most 64 MiB of JSON Lines once inflated (413 past either)."""
    replay = await received(request)
    report = await run_in_threadpool(verify, replay)
    return json_response(report.as_json())


async def received(request: Request) -> Replay:
    """The uploaded replay, inflated as its bytes arrive (the app's body limit counts them),
    then read off the event loop: up to 64 MiB of JSON Lines."""
    inflater = Inflater("upload")
    async for chunk in request.stream():
        inflater.feed(chunk)
    return await run_in_threadpool(parse, inflater.finish(), "upload")
