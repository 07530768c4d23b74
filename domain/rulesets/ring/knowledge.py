"""What a ring seat knows, and full battles consistent with it, for the search bot.

Hidden from a seat (seed 000, Buying Items, Forming Your Team, Choosing the Ring unit; README
"Hidden information"): decks, HP, MP, LP, Dynamics and the battlefield are public, but
- the other seat's inventory: which items and how many (the view shows `items: null`);
- the other seat's locked team or Ring pick, until both have locked: the seat knows only that
  it locked (the view's `picked`). The preview advantage shows the loser's locked team to the
  initiative winner, so that one is known.

Marks: an unseen inventory is `UNSEEN_PACK`, one mark whatever it holds; an unseen locked pick
is the pick with its units as marks, `{"units": ["?", ...]}` (a team's size is public) or
`{"unit": "?"}`.

Sampling:
- a locked team is `team_size` units drawn from the other seat's deck units with LP left; a
  locked Ring pick one of its team units still standing;
- an inventory is the pack the deck presumably bought (`presumed_pack`), in a random order
  (the order is hidden too): when the deck is a preset's leader and units (decks are public,
  and so is the content), the preset's own items with chance `PRESET_PACK`, else other items
  bought at its price; for any other deck, items drawn at random within the GP the presets
  spend on items on average. Once the other seat has had a turn, each copy is kept with chance
  `KEPT` (items used are gone; which ones the state does not tell).
Every draw reads the content in force (`content()`), so a kept release's presets and items are
used when it plays.
"""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.engine.choices import PendingChoices
from domain.engine.rng import Rng

from .content import content
from .state import Ring, Side, opponent
from .targets import alive, eligible, team_size

MARK = "?"
UNSEEN_PACK: tuple[str, ...] = (MARK,)
PRESET_PACK = (7, 8)        # a preset's deck carries the preset's own items (else others at its price)
KEPT = (1, 2)               # a copy of the presumed pack is still held, once its side has had a turn


def knowledge(s: Ring, seat: str) -> Ring:
    """`s` as `seat` knows it: the other seat's inventory and unseen locked pick are marks."""
    other = opponent(seat)
    s = s.with_side(other, replace(s.side(other), items=UNSEEN_PACK))
    if unseen_pick(s, seat):
        assert s.choices is not None
        s = replace(s, choices=s.choices.with_lock(other, pick_mark(s, other)))
    return s


def determinize(known: Ring, seat: str, rng: Rng) -> Ring:
    """A battle `seat` could be in: the other seat's inventory and unseen locked pick drawn."""
    other = opponent(seat)
    if unseen_pick(known, seat):
        assert known.choices is not None
        known = replace(known, choices=known.choices.with_lock(other, drawn_pick(known, other, rng)))
    items = held(presumed_pack(known, known.side(other), rng), had_turn(known, other), rng)
    return known.with_side(other, replace(known.side(other), items=items))


def unseen_pick(s: Ring, seat: str) -> bool:
    """Whether the other seat has locked a pick `seat` may not see (the preview advantage
    shows the first team locked, the loser's, to the initiative winner)."""
    choices, other = s.choices, opponent(seat)
    if choices is None or other not in choices.locked:
        return False
    return not (s.pick_sequential and choices.kind == "pick_team" and choices.awaiting[0] == other)


def pick_mark(s: Ring, seat: str) -> dict[str, Any]:
    """The mark of `seat`'s locked pick: its shape, every unit a mark."""
    choices: PendingChoices | None = s.choices
    assert choices is not None
    if choices.kind == "pick_team":
        return {"units": [MARK] * team_size(s, seat)}
    return {"unit": MARK}


def drawn_pick(s: Ring, seat: str, rng: Rng) -> dict[str, Any]:
    """A pick `seat` could have locked, as `lock_choice` keeps it (JSON lists, a team sorted)."""
    choices: PendingChoices | None = s.choices
    assert choices is not None
    if choices.kind == "pick_team":
        deck = sorted(s.units[k].unit for k in eligible(s, seat))
        return {"units": sorted(rng.shuffle(deck)[:team_size(s, seat)])}
    return {"unit": rng.choice(sorted(s.units[k].unit for k in alive(s, seat)))}


def had_turn(s: Ring, seat: str) -> bool:
    """Whether `seat` has had a turn (the initiative winner's is turn 1, then they alternate)."""
    if s.phase != "battle":
        return False
    return s.turn >= 2 or s.active == seat


def presumed_pack(s: Ring, side: Side, rng: Rng) -> tuple[str, ...]:
    """The items `side`'s deck presumably bought: its preset's, if it is one, else a random pack."""
    rules, units = content(), {s.units[k].unit for k in side.deck}
    for preset in rules.decks.values():
        if preset.leader == side.leader and {u.unit for u in preset.units} == units:
            if rng.chance(*PRESET_PACK):
                return rng.shuffle(preset.items)
            return bought(sum(rules.items[i].price for i in preset.items), rng)
    return bought(pack_budget(), rng)


def pack_budget() -> int:
    """The GP a deck of unknown make spends on items: the presets' mean, rounded down."""
    rules = content()
    spent = [sum(rules.items[i].price for i in deck.items) for deck in rules.decks.values()]
    return sum(spent) // len(spent) if spent else 0


def bought(budget: int, rng: Rng) -> tuple[str, ...]:
    """Items drawn one by one among those still affordable, until none is."""
    prices = {item: spec.price for item, spec in content().items.items()}
    pack: list[str] = []
    while True:
        affordable = sorted(item for item, price in prices.items() if 0 < price <= budget)
        if not affordable:
            return tuple(pack)
        item = rng.choice(affordable)
        pack.append(item)
        budget -= prices[item]


def held(pack: tuple[str, ...], used_some: bool, rng: Rng) -> tuple[str, ...]:
    """The copies of `pack` still held: all of them before the side's first turn."""
    if not used_some:
        return pack
    return tuple(item for item in pack if rng.chance(*KEPT))
