"""What `decide` returns and how a battle ends: the two values every part of the engine shares."""
from __future__ import annotations

from typing import Generic, NamedTuple, TypeVar

import msgspec

from .events import Event
from .table import Side

S = TypeVar("S")


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a battle ended: `winner` names the winning side, or is None for a draw."""
    winner: Side | None
    reason: str


class Decision(NamedTuple, Generic[S]):
    """What `decide` returns: the batch's events and the game state they lead to.

    `state` is None when `decide` did not fold the events itself; the runner folds them then.
    A resolver that applied each event as it went hands back its state, so nothing is folded
    twice. (A named tuple: one is made for every command.)"""
    events: tuple[Event, ...]
    state: S | None = None
