"""Read models: the battle index, a seat's AI memory, leaderboards, player pages."""
from __future__ import annotations

import time
from typing import Annotated, Any

import msgspec
from fastapi import APIRouter, Path, Query, Request
from starlette.responses import Response

from domain.ai.match import seen_by
from domain.ai.memory import Memory
from domain.engine.errors import RingsideError
from domain.engine.ruleset import get_ruleset
from projections.ratings import ordinal
from projections.views import read_memory

from ..auth import bearer, seat_of
from ..json import json_response
from .models import ERRORS

router = APIRouter(tags=["views"])
MEMORY_WAIT_SECONDS = 2.0


class UnknownPlayer(RingsideError):
    code = "not_found"


@router.get("/battles", responses=ERRORS)
def list_battles(request: Request, status: Annotated[str, Query(pattern="^(live|ended)$")] = "live",
                 limit: Annotated[int, Query(ge=1, le=500)] = 50) -> Response:
    """Battles to watch: the most recently active first (private battles are left out)."""
    store = request.app.state.services.views
    index_key = store.key("battles", "index")
    rows = []
    for battle_id, _ in store.ztop(store.key("battles", status), limit * 2):
        summary = store.hget(index_key, battle_id)
        if summary is not None and not summary["private"]:
            rows.append(summary)
        if len(rows) == limit:
            break
    return json_response({"status": status, "battles": rows})


@router.get("/battles/{battle_id}/memory", responses=ERRORS)
def battle_memory(battle_id: Annotated[str, Path(max_length=64)], request: Request) -> Response:
    """The seat's AI memory: every action it saw (actor, target), its view at each turn's
    start, and what it knows of the others' resources. Nothing it was not shown."""
    services = request.app.state.services
    seat = seat_of(services, battle_id, bearer(request))
    latest = services.battles.load(battle_id).seq
    deadline = time.monotonic() + MEMORY_WAIT_SECONDS
    found = read_memory(services.views, battle_id, seat)
    while (found is None or found["seq"] < latest) and time.monotonic() < deadline:
        time.sleep(0.01)        # the projection runner is moments behind the command
        found = read_memory(services.views, battle_id, seat)
    memory = found or Memory(seat).as_json()
    memory.pop("actions_at_turn", None)
    return json_response({"battle_id": battle_id, **memory})


@router.get("/battles/{battle_id}/knowledge", responses=ERRORS)
def battle_knowledge(battle_id: Annotated[str, Path(max_length=64)], request: Request) -> Response:
    """What the seat knows, as a state of its game's own type (the ruleset's `knowledge`):
    every part it may see as it is, every other part a mark. A searching bot draws the states
    it searches from this alone (`ringside bot --policy search`)."""
    services = request.app.state.services
    battles = services.battles
    seat = seat_of(services, battle_id, bearer(request))
    state = battles.load(battle_id)
    ruleset = battles.ruleset_of(state)
    seen = seen_by(ruleset, state, seat, battles.now_ms() if state.clock is not None else None)
    return json_response({"battle_id": battle_id, "seat": seat, "seq": state.seq, "ruleset": ruleset.id,
                          "version": ruleset.version, "content_hash": ruleset.content_hash, "sides": seen.sides,
                          "time_left_ms": seen.time_left_ms, "knowledge": msgspec.to_builtins(seen.knowledge)})


@router.get("/leaderboards/{ruleset}", responses=ERRORS)
def leaderboard(ruleset: Annotated[str, Path(max_length=64)], request: Request,
                limit: Annotated[int, Query(ge=1, le=1000)] = 50) -> Response:
    """Ranked by openskill ordinal (mu - 3 sigma), rated from finished sets."""
    get_ruleset(ruleset)
    store = request.app.state.services.views
    # The ranking first, then the stats: a projection update writes both at once, so every
    # ranked player already has stats by the second read. The other order could see a player
    # ranked by an update that landed between the reads, with no stats yet.
    ranking = store.ztop(store.key("leaderboards", ruleset, "ranking"), limit)
    stats = store.hgetall(store.key("leaderboards", ruleset, "stats"))
    # A rebuild deletes the keys in pages: a player it has already taken out is left out.
    rows = [rating_row(rank, player, stats[player]) for rank, (player, _) in enumerate(ranking, 1)
            if player in stats]
    return json_response({"ruleset": ruleset, "players": rows})


def rating_row(rank: int | None, player: str, row: dict[str, Any]) -> dict[str, Any]:
    """A player's rating; `cause` is the battle (`battle_id`) or set (`set_id`) that last changed it."""
    return {"rank": rank, "player": player, "rating": round(ordinal(row), 2), "mu": round(row["mu"], 4),
            "sigma": round(row["sigma"], 4), "games": row["games"], "wins": row["wins"], "cause": row.get("cause")}


@router.get("/players/{player_id}", responses=ERRORS)
def player(player_id: Annotated[str, Path(max_length=200)], request: Request) -> Response:
    store = request.app.state.services.views
    results = store.hgetall(store.key("history", player_id, "results"))
    reasons = store.hgetall(store.key("history", player_id, "reasons"))     # why each battle ended
    battles = [{**row, "result": results.get(row["battle_id"]), "reason": reasons.get(row["battle_id"])}
               for row in store.lrange(store.key("history", player_id, "battles"))]
    sets = [{**row, "result": results.get(row["set_id"])}
            for row in store.lrange(store.key("history", player_id, "sets"))]
    ratings = {ruleset: rating_row(None, player_id, row)
               for ruleset, row in store.hgetall(store.key("leaderboards", "players", player_id)).items()}
    tournaments = store.lrange(store.key("history", player_id, "tournaments"))
    if not battles and not sets and not tournaments:
        raise UnknownPlayer(f"no player {player_id!r} has played here", player=player_id)
    # Every rating change, oldest first, each naming the battle or set that made it; and each
    # battle or set row the change it made.
    changes = store.lrange(store.key("leaderboards", "changes", player_id))
    made = {change.get("battle_id") or change.get("set_id"): change for change in changes}
    for row in (*battles, *sets):
        change = made.get(row.get("battle_id") or row.get("set_id"))
        row["rating_change"] = None if change is None else {"before": change["before"], "after": change["after"]}
    return json_response({"player": player_id, "ratings": ratings, "rating_changes": changes, "battles": battles,
                          "sets": sets, "tournaments": tournaments})
