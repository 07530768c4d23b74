"""Seed 001, Preparation: selection, placement and the starting hand, each a simultaneous
hidden choice; then the characters enter the match and the first turn begins."""
from __future__ import annotations

from collections import Counter

from domain.engine.choices import lock_choice
from domain.engine.errors import RuleViolation
from domain.engine.grid import Cell
from domain.engine.mulligan import lock_mulligan

from . import events as ev
from .board import board_of, pos
from .combat import begin_turn
from .commands import Field, Mulligan, Place
from .content import content
from .resolver import SkirmishResolver
from .state import SEATS, Skirmish, opponent


def field_range(s: Skirmish, seat: str) -> range:
    team = len(s.player(seat).units)
    if s.mode == "duel":
        return range(s.params.duel_field, s.params.duel_field + 1)
    return range(s.params.raid_field_min, min(team, s.params.raid_field_max) + 1)


def field(b: SkirmishResolver, seat: str, cmd: Field) -> None:
    s = b.state
    if s.phase != "select" or s.choices is None:
        raise RuleViolation("the selection step is over")
    team = [s.units[k].character for k in s.player(seat).units]
    chosen = list(cmd.characters)
    wrong = next((c for c in chosen if c not in team), None)
    if wrong is not None:
        raise RuleViolation(f"{wrong!r} is not in your team", character=wrong)
    if len(set(chosen)) != len(chosen):
        raise RuleViolation("each character can be fielded once")
    sizes = field_range(s, seat)
    if len(chosen) not in sizes:
        wanted = str(sizes.start) if len(sizes) == 1 else f"{sizes.start} to {sizes.stop - 1}"
        raise RuleViolation(f"field {wanted} characters, not {len(chosen)}", count=len(chosen))
    boss = next((u.character for k in s.player(seat).units if (u := s.units[k]).boss), None)
    if boss is not None and boss not in chosen:
        raise RuleViolation(f"the boss side always fields {content().characters[boss].name}")
    ordered = sorted(chosen, key=team.index)
    locked, _ = lock_choice(s.choices, seat, Field(characters=tuple(ordered)), lambda _, choice: choice)
    for event in locked:
        b.emit(event)


def unplaced(s: Skirmish, seat: str) -> list[str]:
    return [u.character for u in s.fielded(seat) if u.key not in s.placements]


def free_zone(s: Skirmish, seat: str) -> list[Cell]:
    taken = {cell for key, cell in s.placements.items() if s.units[key].seat == seat}
    return [c for c in board_of(s).zone(seat) if pos(c) not in taken]


def place(b: SkirmishResolver, seat: str, cmd: Place) -> None:
    s = b.state
    if s.phase != "place":
        raise RuleViolation("the placement step is not now")
    if cmd.character not in unplaced(s, seat):
        raise RuleViolation(f"{cmd.character!r} is not a fielded character of yours waiting to be placed",
                            character=cmd.character)
    cell = Cell.from_wire(list(cmd.cell), "cell", board_of(s).grid)
    if cell not in free_zone(s, seat):
        raise RuleViolation(f"{cell.to_wire()} is not a free tile of your deployment zone", cell=cell.to_wire())
    b.emit(ev.UnitPlaced(seat=seat, character=cmd.character, cell=cell.to_wire()))
    if any(unplaced(b.state, other) for other in SEATS):
        return
    placed = b.state.placements
    b.emit(ev.PlacementsRevealed(cells={k: list(placed[k]) for k in b.state.units if k in placed}))
    for who in SEATS:
        pool = tuple(card for u in b.state.fielded(who)
                     for card in content().pool(u.character, s.params.class_copies, s.params.unique_copies))
        order = tuple(b.rng.shuffle(pool))
        b.emit(ev.DeckPrepared(seat=who, size=len(order), order=order))
        hand = order[:s.params.starting_hand]
        b.emit(ev.CardsDrawn(seat=who, count=len(hand), cards=hand))


def mulligan(b: SkirmishResolver, seat: str, cmd: Mulligan) -> None:
    s = b.state
    if s.phase != "mulligan" or s.choices is None:
        raise RuleViolation("the starting hand step is over")
    if Counter(cmd.cards) - Counter(s.player(seat).hand):
        raise RuleViolation(f"you can only replace cards in your starting hand: {list(cmd.cards)}")
    if lock_mulligan(b, s.choices, seat, Mulligan(cards=tuple(sorted(cmd.cards))), returned=ev.CardsReturned,
                     redraw=redraw):
        begin_match(b)


def redraw(b: SkirmishResolver, seat: str, count: int) -> None:
    """The starting hand: the deck is shuffled with the returned cards, then as many are drawn."""
    b.emit(ev.DeckShuffled(seat=seat, order=tuple(b.rng.shuffle(b.state.player(seat).deck))))
    b.emit(ev.CardsDrawn(seat=seat, count=count, cards=b.state.player(seat).deck[:count]))


def begin_match(b: SkirmishResolver) -> None:
    """The first player (the setup's, or the battle's RNG), then every fielded character
    enters (first player's first, in team order: their Prologues), then the first turn."""
    first = b.state.first_player
    b.emit(ev.FirstPlayerChosen(seat=first, by="setup") if first is not None
           else ev.FirstPlayerChosen(seat=b.rng.choice(SEATS), by="rng"))
    first = b.state.first_player
    assert first is not None, "FirstPlayerChosen sets the first player"
    second = b.state.player(opponent(first))
    raised = min(b.state.params.ap_cap, second.max_ap + b.state.params.second_player_ap)
    if raised > second.max_ap:              # the second player's compensation (README), up to the cap
        b.emit(ev.MaxApChanged(seat=second.seat, max_ap=raised, ap=second.ap + raised - second.max_ap,
                               by="second_player"))
    for seat in (first, opponent(first)):
        for unit in b.state.fielded(seat):
            assert unit.cell is not None, "every fielded unit is placed before the match"
            b.emit(ev.UnitEntered(unit=unit.key, cell=list(unit.cell)))
    begin_turn(b, first)
