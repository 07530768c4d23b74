"""Parses and validates a rat setup; every error names the offending field.

`{"party": [{member, evs?, equipment?, moves?, items?, hp?}, ...], "formation": id or
[ids], "stage"?, "enemy_ai"?, "enemy_seat"?, "params"?}`. The party's details are its
seat's secret (sealed); who is in the party is public.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.engine.content import PARAM_MAX, check_keys, parse_params
from domain.engine.errors import SetupError
from domain.engine.parsed import SetupCache, Wanted
from domain.engine.table import Table

from .content import AI_LEVELS, SLOT_KINDS, Content, content
from .state import ENEMIES, PARTY, Params, Stack

PARTY_SEAT, ENEMY_SEAT = "p1", "p2"
EV_STATS = ("hp", "atk", "def", "spd")
MEMBER_KEYS = {"member", "evs", "equipment", "moves", "items", "hp"}


class MemberSetup(msgspec.Struct, frozen=True, kw_only=True):
    member: str
    evs: dict[str, int]
    equipment: tuple[str, ...]
    moves: tuple[str, ...]
    items: dict[str, Stack]
    hp: int | None = None           # carried over from the set's previous battle


class RatSetup(msgspec.Struct, frozen=True, kw_only=True):
    params: Params
    party: tuple[MemberSetup, ...]
    formation: str
    route: tuple[str, ...]
    stage: int
    enemy_ai: str | None
    enemy_seat: bool


DEFAULT_SETUP: dict[str, Any] = {
    "party": [
        {"member": "mc", "evs": {"hp": 4, "atk": 4, "spd": 2}, "equipment": ["long_night_knife", "leather_jacket"],
         "items": {"potion": {"count": 2, "durability": 3}}},
        {"member": "rat", "evs": {"spd": 6, "atk": 6}, "equipment": ["mouse_sized_cheese", "ember_ring"],
         "items": {"smelling_salts": {"count": 1, "durability": 3}}},
        {"member": "girl", "evs": {"hp": 6, "def": 6}, "equipment": ["small_backpack"],
         "items": {"potion": {"count": 3, "durability": 3}, "stutter_potion": {"count": 1, "durability": 2},
                   "antidote": {"count": 1, "durability": 3}}},
        {"member": "prof", "evs": {"atk": 5, "def": 5}, "equipment": ["varifocal_glasses", "regen_scarf"],
         "items": {"bomb": {"count": 1, "durability": 3}}},
    ],
    "formation": "sewer_ambush",
}


def _wanted(known: Content, setup: RatSetup) -> Wanted:
    """The content records a parse of `setup` read: the route's formations, and each member's
    record, equipment and consumables."""
    wanted: Wanted = [("formations", f) for f in setup.route]
    for m in setup.party:
        wanted.append(("members", m.member))
        wanted += [("equipment", e) for e in m.equipment]
        wanted += [("actions", i) for i in m.items]
    return wanted


def _parse_setup(raw: Mapping[str, Any]) -> RatSetup:
    check_keys(raw, {"party", "formation", "stage", "enemy_ai", "enemy_seat", "params"})
    params = parse_params(raw.get("params", {}), Params)
    if not 1 <= params.max_party <= 6 or not 1 <= params.max_moves <= 8:
        raise SetupError("params.max_party", "max_party must be 1..6 and max_moves 1..8")
    if not 1 <= params.roll_min_pct <= 100 or params.defense_scale < 1 or params.max_turns < 1:
        raise SetupError("params", "roll_min_pct must be 1..100, defense_scale and max_turns at least 1")
    route = _route(raw.get("formation", DEFAULT_SETUP["formation"]))
    stage = raw.get("stage", 0)
    if not isinstance(stage, int) or isinstance(stage, bool) or not 0 <= stage <= PARAM_MAX:
        raise SetupError("stage", f"must be an integer 0..{PARAM_MAX}")
    enemy_ai = raw.get("enemy_ai")
    if enemy_ai is not None and enemy_ai not in AI_LEVELS:
        raise SetupError("enemy_ai", f"must be one of {', '.join(AI_LEVELS)} or null")
    enemy_seat = raw.get("enemy_seat", False)
    if not isinstance(enemy_seat, bool):
        raise SetupError("enemy_seat", "must be true (a second seat plays the enemies) or false")
    party_raw = raw.get("party", DEFAULT_SETUP["party"])
    if not isinstance(party_raw, list) or not 1 <= len(party_raw) <= params.max_party:
        raise SetupError("party", f"must list 1..{params.max_party} members")
    party = tuple(parse_member(f"party[{i}]", m, params) for i, m in enumerate(party_raw))
    names = [m.member for m in party]
    if len(set(names)) != len(names):
        raise SetupError("party", "lists a member twice")
    return RatSetup(params=params, party=party, formation=route[stage % len(route)], route=route, stage=stage,
                    enemy_ai=enemy_ai, enemy_seat=enemy_seat)


# `_parse_setup`, once for the same inputs (`SetupCache` says what it keeps by).
parse_setup = SetupCache(_parse_setup, Params, content, _wanted)


def _route(raw: Any) -> tuple[str, ...]:
    route = [raw] if isinstance(raw, str) else raw
    if not isinstance(route, list) or not route or len(route) > 64:
        raise SetupError("formation", "must be a formation id or a list of 1..64 of them (a set's route)")
    formations = content().formations
    for i, fid in enumerate(route):
        if fid not in formations:
            field = "formation" if isinstance(raw, str) else f"formation[{i}]"
            raise SetupError(field, f"unknown formation {fid!r}; known: {', '.join(formations)}")
    return tuple(route)


def parse_member(path: str, raw: Any, params: Params) -> MemberSetup:
    if not isinstance(raw, Mapping):
        raise SetupError(path, "must be an object with a 'member'")
    unknown = set(raw) - MEMBER_KEYS
    if unknown:
        raise SetupError(f"{path}.{sorted(unknown)[0]}", "unknown field")
    name = raw.get("member")
    members = content().members
    member = members.get(name) if isinstance(name, str) else None
    if member is None:
        raise SetupError(f"{path}.member", f"unknown member {raw.get('member')!r}; known: {', '.join(members)}")
    evs = _evs(f"{path}.evs", raw.get("evs", {}), member.ev_budget, params)
    equipment = _equipment(f"{path}.equipment", raw.get("equipment", []), member.id)
    moves = _moves(f"{path}.moves", raw.get("moves", list(member.default_moves)), member.moves, params)
    slots = member.consumable_slots + sum(content().equipment[e].consumable_slots for e in equipment)
    items = _items(f"{path}.items", raw.get("items", {}), slots, params)
    hp = raw.get("hp")
    if hp is not None and (not isinstance(hp, int) or isinstance(hp, bool) or not 1 <= hp <= PARAM_MAX):
        raise SetupError(f"{path}.hp", "must be a positive integer (the HP carried over), or absent")
    return MemberSetup(member=member.id, evs=evs, equipment=equipment, moves=moves, items=items, hp=hp)


def _int(path: str, value: Any, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise SetupError(path, f"must be an integer {lo}..{hi}")
    return value


def _evs(path: str, raw: Any, budget: int, params: Params) -> dict[str, int]:
    """Seed 003, Stats: 0..15 EV per stat, within the member's fixed budget."""
    if not isinstance(raw, Mapping):
        raise SetupError(path, "must map hp, atk, def, spd to EV points")
    for key in raw:
        if key not in EV_STATS:
            raise SetupError(f"{path}.{key}", f"unknown stat; EVs go to {', '.join(EV_STATS)}")
    evs = {k: _int(f"{path}.{k}", raw[k], 0, params.ev_max) for k in EV_STATS if k in raw}
    if sum(evs.values()) > budget:
        raise SetupError(path, f"allocates {sum(evs.values())} EV points; the budget is {budget}",)
    return evs


