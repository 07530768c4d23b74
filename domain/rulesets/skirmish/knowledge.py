"""What a skirmish seat knows, and full matches consistent with it, for the search bot.

Hidden (seed 001; README "Hidden information"):
- from the other seat: a seat's hand, its locked selection or mulligan pick, and where it has
  placed its units until every unit is placed (`placements`);
- from everyone, the owner included: every deck's order.

Marks: a hidden card is `MARK` ("?"), so a hidden pile keeps only its length. The other seat's
locked pick is `LOCKED_MARK`: the seat knows that it locked, not what. An unrevealed placement
of the other seat is the cell `HIDDEN_CELL`: the seat knows which units are placed, not where.

Sampling: a seat's unseen cards are the pool its fielded units' cards make (the content in
force, as the deck was built) minus every card of that seat the seat can see (its discard, and
its hand when it is the seat's own), shuffled and dealt to the other seat's hand, then to the
deck; should the visible cards not fit the pool, the shortfall is drawn from the pool again so
a sample is always whole. A locked selection is any selection the rules allow (the boss kept);
a locked mulligan any pick of the drawn hand; a hidden placement any free cell of the seat's
deployment zone.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from msgspec.structs import replace

from domain.engine.mulligan import mulligan_picks
from domain.engine.rng import Rng

from .board import board_of, pos
from .content import content
from .preparation import field_range
from .state import SEATS, Player, Pos, Skirmish, opponent

MARK = "?"
LOCKED_MARK: dict[str, Any] = {"locked": MARK}
HIDDEN_CELL: Pos = (-1, -1)


def marks(count: int) -> tuple[str, ...]:
    return (MARK,) * count


def knowledge(s: Skirmish, seat: str) -> Skirmish:
    """`s` as `seat` knows it: its own hand and placements as they are, every other secret a mark."""
    other = opponent(seat)
    for who in SEATS:
        p = s.player(who)
        s = s.with_player(who, replace(p, deck=marks(len(p.deck)), hand=p.hand if who == seat else marks(len(p.hand))))
    if s.placements:
        placements = {k: cell if s.units[k].seat == seat else HIDDEN_CELL for k, cell in s.placements.items()}
        s = replace(s, placements=placements)
    if s.choices is not None and other in s.choices.locked:
        s = replace(s, choices=s.choices.with_lock(other, LOCKED_MARK))
    return s


def determinize(known: Skirmish, seat: str, rng: Rng) -> Skirmish:
    """A match `seat` could be in: every mark filled from what it has not seen."""
    other = opponent(seat)
    for who in SEATS:
        known = known.with_player(who, dealt(known, known.player(who), who == seat, rng))
    if any(cell == HIDDEN_CELL for cell in known.placements.values()):
        known = replace(known, placements=placed(known, other, rng))
    if known.choices is not None and other in known.choices.locked:
        known = replace(known, choices=known.choices.with_lock(other, drawn_pick(known, other, rng)))
    return known


def dealt(s: Skirmish, p: Player, own: bool, rng: Rng) -> Player:
    """`p` with its marked piles dealt from its unseen cards: the hand (another seat's), then the deck."""
    hand = p.hand if own else ()
    hidden = len(p.deck) + (0 if own else len(p.hand))
    if not hidden:
        return p
    cards = unseen(pool(s, p.seat), p.discard + hand, hidden, rng)
    if not own:
        hand, cards = cards[:len(p.hand)], cards[len(p.hand):]
    return replace(p, hand=hand, deck=cards)


def pool(s: Skirmish, seat: str) -> tuple[str, ...]:
    """The cards the seat's deck was built from: those of its fielded units (`start`'s pool)."""
    rules, params = content(), s.params
    return tuple(card for u in s.fielded(seat) for card in rules.pool(u.character, params.class_copies,
                                                                     params.unique_copies))


def unseen(cards: tuple[str, ...], seen: tuple[str, ...], count: int, rng: Rng) -> tuple[str, ...]:
    """`count` cards, shuffled, from `cards` minus the `seen` ones; topped up from `cards` again
    when too few are left."""
    left = Counter(cards)
    left.subtract(seen)
    drawn = rng.shuffle(sorted(left.elements()))
    while len(drawn) < count and cards:
        drawn += rng.shuffle(sorted(cards))
    return drawn[:count]


def placed(s: Skirmish, seat: str, rng: Rng) -> dict[str, Pos]:
    """The placements with each hidden one of `seat` drawn from its zone's free cells."""
    placements = {k: cell for k, cell in s.placements.items() if cell != HIDDEN_CELL}
    taken = set(placements.values())
    free = [pos(c) for c in board_of(s).zone(seat) if pos(c) not in taken]
    for key in (k for k, cell in s.placements.items() if cell == HIDDEN_CELL):
        cell = rng.choice(free)
        free.remove(cell)
        placements[key] = cell
    return {k: placements[k] for k in s.placements}


def drawn_pick(s: Skirmish, seat: str, rng: Rng) -> dict[str, Any]:
    """A pick `seat` could have locked, as `lock_choice` keeps it: a selection in team order
    (the boss always in it), or a mulligan's cards, sorted."""
    if s.phase == "mulligan":
        return {"cards": sorted(rng.choice(mulligan_picks(s.player(seat).hand)))}
    team = [s.units[k] for k in s.player(seat).units]
    bosses = [u.character for u in team if u.boss]
    rest = [u.character for u in team if not u.boss]
    size = rng.choice(list(field_range(s, seat)))
    chosen = set(bosses) | set(rng.shuffle(rest)[:max(0, size - len(bosses))])
    return {"characters": [u.character for u in team if u.character in chosen]}
