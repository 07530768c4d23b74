"""Deckduel's heuristic, which the greedy bot plays and the search bot's playouts follow: build
drills early, then hit as hard as energy allows; discard the card that would cost the most."""
from __future__ import annotations

from ..content import content

DRILLS_WANTED = 2    # drills worth building before attacking


def rating(kind: str, card_id: str, drills: int) -> float:
    """A `pass`, `attack`, `drill` or `discard` of `card_id` by a side with `drills` in play."""
    if kind == "pass":
        return 0.0
    card = content().cards[card_id]
    if kind == "discard":
        return card.cost + card.arrows - card.defense
    if kind == "drill":
        return 3.0 if drills < DRILLS_WANTED else 0.5
    return card.arrows + (1.0 if card.effect else 0.0) - 0.25 * card.cost