def _equipment(path: str, raw: Any, member_id: str) -> tuple[str, ...]:
    """Seed 003, Equipment Slots: per kind no more than the member's slots; a special item
    only in its own member's special slot."""
    member = content().members[member_id]
    if not isinstance(raw, list):
        raise SetupError(path, "must be a list of equipment ids")
    used = dict.fromkeys(SLOT_KINDS, 0)
    for i, item_id in enumerate(raw):
        item = content().equipment.get(item_id) if isinstance(item_id, str) else None
        if item is None:
            raise SetupError(f"{path}[{i}]", f"unknown equipment {item_id!r}")
        used[item.kind] += 1
        if item.kind == "special":
            if item.only != member_id or item.special != member.special:
                raise SetupError(f"{path}[{i}]", f"{item.name} can only be worn by {item.only or 'nobody'}")
            limit = 1
        else:
            limit = member.slots.get(item.kind, 0)
        if used[item.kind] > limit:
            raise SetupError(f"{path}[{i}]", f"{member.name} has {limit} {item.kind} slot(s)")
    return tuple(raw)


def _moves(path: str, raw: Any, learnable: tuple[str, ...], params: Params) -> tuple[str, ...]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= params.max_moves:
        raise SetupError(path, f"must list 1..{params.max_moves} moves")
    for i, move in enumerate(raw):
        if move not in learnable:
            raise SetupError(f"{path}[{i}]", f"not a move this member learns; learnable: {', '.join(learnable)}")
    if len(set(raw)) != len(raw):
        raise SetupError(path, "lists a move twice")
    return tuple(raw)


def _items(path: str, raw: Any, slots: int, params: Params) -> dict[str, Stack]:
    """Consumables: one kind per slot, stacked up to `stack_size`, each stack with the
    durability it has left (seed 003, Consumables)."""
    if not isinstance(raw, Mapping) or len(raw) > slots:
        raise SetupError(path, f"must map at most {slots} consumable ids (this member's slots) to stacks")
    items = {}
    for item_id, stack in raw.items():
        action = content().actions.get(item_id)
        if action is None or action.kind != "consumable":
            raise SetupError(f"{path}.{item_id}", "unknown consumable")
        if not isinstance(stack, Mapping) or set(stack) - {"count", "durability"} or "count" not in stack:
            raise SetupError(f"{path}.{item_id}", "must be {count, durability}")
        items[item_id] = Stack(count=_int(f"{path}.{item_id}.count", stack["count"], 1, params.stack_size),
                               durability=_int(f"{path}.{item_id}.durability", stack.get("durability", 3),
                                               0, PARAM_MAX))
    return items


def table(setup: Mapping[str, Any]) -> Table:
    """The party's seat against the enemies: the rules' AI, or a second seat."""
    enemies: tuple[str, ...] = (ENEMY_SEAT,) if setup.get("enemy_seat") is True else ()
    return Table(sides=((PARTY, (PARTY_SEAT,)), (ENEMIES, enemies)))


def seal_setup(raw: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The party's EVs, equipment, moves and consumables are its seat's secret; who is in
    the party is public."""
    public = dict(raw)
    if "party" not in raw:
        return public, {}
    public["party"] = [{"member": m.get("member")} for m in raw["party"]]
    return public, {PARTY_SEAT: {"party": list(raw["party"])}}


def unseal_setup(public: Mapping[str, Any], sealed: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    raw = dict(public)
    if PARTY_SEAT in sealed and "party" in sealed[PARTY_SEAT]:
        raw["party"] = list(sealed[PARTY_SEAT]["party"])
    return raw
