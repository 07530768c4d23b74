"""What a viewer sees of a skirmish: the board, every unit's numbers and effects, counts for
hidden piles, a seat's own hand and placements, and nothing of the opponent's secrets."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.engine.events import Viewer

from .board import board_of
from .legal import awaiting
from .resolver import reach, speed
from .state import SEATS, Skirmish, Unit


def view(s: Skirmish, viewer: Viewer) -> dict[str, Any]:
    board = board_of(s)
    return {
        "mode": s.mode, "phase": s.phase, "turn": s.turn, "round": s.round(), "active": s.active,
        "first_player": s.first_player, "awaiting": sorted(awaiting(s)),
        "board": {"id": board.id, "name": board.name, "width": board.grid.width, "height": board.grid.height},
        "params": msgspec.to_builtins(s.params),
        "tiles": tiles(s),
        "units": {key: unit_view(s, u) for key, u in s.units.items()},
        "seats": {seat: seat_view(s, seat, viewer) for seat in SEATS},
    }


def tiles(s: Skirmish) -> list[list[str]]:
    """Row 0 first: "" an open tile, "#" rock, "p1.ember" the unit standing there."""
    rows = [["#" if ch == "#" else "" for ch in line] for line in board_of(s).rows]
    for unit in s.units.values():
        if unit.on_board and unit.cell is not None:
            rows[unit.cell[1]][unit.cell[0]] = unit.key
    return rows


def unit_view(s: Skirmish, u: Unit) -> dict[str, Any]:
    return {
        "seat": u.seat, "character": u.character, "class": u.cls, "ranged": u.ranged, "boss": u.boss,
        "reach": reach(s, u), "speed": speed(s, u),
        "power": u.power, "armor": u.armor, "damage": u.damage, "talent": u.talent,
        "effects": [chip.kind for chip in u.chips], "fielded": u.fielded,
        "cell": list(u.cell) if u.cell is not None else None, "fainted": u.fainted, "returning": u.returning,
        "moved": u.moved, "attacked": u.attacked, "countered": u.countered,
    }


def seat_view(s: Skirmish, seat: str, viewer: Viewer) -> dict[str, Any]:
    p = s.player(seat)
    own = viewer.omniscient or viewer.seat == seat
    shown: dict[str, Any] = {
        "ap": p.ap, "max_ap": p.max_ap, "storm": p.storm,
        "deck_count": len(p.deck), "hand_count": len(p.hand), "hand": list(p.hand) if own else None,
        "discard": list(p.discard),
        "placed": sum(1 for key in s.placements if s.units[key].seat == seat),
        "placements": ({s.units[k].character: list(c) for k, c in s.placements.items() if s.units[k].seat == seat}
                       if own else None),
    }
    if s.choices is not None and seat in s.choices.awaiting:
        shown["locked"] = seat in s.choices.locked
    if viewer.omniscient:
        shown["deck"] = list(p.deck)
    return shown


def memory_known(view: Mapping[str, Any], seat: str) -> dict[str, Any]:
    """What a seat knows of the others' resources: their AP, Storm counter and pile sizes."""
    return {other: {k: part[k] for k in ("ap", "max_ap", "storm", "deck_count", "hand_count")}
            for other, part in view.get("seats", {}).items() if other != seat}
