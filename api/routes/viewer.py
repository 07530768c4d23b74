"""The replay viewer: its static page and the few reads it needs beyond the battle routes.

- `GET /viewer/` (the battle list), `GET /viewer/battles/{id}`, and the tournament, set and
  player pages (`GET /viewer/tournaments/{id}`, `/viewer/sets/{id}`, `/viewer/players/{id}`)
  serve the one page, which reads everything it shows from the API;
  `GET /viewer/assets/{name}` its scripts and style, `GET /viewer/assets/games/{name}` each
  game's own (loaded by the ruleset's id). No build step, nothing external.
- `GET /`, the address a fresh server is opened at, sends people to the battle list, which
  links the API docs.
- `GET /viewer/api/battles/{id}/timeline` tells the page who it may view as and where the
  battle's actions and turns begin, so it can step by them whatever the ruleset.
- `POST /replays/at` and `POST /replays/timeline` do the same for a replay file dropped on
  the page: the file is the body, folded under the ruleset it pins.
"""
from __future__ import annotations

import re
from pathlib import Path as FilePath
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import RedirectResponse, Response

from domain.access import perspectives
from domain.engine.battle import BattleState
from domain.engine.errors import quote
from domain.engine.events import Viewer
from replays import seek

from ..auth import bearer
from ..errors import ApiError
from ..json import json_response
from .battles import BattleId, ViewAs, sight_of
from .models import ERRORS, TimelineOut, ViewOut
from .replays import received

router = APIRouter(tags=["viewer"])
ASSETS = FilePath(seek.__file__).resolve().parent / "viewer"
ASSET_NAME = re.compile(r"^(games/)?[a-z0-9_-]+\.(js|css)$")
# The assets are the files there (and in games/) when the app starts: a requested name is
# looked up here and never reaches the file system, which fails on some names (one of 300
# characters) by itself.
SERVED = frozenset(name for name in (path.relative_to(ASSETS).as_posix() for path in ASSETS.glob("**/*"))
                   if ASSET_NAME.match(name))
MEDIA_TYPES = {"js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"}
# The page loads only its own files and talks only to this server (HTTP and WebSocket).
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
}
PageId = Annotated[str, Path(max_length=64)]     # the page only: the API checks the id itself
REPLAY_BODY = {"requestBody": {"required": True, "content": {
    "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}}}


def page() -> Response:
    return Response((ASSETS / "index.html").read_bytes(), media_type="text/html; charset=utf-8",
                    headers=PAGE_HEADERS)


@router.get("/", include_in_schema=False)
def root() -> RedirectResponse:
    """Not an API operation, so kept out of the schema (and the API fuzzing built on it)."""
    return RedirectResponse("/viewer/", status_code=307)


@router.get("/viewer/", include_in_schema=False)
def viewer_home() -> Response:
    """The battle list (live and ended), and a drop zone for replay files."""
    return page()


@router.get("/viewer/battles/{battle_id}", include_in_schema=False)
def viewer_battle(battle_id: BattleId) -> Response:
    """One battle; the page reads it through the API (a seat token travels in the URL's #fragment)."""
    return page()


@router.get("/viewer/tournaments/{tournament_id}", include_in_schema=False)
def viewer_tournament(tournament_id: PageId) -> Response:
    """One tournament: its standings, and its rounds as round blocks or a bracket."""
    return page()


@router.get("/viewer/sets/{set_id}", include_in_schema=False)
def viewer_set(set_id: PageId) -> Response:
    """One set: its players, score, winner and battles."""
    return page()


@router.get("/viewer/players/{player_id}", include_in_schema=False)
def viewer_player(player_id: PageId) -> Response:
    """One player: its ratings and the battles and sets it played."""
    return page()


@router.get("/viewer/assets/{name:path}", include_in_schema=False)
def viewer_asset(name: str) -> Response:
    if name not in SERVED:
        raise ApiError("not_found", f"no viewer asset {quote(name)}", name=name)
    return Response((ASSETS / name).read_bytes(), media_type=MEDIA_TYPES[name.rsplit(".", 1)[1]],
                    headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})


@router.get("/viewer/api/battles/{battle_id}/timeline", responses={200: {"model": TimelineOut}, **ERRORS})
def battle_timeline(battle_id: BattleId, request: Request, view_as: ViewAs = None) -> Response:
    """Whom the caller may view as, the last seq it may see, and where actions and turns begin."""
    sight = sight_of(request, battle_id, view_as)
    own = sight.viewer.seat if bearer(request) is not None else None      # a token views only as its seat
    marks = request.app.state.timelines.marks(sight)
    return json_response({**summary(sight.state, sight.horizon, own), **marks})


def summary(state: BattleState, limit: int, own_seat: str | None) -> dict[str, Any]:
    """The battle's identity, the last seq shown (`limit`) and the perspectives open to a caller
    holding `own_seat`'s token."""
    return {"battle_id": state.battle_id, "ruleset": state.created.ruleset, "players": state.created.players,
            "seats": list(state.created.players), "seq": limit, "ended": state.outcome is not None,
            "public": state.public, "seat": own_seat, "perspectives": perspectives(state, own_seat)}


@router.post("/replays/at", openapi_extra=REPLAY_BODY,
             responses={200: {"model": ViewOut}, 413: {"description": "too large"}, **ERRORS})
async def replay_at(request: Request, seq: Annotated[int | None, Query(ge=1, le=2**31)] = None,
                    view_as: ViewAs = None) -> Response:
    """The view right after event `seq` (default: the last) of the uploaded replay (JSONL or
    gzip), as `as` would see it: the page's seek for a dropped file. 422 for a file that cannot
    be played back or pins a ruleset version that is not installed, 404 for a seq past its end."""
    replay = await received(request)
    viewer = Viewer.parse(view_as or "spectator")
    return json_response(await run_in_threadpool(seek.view_at, replay, seq, viewer))


@router.post("/replays/timeline", openapi_extra=REPLAY_BODY,
             responses={200: {"model": TimelineOut}, 413: {"description": "too large"}, **ERRORS})
async def replay_timeline(request: Request) -> Response:
    """The uploaded replay's battle, its perspectives, and where its actions and turns begin."""
    replay = await received(request)
    line = await run_in_threadpool(seek.timeline, replay)
    assert line.state is not None
    return json_response({**summary(line.state, line.seq, None), **line.marks(line.seq)})
