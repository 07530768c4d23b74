"""Who may act and look: seat tokens, and the perspectives a caller may view a battle as.

Every check of a seat token and every rule of who may view as whom lives here, over the
battle's state alone, so the writer (which seat a command's token opens) and the read path
(which viewer a client gets) apply the same rules.
"""
from __future__ import annotations

import base64
import hmac
from hashlib import blake2b, sha256

from domain.engine.battle import BattleCreated, BattleState
from domain.engine.errors import RingsideError
from domain.engine.events import Viewer
from domain.engine.table import house_bot


class Forbidden(RingsideError):
    """The caller may not look as it asked: with a token of no seat of this battle, as another
    seat than its token's, or as a seat or omniscient before the battle is public."""
    code = "forbidden"


def token_hash(token: str) -> str:
    return blake2b(token.encode(), digest_size=32).hexdigest()


def derived_token(secret: str, purpose: str) -> str:
    """A token for one `purpose` (a ticket's seat, a tournament's entrant), known only to
    whoever holds `secret` (a player token): an HMAC, so it is never stored, only its hash."""
    digest = hmac.new(secret.encode(), f"ringside {purpose}".encode(), sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def token_seat(created: BattleCreated, token: str) -> str:
    """The seat `token` opens, compared in constant time; Forbidden when it opens none of
    this battle's. A battle's seat tokens never change: any state of it knows them."""
    offered = token_hash(token)
    found = None
    for seat, stored in (created.seat_token_hashes or {}).items():
        if hmac.compare_digest(stored, offered):
            found = seat
    # A house seat is the service's: a hash stored for one (older battles hold them) opens nothing.
    if found is None or house_bot(created.players.get(found)) is not None:
        raise Forbidden("this token is not a seat token of this battle")
    return found


def seat_of_token(created: BattleCreated, token: str) -> str | None:
    """The seat `token` opens; None when it opens none of this battle's."""
    try:
        return token_seat(created, token)
    except Forbidden:
        return None


def client_viewer(state: BattleState, token: str | None, view_as: str | None) -> Viewer:
    """A seat token views only as its own seat. Without a token: the spectator, or `as` a
    seat or `all` once the battle is public (ended and not private); before that those
    views would show a seat's secrets to anyone."""
    if token is not None:
        seat = token_seat(state.created, token)
        if view_as is not None and view_as != seat:
            raise Forbidden(f"this token is the {seat} seat's; it can only view as {seat}",
                            seat=seat, view_as=view_as)
        return Viewer(seat=seat)
    viewer = Viewer.parse(view_as or "spectator", state.created.players)
    if (viewer.seat is not None or viewer.omniscient) and not state.public:
        raise Forbidden(f"viewing as {view_as} without its seat token is open only once the battle "
                        "has ended (and was not private)", view_as=view_as)
    return viewer


def perspectives(state: BattleState, own_seat: str | None) -> list[str]:
    """What a caller holding `own_seat`'s token (None: no token) may view as, by the rules of
    `client_viewer`: the spectator always, its own seat, and, once the battle is public,
    every seat and the omniscient view."""
    seats = list(state.created.players)
    shown = seats if state.public else [own_seat] if own_seat else []
    return ["spectator", *shown, *(["all"] if state.public else [])]


def held_back(state: BattleState, viewer: Viewer) -> bool:
    """Whether `viewer` may be kept behind `state`: a spectator of a battle with a spectator
    delay, until it ends. Seats and omniscient viewers always see the battle live."""
    return (bool(state.spectator_delay) and viewer.seat is None and not viewer.omniscient
            and state.outcome is None)
