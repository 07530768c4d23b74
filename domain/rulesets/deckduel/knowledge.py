"""What a deckduel seat knows, and full duels consistent with it, for the search bot.

Hidden (seed 004; README "Hidden information"):
- the opponent's hand, and the opponent's locked mulligan pick, from the seat;
- every deck's order and every energy pile ("without looking at them"), from everyone, the
  owner included.

Marks: a hidden card is `MARK` ("?"), so a hidden pile keeps only its length (`hand_count`,
`deck_count`, `energy_count` of the view). The opponent's locked pick becomes `LOCKED_MARK`:
the seat knows that it locked (the view's `mulligan_locked`), not what.

Sampling: a side's unseen cards are its character's deck (the content in force) minus every
card of that side the seat can see: its discard pile and drills, and its hand when it is the
seat's own. They are shuffled and dealt to the marks: the opponent's hand, then energy, then
deck. A setup may bring its own deck, which the duel does not keep: should the visible cards
not fit the character's deck, the shortfall is drawn from that deck again, so a sample is
always whole (README "Choices"). A locked pick is any pick the drawn hand offers.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from msgspec.structs import replace

from domain.engine.mulligan import mulligan_picks
from domain.engine.rng import Rng

from .content import CardId, content
from .state import SEATS, Duel, Side

MARK: CardId = "?"
LOCKED_MARK: dict[str, Any] = {"cards": MARK}


def marks(count: int) -> tuple[CardId, ...]:
    return (MARK,) * count


def knowledge(s: Duel, seat: str) -> Duel:
    """`s` as `seat` knows it: its own hand as it is; every other hidden card a mark."""
    for who in SEATS:
        side = s.side(who)
        s = s.with_side(who, replace(side, deck=marks(len(side.deck)), energy=marks(len(side.energy)),
                                     hand=side.hand if who == seat else marks(len(side.hand))))
    if s.choices is not None and any(who != seat for who in s.choices.locked):
        locked = {who: pick if who == seat else LOCKED_MARK for who, pick in s.choices.locked.items()}
        s = replace(s, choices=replace(s.choices, locked=locked))
    return s


def determinize(known: Duel, seat: str, rng: Rng) -> Duel:
    """A duel `seat` could be in: every mark filled from the cards it has not seen."""
    for who in SEATS:
        known = known.with_side(who, dealt(known.side(who), who == seat, rng))
    if known.choices is not None and any(who != seat for who in known.choices.locked):
        locked = {who: pick if who == seat else {"cards": list(rng.choice(mulligan_picks(known.side(who).hand)))}
                  for who, pick in known.choices.locked.items()}
        known = replace(known, choices=replace(known.choices, locked=locked))
    return known


def dealt(side: Side, own: bool, rng: Rng) -> Side:
    """`side` with its marked piles dealt from its unseen cards: hand, then energy, then deck."""
    hand = side.hand if own else ()
    hidden = len(side.deck) + len(side.energy) + (0 if own else len(side.hand))
    cards = unseen(side.character, side.discard + side.drills + hand, hidden, rng)
    if not own:
        hand, cards = cards[:len(side.hand)], cards[len(side.hand):]
    energy, deck = cards[:len(side.energy)], cards[len(side.energy):]
    return replace(side, hand=hand, energy=energy, deck=deck)


def unseen(character: str, seen: tuple[CardId, ...], count: int, rng: Rng) -> tuple[CardId, ...]:
    """`count` cards, shuffled, from the character's deck minus the `seen` ones; topped up from
    the whole deck again when a setup's own deck left too few."""
    deck = content().characters[character].deck_list()
    left = Counter(deck)
    left.subtract(seen)
    cards = rng.shuffle(sorted(left.elements()))
    while len(cards) < count:
        cards += rng.shuffle(deck)
    return cards[:count]
