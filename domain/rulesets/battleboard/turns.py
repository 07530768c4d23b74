"""Seed 002, Initiative, Sides and Turns, Movement and Battle Board: the order of play, the
arrangement, each side's turn from its start-of-turn tokens to snap-back, and taking a row."""
from __future__ import annotations

from domain.engine.errors import RuleViolation

from . import events as ev
from .board import hazard_paid, in_section, placeable, snap_target, step_to
from .commands import Move
from .resolver import BoardResolver, lose_token
from .state import HEROES, Battleboard, Combatant, other, side_of_seat
from .steps import NEGATIVE_ORDER


def choose(b: BoardResolver, seat: str, go: str) -> None:
    s = b.state
    if s.phase != "order":
        raise RuleViolation("the order of play has been chosen")
    if go not in ("first", "second"):
        raise RuleViolation(f"go: first or second, not {go!r}")
    if side_of_seat(seat) != s.winner:
        raise RuleViolation(f"the {s.winner} won the initiative and choose the order")
    winner = s.winner or HEROES
    first = winner if go == "first" else other(winner)
    b.emit(ev.OrderChosen(seat=seat, go=go, first=first))


def unplaced(s: Battleboard, seat: str) -> list[Combatant]:
    if s.phase != "arrange" or side_of_seat(seat) != s.arranging:
        return []
    return [u for u in s.seat_units(seat) if u.id not in s.placed]


def free_cells(s: Battleboard, side: str) -> list[tuple[int, int]]:
    """Where the arranging side may still place: its section, off barriers and challenging
    terrain, not on a cell its side has taken."""
    taken = {cell for key, cell in s.placed.items() if s.units[key].side == side}
    return [(c, r) for r in range(s.params.height) for c in range(s.params.width)
            if in_section(s, side, (c, r)) and placeable(s, (c, r)) and (c, r) not in taken]


def place(b: BoardResolver, seat: str, unit_id: str, cell: tuple[int, int]) -> None:
    s = b.state
    if unit_id not in {u.id for u in unplaced(s, seat)}:
        raise RuleViolation(f"{unit_id!r} is not one of your combatants waiting to be arranged", unit=unit_id)
    if cell not in free_cells(s, side_of_seat(seat)):
        raise RuleViolation(f"{list(cell)} is not a free cell of your section (and not a barrier or challenging)")
    b.emit(ev.Placed(seat=seat, unit=unit_id, cell=cell, team=list(s.seats_of(side_of_seat(seat)))))
    s = b.state
    if any(u.id not in s.placed for u in s.living(s.arranging or HEROES)):
        return
    if s.arranging != s.first:
        b.emit(ev.ArrangingBegan(side=s.first or HEROES))
        return
    b.emit(ev.ArrangementRevealed(cells={k: list(p) for k, p in s.placed.items()}))
    begin_turn(b, s.first or HEROES, half=True, row_open=None)


def begin_turn(b: BoardResolver, side: str, *, half: bool, row_open: int | None) -> None:
    s = b.state
    opening = side == s.first
    number = s.round + (1 if opening else 0)
    if number > s.params.round_limit:
        b.emit(ev.CombatEnded(winner=None, reason=f"still undecided after {s.params.round_limit} rounds"))
        return
    b.emit(ev.TurnBegan(side=side, round=number, turn=s.turn + 1, half=half, row_open=row_open))
    for stance in [x for x in b.state.stances if b.state.units[x.owner].side == side]:
        b.emit(ev.StanceEnded(unit=stance.owner, stance=stance.kind))
    for unit in b.state.living(side):
        ready(b, unit.id, half)
        if b.over:
            return


