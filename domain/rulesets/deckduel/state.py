"""Deckduel state: two sides of piles plus the round's phase. Frozen, cheap to replace."""
from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec.structs import replace

from domain.engine.content import Bound
from domain.engine.choices import PendingChoices

from .content import CardId

SEATS = ("p1", "p2")

# The state records are not tracked by the cyclic garbage collector (`gc=False`, as for events):
# a service keeps thousands of battles' states in memory, and frozen records of tuples and
# strings can hold no reference cycle.


class Params(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    """Numbers seed 004 leaves open ("we'll formalize later"); see README.md. Each declares the
    range a setup may ask for (README.md, "Param ranges")."""
    # The Rules 1: the deck's size is not given; up to twice the characters' 30-card decks.
    # At least the initial hand, the starting energy and one more card (setup).
    deck_size: Annotated[int, Bound(2, 60)] = 30
    # The Rules 2: the mulligan offers every subset of the hand, 2**10 at most
    initial_hand: Annotated[int, Bound(1, 10)] = 5
    starting_energy: Annotated[int, Bound(0, 10)] = 3      # seed 004, The Rules step 4
    power_up: Annotated[int, Bound(0, 10)] = 1             # seed 004, Ready Step 1: "how much energy later"
    ready_draw: Annotated[int, Bound(0, 10)] = 2           # seed 004, Ready Step 2
    hand_size: Annotated[int, Bound(0, 20)] = 7            # seed 004, End Step 1
    zero_icon_perfect: bool = True  # 0 icons vs 0 damage left "exactly match" (seed 004 step 3)


class Side(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    character: str
    deck: tuple[CardId, ...] = ()       # top card first
    hand: tuple[CardId, ...] = ()
    energy: tuple[CardId, ...] = ()     # top card first, face down
    discard: tuple[CardId, ...] = ()    # top card last
    drills: tuple[CardId, ...] = ()     # in play order


class Duel(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    params: Params
    p1: Side
    p2: Side
    phase: str = "mulligan"             # mulligan, combat, discard
    round: int = 0
    active: str | None = None
    turn: str | None = None             # whose single action it is in combat or discard
    passes: int = 0                     # passes in succession; two end combat
    choices: PendingChoices | None = None
    first_player: str | None = None     # fixed by the setup; otherwise the RNG picks

    def side(self, seat: str) -> Side:
        return self.p1 if seat == "p1" else self.p2

    def with_side(self, seat: str, side: Side) -> "Duel":
        return replace(self, p1=side) if seat == "p1" else replace(self, p2=side)

    def active_seat(self) -> str:
        """The active player, chosen once the mulligans are done."""
        if self.active is None:
            raise RuntimeError("there is no active player before the mulligans are done")
        return self.active

    def deck_out(self) -> bool:
        return self.phase != "mulligan" and (not self.p1.deck or not self.p2.deck)


def opponent(seat: str) -> str:
    return "p2" if seat == "p1" else "p1"


def without(pile: tuple[CardId, ...], card: CardId) -> tuple[CardId, ...]:
    """The pile minus one copy of `card` (the first)."""
    i = pile.index(card)
    return pile[:i] + pile[i + 1:]


def without_all(pile: tuple[CardId, ...], cards: tuple[CardId, ...]) -> tuple[CardId, ...]:
    for card in cards:
        pile = without(pile, card)
    return pile
