"""What a seat knows of a battleboard battle, and battles consistent with it, for the `search`
bot (seed 002, Initiative: "a side's arrangement is hidden from the other side until both sides
have arranged").

Everything is open but one thing: while the sides arrange, where the other side placed its
combatants (`Battleboard.placed`). That it placed them is public (each `Placed` is seen, its
cell is not), so `knowledge(state, seat)` keeps each of the other side's placements with the
cell replaced by the mark `UNSEEN`; the seat's own side's placements, which its teammates share,
stay as they are. Builds, foes and the map are public from the start.

`determinize(knowledge, seat, rng)` puts each marked combatant, in order, on a cell drawn
uniformly from those its side could still place it on (`turns.free_cells`: its section, off
barriers and challenging terrain, not taken). Every other part of the state is the truth.
"""
from __future__ import annotations

from msgspec.structs import replace

from domain.engine.rng import Rng

from .state import Battleboard, Pos, side_of_seat
from .turns import free_cells

UNSEEN: Pos = (-1, -1)          # a placement whose cell the seat may not see


def knowledge(state: Battleboard, seat: str) -> Battleboard:
    """`state` as `seat` knows it: the other side's placements without their cells."""
    if not state.placed:
        return state
    side = side_of_seat(seat)
    placed = {k: cell if state.units[k].side == side else UNSEEN for k, cell in state.placed.items()}
    return state if placed == state.placed else replace(state, placed=placed)


def determinize(knowledge: Battleboard, seat: str, rng: Rng) -> Battleboard:
    """A full state `seat` could be in: each unseen placement on a free cell of its side's section."""
    drawn = knowledge
    for k, cell in knowledge.placed.items():
        if cell != UNSEEN:
            continue
        open_cells = free_cells(drawn, knowledge.units[k].side)
        drawn = replace(drawn, placed={**drawn.placed, k: rng.choice(open_cells)})
    return drawn
