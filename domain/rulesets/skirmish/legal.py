"""What a seat may do now (exactly the commands `decide` accepts), and what the rules play for a
seat whose clock ran out."""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from domain.engine.grid import Cell
from domain.engine.mulligan import mulligan_picks

from .board import board_of, distances, sides, walk_moves
from .cards import can_use
from .commands import Attack, EndTurn, Field, Mulligan, Place, Play, SkirmishCommand
from .content import Card, content
from .hooks import may_each, targetable_of
from .preparation import field_range, free_zone, unplaced
from .resolver import reach, speed
from .state import SEATS, Skirmish, Unit, opponent


_NOBODY: frozenset[str] = frozenset()
_ONLY = {seat: frozenset((seat,)) for seat in SEATS}


def awaiting(s: Skirmish) -> frozenset[str]:
    if s.defeated:
        return _NOBODY
    if s.phase == "combat":        # most states: the active seat
        return (_ONLY.get(s.active) or frozenset((s.active,))) if s.active else _NOBODY
    if s.phase in ("select", "mulligan"):
        return s.choices.waiting_for() if s.choices else _NOBODY
    if s.phase == "place":
        return frozenset(seat for seat in SEATS if unplaced(s, seat))
    return (_ONLY.get(s.active) or frozenset((s.active,))) if s.active else _NOBODY


def legal_commands(s: Skirmish, seat: str) -> list[SkirmishCommand]:
    if seat not in awaiting(s):
        return []
    if s.phase == "select":
        return [*selections(s, seat)]
    if s.phase == "place":
        cells = free_zone(s, seat)
        return [Place(character=c, cell=tuple(cell.to_wire())) for c in unplaced(s, seat) for cell in cells]
    if s.phase == "mulligan":
        return [Mulligan(cards=p) for p in mulligan_picks(s.player(seat).hand)]
    return combat_commands(s, seat)


def selections(s: Skirmish, seat: str) -> list[Field]:
    team = [s.units[k] for k in s.player(seat).units]
    span = field_range(s, seat)
    return [*_selections(tuple(u.character for u in team), tuple(u.character for u in team if u.boss),
                         span.start, span.stop)]


@lru_cache(maxsize=256)
def _selections(team: tuple[str, ...], boss: tuple[str, ...], low: int, high: int) -> tuple[Field, ...]:
    """Each pick of `low` to `high - 1` of the `team` characters, in team order, holding every
    one of `boss`: all a selection reads, so one team's picks are worked out once."""
    return tuple(Field(characters=pick) for n in range(low, high)
                 for pick in combinations(team, n) if all(b in pick for b in boss))


def combat_commands(s: Skirmish, seat: str) -> list[SkirmishCommand]:
    found: list[SkirmishCommand] = []
    units, near = sides(s, seat)
    foes = targetable_of(s, near, seat)
    moving, striking = may_each(s, units, "move"), may_each(s, units, "attack")
    # Loops, not comprehensions, over the few units of a side: they cost less.
    for unit, free in zip(units, moving):
        if free:
            found += walk_moves(s, unit, speed(s, unit))
    apart: list[list[int] | None] = []      # from each unit to each of `foes`, once asked
    for unit, free in zip(units, striking):
        far = None
        if free:        # `attackable`: the foes exactly at its reach
            far = distances(s, unit, foes)
            at = reach(s, unit)
            if at in far:
                found += [Attack(character=unit.character, target=t.key) for t, d in zip(foes, far) if d == at]
        apart.append(far)
    p = s.player(seat)
    allies = []
    for unit in units:
        allies.append(unit.key)
    cards, ap = content().cards, p.ap
    for card_id in sorted(set(p.hand)):
        card = cards[card_id]
        if card.cost <= ap:
            for i, unit in enumerate(units):
                if can_use(card, unit):
                    far = apart[i]
                    if far is None:
                        far = apart[i] = distances(s, unit, foes)
                    found += plays(s, seat, card, unit, allies, foes, far)
    found.append(_END)
    return found


def plays(s: Skirmish, seat: str, card: Card, user: Unit, allies: list[str], foes: list[Unit],
          apart: list[int]) -> list[SkirmishCommand]:
    """Every way `user` can play `card`: `allies` are the keys of the seat's units on the
    board, `foes` the opponents on the board it may target (`targetable_of`), `apart` how far
    each of them is from `user`."""
    exerts = (False, True) if card.keyword == "exert" and s.player(seat).max_ap >= 1 else (False,)
    targets: list[str | None]
    if card.target in ("self", "all_allies", "all_enemies"):
        targets = [None]
    elif card.target == "ally":
        targets = [*allies]
    else:
        targets = []
        for u, d in zip(foes, apart):
            if u.fielded and (card.range is None or d <= card.range):
                targets.append(u.key)
    found: list[SkirmishCommand] = []           # loops, not comprehensions: a card has few plays
    for t in targets:
        for x in exerts:
            found.append(Play(card=card.id, character=user.character, target=t, exert=x))
    return found


_END = EndTurn()
_KEEP = Mulligan()


def default_command(s: Skirmish, seat: str) -> SkirmishCommand:
    """The move for an awaited seat whose clock ran out (README, "seed silent: clocks"): end
    the turn in combat, keep the whole starting hand; field as many characters as the mode
    allows, the first in team order (the boss always); place the first unplaced character on
    the back tile of its zone. It reads only the seat's own team, hand and placements, so it
    tells nobody anything."""
    if s.phase == "select":
        picks = selections(s, seat)
        widest = max(len(p.characters) for p in picks)
        return next(p for p in picks if len(p.characters) == widest)
    if s.phase == "place":
        return Place(character=unplaced(s, seat)[0], cell=tuple(_back_tile(s, seat).to_wire()))
    if s.phase == "mulligan":
        return _KEEP
    return EndTurn()


def _back_tile(s: Skirmish, seat: str) -> Cell:
    """The seat's free deployment tile farthest from the opponent's zone (its back row), the
    first in reading order on a tie: the safest place to stand."""
    board = board_of(s)
    theirs = board.zone(opponent(seat))
    return min(free_zone(s, seat),
               key=lambda cell: (-min(board.grid.distance(cell, other) for other in theirs), cell))