def ready(b: BoardResolver, key: str, half: bool) -> None:
    """A combatant's start of turn, one token at a time: Heroic first, then Hobbled and Stunned
    shape the turn, focus comes in, Poisoned costs a token, and fatigue its toll."""
    u = b.state.units[key]
    p = b.state.params
    mp, slots = u.speed, p.half_turn_actions if half else p.actions
    if u.tokens:            # with no token to spend, the turn is shaped by the stats alone
        negative = next((t for t in NEGATIVE_ORDER if u.count(t)), None)
        if u.count("heroic") and negative is not None:
            b.emit(ev.TokenSpent(unit=key, token="heroic", reason="used"))
            b.emit(ev.TokenSpent(unit=key, token=negative, reason="eliminated by heroic"))
        u = b.state.units[key]
        mp = u.speed - u.count("hobbled")
        if u.count("hobbled"):
            b.emit(ev.TokenSpent(unit=key, token="hobbled", reason="used"))
        if u.count("stunned"):
            slots = 1
            b.emit(ev.TokenSpent(unit=key, token="stunned", reason="used"))
    b.emit(ev.Readied(unit=key, mp=max(0, mp), focus=focus_at_start(b.state, u), slots=slots, teleport=u.teleport))
    if b.state.units[key].count("poisoned"):
        lose_token(b, key, "poisoned")
        if not b.state.units[key].defeated:
            b.emit(ev.TokenSpent(unit=key, token="poisoned", reason="used"))
    for _ in range(b.state.fatigue()):          # `Params.fatigue_toll`
        if b.over or b.state.units[key].defeated:
            return
        lose_token(b, key, "fatigue")


def focus_at_start(s: Battleboard, u: Combatant) -> int:
    """Focus: the combatant gains its Focus stat, and keeps at most `focus_bank` times the stat
    (README). Under 1.0.0's rules (`focus_capped` off) focus already above that was kept."""
    gained = min(u.focus + u.focus_stat, u.focus_stat * s.params.focus_bank)
    return gained if s.rules.focus_capped else max(u.focus, gained)


def move(b: BoardResolver, seat: str, cmd: Move, unit: Combatant) -> None:
    to = (cmd.to[0], cmd.to[1])
    found = step_to(b.state, unit, to)
    if found is None:
        raise RuleViolation(f"{unit.name} cannot move to {list(to)} now: a step goes to a free next cell it can "
                            f"afford ({unit.mp} movement points left), or a teleport jump straight across",
                            to=list(to), mp=unit.mp)
    cost, skipped = found
    b.emit(ev.Moved(seat=seat, unit=unit.id, to=to, cost=cost, skipped=skipped))
    if hazard_paid(b.state, b.state.units[unit.id], to):
        lose_token(b, unit.id, "hazardous")


def convert(b: BoardResolver, seat: str, unit: Combatant) -> None:
    if unit.focus < 1:
        raise RuleViolation(f"{unit.name} has no focus to convert into movement")
    b.emit(ev.Converted(seat=seat, unit=unit.id, mp=b.state.params.focus_movement))


def end_turn(b: BoardResolver, seat: str) -> None:
    """The seat's combatants are done: each snaps back unless it ends in its own section (and
    not on an ally). When every seat of the side is done, the side's turn ends, and with it the
    movement types its move actions gave ("this turn", under `granted_lapse`)."""
    if not b.state.taking_turn(seat):
        raise RuleViolation(f"{seat} is not taking a turn now")
    b.emit(ev.SeatDone(seat=seat))
    for unit in b.state.seat_units(seat):
        to = snap_target(b.state, unit)
        if to != unit.cell:
            b.emit(ev.SnappedBack(unit=unit.id, to=list(to)))
    s = b.state
    side = s.active or HEROES
    if any(u.seat not in s.done for u in s.living(side)):
        return
    if s.rules.granted_lapse:
        for u in s.living(side):
            if u.granted or u.lifted:
                b.emit(ev.MovementLapsed(unit=u.id, movement=[*u.granted, *(["lift"] if u.lifted else [])]))
    b.emit(ev.TurnEnded(side=side))
    begin_turn(b, other(side), half=False, row_open=open_row(b.state, side))


def open_row(s: Battleboard, side: str) -> int | None:
    """Battle Board: the row of `side`'s section next to the enemy, if it left it empty and
    would keep at least `min_section_rows` rows."""
    rows = range(0, s.border) if side == HEROES else range(s.border, s.params.height)
    if len(rows) <= s.params.min_section_rows:
        return None
    row = rows[-1] if side == HEROES else rows[0]
    return None if any(u.cell is not None and u.cell[1] == row for u in s.living(side)) else row


def advance(b: BoardResolver, seat: str) -> None:
    s = b.state
    if not s.taking_turn(seat):
        raise RuleViolation("a row is taken during your side's turn")
    if s.row_open is None:
        raise RuleViolation("no row to take: the enemy did not leave the row next to your section empty")
    side = side_of_seat(seat)
    border = s.border + 1 if side == HEROES else s.border - 1
    b.emit(ev.RowTaken(seat=seat, side=side, row=s.row_open, border=border))
