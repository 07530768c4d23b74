"""What each viewer sees (seed 003, In-Battle UI and AI).

- A side sees its own entities whole: exact HP, stats, levels, moves and PP, consumables,
  equipment, and its own plans for the turn.
- Everyone sees the party's HP and max HP (the enemy AI reads them), every entity's
  non-zero stat levels, priority, ailments with their turns left, and the priority queue.
- An enemy's HP reaches nobody but its own side; ANALYZE shows everyone its bar (a whole
  percent), and with glasses its exact SPD or every move's PP.
- The PP of a move used at least once is public.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.engine.events import Viewer

from .content import content
from .legal import waiting
from .state import ENEMIES, PARTY, Entity, Rat
from .stats import NEG_INF, POS_INF, fraction_pct, stat

ALL = "all"


def view(s: Rat, viewer: Viewer) -> dict[str, Any]:
    side = ALL if viewer.omniscient else (s.seat_side(viewer.seat) if viewer.seat else None)
    return side_view(s, side)


def side_view(s: Rat, side: str | None) -> dict[str, Any]:
    """The view of one side (PARTY or ENEMIES, played by a seat or by the rules' AI), of
    everyone (ALL), or of a spectator (None)."""
    out: dict[str, Any] = {
        "turn": s.turn, "formation": s.formation,
        "queue": [k for k in s.order if s.entities[k].alive], "acted": list(s.acted),
        "party": [entity_view(s, e, side) for e in s.side(PARTY)],
        "enemies": [entity_view(s, e, side) for e in s.side(ENEMIES)],
        "result": None if s.result is None else {"winner": s.result[0], "reason": s.result[1]},
    }
    if side in (PARTY, ENEMIES):
        out["side"] = side
        first = waiting(s, side)
        out["to_choose"] = first[0] if first else None
        out["plans"] = {k: _plan(p) for k, p in s.plans.items() if s.entities[k].side == side}
    elif side == ALL:
        out["plans"] = {k: _plan(p) for k, p in s.plans.items()}
    return out


def _plan(p: Any) -> dict[str, Any]:
    return {"action": p.action, "target": p.target, "move": p.move}


def _num(value: int) -> int | str:
    return "+inf" if value >= POS_INF else "-inf" if value <= NEG_INF else value


def entity_view(s: Rat, e: Entity, side: str | None) -> dict[str, Any]:
    own = side == ALL or side == e.side
    analyzed = next((x.source.split(":", 1)[1] for x in s.statuses(e.id) if x.kind == "analyzed"), None)
    out: dict[str, Any] = {
        "id": e.id, "name": e.name, "kind": e.kind, "priority": e.priority + e.boost,
        "levels": dict(e.levels) if own else {k: v for k, v in e.levels.items() if v},
        "ailments": ailments(s, e), "ko": e.ko, "dead": e.dead,
        "protected": s.has(e.id, "protected"),
        "wish": sum(x.severity for x in s.statuses(e.id) if x.kind == "wish") or None,
        "moves": {m: pp for m, pp in e.moves.items() if own or m in e.used or analyzed == "varifocal"},
        "intrinsic": list(e.intrinsic),
    }
    if e.side == ENEMIES:
        out["ai"] = e.ai
        out["analyzed"] = analyzed is not None
        out["hp_pct"] = fraction_pct(e) if analyzed is not None or side == ALL else None
    if own or e.side == PARTY:
        out["hp"], out["max_hp"] = e.hp, e.max_hp
    if own or analyzed == "speed":
        out["spd"] = _num(stat(s, e, "spd"))
    if own:
        out["atk"], out["def"] = _num(stat(s, e, "atk")), _num(stat(s, e, "def"))
        out["max_pp"] = dict(e.max_pp)
        out["items"] = {k: {"count": v.count, "durability": v.durability} for k, v in e.items.items()}
        out["equipment"] = list(e.equipment)
    return out


def ailments(s: Rat, e: Entity) -> list[dict[str, Any]]:
    """Each ailment as a chip: its turns left (None: until cured), KNOCKED_OUT first."""
    chips: list[dict[str, Any]] = [{"kind": "knocked_out", "left": None}] if e.ko else []
    for x in s.statuses(e.id):
        if x.source == "ailment":
            duration = content().ailments[x.kind].duration
            chips.append({"kind": x.kind, "left": max(0, duration - x.turns) if duration else None})
    return chips


def memory_known(view: Mapping[str, Any], seat: str) -> dict[str, Any]:
    """What a seat knows of the other side's resources: the PP of the moves it has seen used."""
    other = "enemies" if view.get("side") == PARTY else "party"
    return {e["id"]: dict(e["moves"]) for e in view.get(other, [])}
