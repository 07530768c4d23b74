"""What a viewer sees of a ring battle. Team and Ring picks show only to their own seat
until both sides lock (the preview advantage shows a team to the initiative winner);
an inventory shows only to its seat. Everything else is public."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.engine.events import Viewer

from .content import content
from .legal import awaiting
from .moves import active_effects
from .roster import loadout
from .state import COMBAT, SEATS, Fighter, Ring, opponent


def view(s: Ring, viewer: Viewer) -> dict[str, Any]:
    live = {e.owner for e in active_effects(s)}
    return {
        "phase": s.phase, "turn_number": s.turn, "active": s.active, "awaiting": sorted(awaiting(s)),
        "initiative": s.initiative, "advantage": s.advantage, "battlefield": s.battlefield,
        "swap_required": s.swap_required,
        "time_limit": list(s.time_limit) if s.time_limit else None, "max_turns": s.params.max_turns,
        "seats": {seat: side_view(s, seat, viewer) for seat in SEATS},
        "dynamics": [{"id": d.id, "kind": d.kind, "name": content().dynamics[d.kind].name, "source": d.source,
                      "seat": d.seat, "unit": d.unit, "target": d.target, "severity": d.severity,
                      "active": d.id in live, "removable": d.removable} for d in s.dynamics],
    }


def side_view(s: Ring, seat: str, viewer: Viewer) -> dict[str, Any]:
    side = s.side(seat)
    own = viewer.omniscient or viewer.seat == seat
    leader = content().leaders[side.leader]
    shown: dict[str, Any] = {
        "leader": {"id": leader.id, "name": leader.name, "hp": side.leader_hp, "max_hp": side.leader_max_hp,
                   "ap": side.ap, "max_ap": side.max_ap, "swap_cost": leader.swap_cost,
                   "item_cost": leader.item_cost, "abilities": list(leader.abilities)},
        "deck": list(side.deck), "team": list(side.team), "ring": side.ring,
        "items": list(side.items) if own else None,
        "units": {key: fighter_view(s, s.units[key], side.ring) for key in side.deck},
    }
    if s.choices is not None and seat in s.choices.awaiting:
        locked = s.choices.locked.get(seat)
        shown["picked"] = locked is not None
        previewed = s.pick_sequential and viewer.seat == opponent(seat) and s.choices.kind == "pick_team"
        shown["pick"] = locked if locked is not None and (own or previewed) else None
    return shown


def fighter_view(s: Ring, f: Fighter, ring: str | None) -> dict[str, Any]:
    off = s.disabled_equipment(f.key)
    return {
        "unit": f.unit, "name": content().units[f.unit].name, "hp": f.hp, "max_hp": f.max_hp, "mp": f.mp,
        "max_mp": f.max_mp, "lp": f.lp, "max_lp": f.max_lp, "exs": f.exs,
        "seat": f.seat, "stats": {a: f.stat(a) for a in COMBAT}, "aug": dict(f.aug), "tags": list(f.tags),
        "pools": [{"pool": p.pool, "level": p.level, "slots": p.slots} for p in f.pools],
        "abilities": list(loadout(f)), "equipment": f.equipment,
        "equipment_disabled": {"turns": off.turns} if off else None, "ko": f.ko, "removed": f.removed,
        "in_ring": f.key == ring, "hits": f.hits,
    }


def memory_known(v: Mapping[str, Any], seat: str) -> dict[str, Any]:
    """What a seat knows of the other side's resources: leader HP and AP, the Ring unit's
    HP and MP, which items it has used is in the action log."""
    known = {}
    for other, side in v["seats"].items():
        if other == seat:
            continue
        ring = side["units"].get(side["ring"]) if side["ring"] else None
        known[other] = {"leader_hp": side["leader"]["hp"], "ap": side["leader"]["ap"], "ring": side["ring"],
                        "ring_hp": ring["hp"] if ring else None, "ring_mp": ring["mp"] if ring else None}
    return known
