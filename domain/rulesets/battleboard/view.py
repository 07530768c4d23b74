"""What each viewer sees. Battleboard is a game of open information once the sides have
arranged; until then a side's placements are seen by that side's seats only."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.engine.events import Seat, Viewer

from .board import level, reach, section_rows, terrain
from .hooks import defense_of, evasion_of
from .state import Battleboard, Combatant, side_of_seat


def view(s: Battleboard, viewer: Viewer) -> dict[str, Any]:
    sees = {u.side for u in s.units.values()} if viewer.omniscient else \
        {side_of_seat(viewer.seat)} if viewer.seat else set()
    return {
        "map": s.map,
        "params": msgspec.to_builtins(s.params),
        "tiles": [[{"terrain": terrain(s, (c, r)), "level": level(s, (c, r))} for c in range(s.params.width)]
                  for r in range(s.params.height)],
        "border": s.border,
        "sections": {side: [rows.start, rows.stop - 1] for side in ("heroes", "foes")
                     if (rows := section_rows(s, side))},
        "phase": s.phase, "round": s.round, "turn": s.turn, "active": s.active, "half": s.half,
        "fatigue": s.fatigue(),
        "initiative": s.winner, "first": s.first, "arranging": s.arranging,
        "done": list(s.done), "row_open": s.row_open,
        "combatants": [_unit(s, u, sees) for u in s.units.values()],
        "stances": [{"unit": x.owner, "stance": x.kind, "amount": x.severity} for x in s.stances],
        "waiting_defense": None if s.plan is None else {
            "unit": s.plan.target, "attacker": s.plan.attacker, "action": s.plan.action, "av": s.plan.av},
        "last_attack": s.last_attack,
        "result": None if s.ended is None else {"winner": s.ended[0], "reason": s.ended[1]},
    }


def _unit(s: Battleboard, u: Combatant, sees: set[str]) -> dict[str, Any]:
    cell = u.cell
    if cell is None and u.id in s.placed and u.side in sees:
        cell = s.placed[u.id]
    return {
        "id": u.id, "name": u.name, "side": u.side, "seat": u.seat, "rank": u.rank,
        "cell": list(cell) if cell else None, "defeated": u.defeated,
        "placed": u.cell is not None or (u.id in s.placed and u.side in sees),
        "speed": u.speed, "evasion": evasion_of(s, u), "defense": defense_of(s, u), "resilience": u.resilience,
        "focus_stat": u.focus_stat, "energy_stat": u.energy_stat,
        "untapped": u.untapped, "tapped": u.tapped, "untaps_left": s.untaps_left(u.id),
        "tokens": dict(sorted(u.tokens.items())),
        "focus": u.focus, "energy": u.energy, "mp": u.mp, "teleport": u.teleport_left,
        "movement": sorted({*u.movement, *u.granted}), "lifted": u.lifted,
        "actions": list(u.actions), "taken": list(u.taken), "slots": u.slots, "doubled": u.doubled,
        "path": [list(p) for p in u.path], "build": u.build,
        "reach": [list(p) for p in reach(s, u)] if u.mp and s.active == u.side and u.cell else [],
    }


def memory_known(view: Mapping[str, Any], seat: Seat) -> dict[str, Any]:
    """What the seat knows of every other combatant's resources: all of it is open."""
    return {u["id"]: {"untapped": u["untapped"], "tapped": u["tapped"], "focus": u["focus"], "energy": u["energy"]}
            for u in view.get("combatants", ()) if u["seat"] != seat}
