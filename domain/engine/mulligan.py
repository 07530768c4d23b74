"""A card game's mulligan: each seat secretly picks cards of its starting hand to send back,
everyone learns only how many, and once every seat has locked its pick each seat returns its
cards and draws as many, in seat order.

The game's mulligan command carries the picked cards in its `cards` field; the game names the
event that records a return and says how a seat draws again (from the top of its deck, or
after a shuffle)."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any, TypeVar

from .choices import PendingChoices, lock_choice
from .events import Command, Event, Seat
from .hooks import Resolver

R = TypeVar("R", bound=Resolver[Any])


def mulligan_picks(hand: Sequence[str]) -> list[tuple[str, ...]]:
    """Every pick a hand offers (each subset once, sorted), the smallest first: keeping the hand first."""
    picks = {tuple(sorted(c)) for n in range(len(hand) + 1) for c in combinations(hand, n)}
    return sorted(picks, key=lambda p: (len(p), p))


def count_only(seat: Seat, choice: Mapping[str, Any]) -> dict[str, int]:
    """What a locked mulligan reveals: how many cards go back, not which."""
    return {"count": len(choice["cards"])}


def lock_mulligan(b: R, pending: PendingChoices, seat: Seat, pick: Command, *,
                  returned: Callable[..., Event], redraw: Callable[[R, Seat, int], None]) -> bool:
    """Lock `seat`'s pick. Once every seat has locked, each seat that sends cards back records
    the game's `returned(seat=, count=, cards=)` event and then `redraw(b, seat, count)`.
    True once the mulligan is over."""
    locked, everyone = lock_choice(pending, seat, pick, count_only)
    for event in locked:
        b.emit(event)
    if everyone is None:
        return False
    for who, choice in everyone.items():
        cards = tuple(choice["cards"])
        if cards:
            b.emit(returned(seat=who, count=len(cards), cards=cards))
            redraw(b, who, len(cards))
    return True
