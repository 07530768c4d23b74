"""Reading a skirmish view as the bots do: whose view it is, where the units stand, how far
they walk and strike, and how much damage each can still take."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Pos = tuple[int, int]
Unit = Mapping[str, Any]


def seat_of(view: Mapping[str, Any]) -> str:
    return next(s for s, part in view["seats"].items() if part.get("hand") is not None)


def gap(a: Sequence[int], b: Sequence[int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def reach(u: Unit) -> int:
    return int(u["reach"])


def speed(u: Unit) -> int:
    return int(u["speed"])


def present(u: Unit) -> bool:
    return bool(u["fielded"]) and u["cell"] is not None and not u["fainted"]


def cell(u: Unit) -> Pos:
    return (u["cell"][0], u["cell"][1])


def hp(u: Unit) -> int:
    """Damage the unit can still take before it faints (it faints past its armor)."""
    return int(u["armor"]) - int(u["damage"]) + 1


def walkable(tiles: list[list[str]], u: Unit, blocker: str) -> list[Pos]:
    """Where `u` can stand after walking its speed: not through rocks or `blocker`'s units."""
    start = cell(u)
    seen, frontier = {start}, [start]
    for _ in range(speed(u)):
        frontier = [x for c, r in frontier for x in ((c, r - 1), (c - 1, r), (c + 1, r), (c, r + 1))
                    if 0 <= x[1] < len(tiles) and 0 <= x[0] < len(tiles[0])
                    and tiles[x[1]][x[0]] != "#" and not tiles[x[1]][x[0]].startswith(f"{blocker}.")]
        frontier = [x for x in dict.fromkeys(frontier) if x not in seen]
        seen.update(frontier)
    return [c for c in seen if c == start or tiles[c[1]][c[0]] == ""]


def ring(at: Pos, dist: int, width: int, height: int) -> list[Pos]:
    cells = {(at[0] + dc, at[1] + sign * (dist - abs(dc))) for dc in range(-dist, dist + 1) for sign in (1, -1)}
    return sorted(c for c in cells if 0 <= c[0] < width and 0 <= c[1] < height)


_THREATS: dict[str, Any] = {"view": None}


def threatened(view: Mapping[str, Any], seat: str) -> dict[Pos, list[Unit]]:
    """For each tile, the opponents of `seat` able to strike it next turn: each walks its speed
    (not through `seat`'s units), then strikes exactly its reach. A Restrained one cannot (the
    view does not say who gave it, so a Channel's own Restraint, which ends as its user's turn
    starts, counts too). Read once per view: a bot scores every command from the same view."""
    if _THREATS["view"] is view and _THREATS["seat"] == seat:
        return dict(_THREATS["found"])
    tiles = view["tiles"]
    found: dict[Pos, list[Unit]] = {}
    for u in view["units"].values():
        if u["seat"] == seat or not present(u) or "restrained" in u["effects"]:
            continue
        for spot in {s for x in walkable(tiles, u, seat) for s in ring(x, reach(u), len(tiles[0]), len(tiles))}:
            found.setdefault(spot, []).append(u)
    _THREATS.update(view=view, seat=seat, found=found)
    return found
