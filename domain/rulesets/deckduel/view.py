"""What a viewer sees of a duel: counts for hidden piles, cards only where visible."""
from __future__ import annotations

from typing import Any

from domain.engine.events import Viewer

from .hooks import HandSize, effective
from .legal import awaiting
from .state import SEATS, Duel


def view(s: Duel, viewer: Viewer) -> dict[str, Any]:
    return {
        "round": s.round, "phase": s.phase, "active": s.active, "turn": s.turn, "passes": s.passes,
        "awaiting": sorted(awaiting(s)),
        "seats": {seat: side_view(s, seat, viewer) for seat in SEATS},
    }


def side_view(s: Duel, seat: str, viewer: Viewer) -> dict[str, Any]:
    side = s.side(seat)
    own = viewer.omniscient or viewer.seat == seat
    shown: dict[str, Any] = {
        "character": side.character,
        "deck_count": len(side.deck),
        "hand_count": len(side.hand),
        "hand": list(side.hand) if own else None,
        "energy_count": len(side.energy),
        "discard": list(side.discard),
        "drills": list(side.drills),
        "hand_size": effective(s, HandSize(seat=seat, amount=s.params.hand_size)),
    }
    if s.choices is not None and seat in s.choices.awaiting:
        shown["mulligan_locked"] = seat in s.choices.locked
    if viewer.omniscient:
        shown["deck"] = list(side.deck)
        shown["energy"] = list(side.energy)
    return shown
