"""Parses and validates a ring setup: two decks built under the Growth Points rules, each
seat's carried-over condition (LP, EXS), the battlefield and the params. Every error
names the offending field."""
from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import msgspec

from domain.engine.content import check_keys, error_path, new_inputs, seat_part
from domain.engine.content import parse_params as typed_params
from domain.engine.errors import SetupError
from domain.engine.parsed import SetupCache, Wanted

from .content import ATTRIBUTES, Content, content, Deck, DeckUnit
from .roster import MAX_LEVEL, equipped_pools, gp_spent
from .state import SEATS, Params

SEAT_KEYS = {"deck", "condition"}
DEFAULT_SETUP: dict[str, Any] = {"p1": {"deck": "ember_rush"}, "p2": {"deck": "iron_wall"}}


class RingSetup(msgspec.Struct, frozen=True, kw_only=True):
    params: Params
    decks: dict[str, Deck]
    condition: dict[str, dict[str, dict[str, int]]]    # seat -> unit -> {"lp", "exs"}
    battlefield: str | None = None


def _parse_setup(raw: Mapping[str, Any]) -> RingSetup:
    """The setup; params it leaves out take the defaults of the release in force."""
    check_keys(raw, {*SEATS, "params", "battlefield"})
    params = parse_params(raw.get("params", {}))
    battlefield = raw.get("battlefield")
    if battlefield is not None and battlefield not in content().battlefields:
        raise SetupError("battlefield", f"unknown battlefield {battlefield!r}; known: {', '.join(content().battlefields)}")
    decks, condition = {}, {}
    for seat in SEATS:
        seat_raw = seat_part(raw, seat, SEAT_KEYS, "a 'deck' (a preset name or a deck)")
        decks[seat] = parse_deck(f"{seat}.deck", seat_raw.get("deck"), params)
        condition[seat] = parse_condition(f"{seat}.condition", seat_raw.get("condition", {}), decks[seat])
    return RingSetup(params=params, decks=decks, condition=condition, battlefield=battlefield)


def _wanted(known: Content, setup: RingSetup) -> Wanted:
    """The content records a parse of `setup` read: the presets, leaders and battlefield, and
    each deck unit's record, equipment, priorities and items."""
    wanted: Wanted = [("decks", name) for name in known.decks]
    if setup.battlefield is not None:
        wanted.append(("battlefields", setup.battlefield))
    for deck in setup.decks.values():
        wanted.append(("leaders", deck.leader))
        for entry in deck.units:
            wanted.append(("units", entry.unit))
            if entry.equipment is not None:
                wanted.append(("equipment", entry.equipment))
            wanted += [("abilities", a) for a in entry.priorities]
        wanted += [("items", i) for i in deck.items]
    return wanted


# `_parse_setup`, once for the same inputs (`SetupCache` says what it keeps by).
parse_setup = SetupCache(_parse_setup, Params, content, _wanted)


def parse_params(raw: Any) -> Params:
    params = typed_params(raw, Params)
    if params.team_size > params.deck_units:
        raise SetupError("params.team_size", f"must be at most the deck size (deck_units {params.deck_units}), "
                                             f"not {params.team_size}")
    return params


def as_json(value: Any) -> Any:
    """JSON-shaped builtins (lists, not tuples), so a live event equals its decoded copy."""
    return msgspec.json.decode(msgspec.json.encode(value))


def deck_json(raw: Any) -> Any:
    """A preset name stands for that preset's deck (a copy of its own for each caller)."""
    if isinstance(raw, str) and raw in content().decks:
        return msgspec.json.decode(_preset(content(), raw))
    return raw


@lru_cache(maxsize=256)
def _preset(rules: Content, name: str) -> bytes:
    return msgspec.json.encode(rules.decks[name])


def parse_deck(field: str, raw: Any, params: Params) -> Deck:
    if isinstance(raw, str) and raw not in content().decks:
        raise SetupError(field, f"unknown deck preset {raw!r}; known: {', '.join(content().decks)}")
    raw = deck_json(raw)
    if not isinstance(raw, Mapping):
        raise SetupError(field, "must be a preset name or an object with 'leader', 'units' and 'items'")
    try:
        deck = msgspec.convert(raw, type=Deck)
    except msgspec.ValidationError as exc:
        path = error_path(str(exc))
        raise SetupError(f"{field}.{path}" if path else field, str(exc)) from None
    if deck.leader not in content().leaders:
        raise SetupError(f"{field}.leader", f"unknown leader {deck.leader!r}")
    if len(deck.units) != params.deck_units:
        raise SetupError(f"{field}.units", f"has {len(deck.units)} units; a deck has {params.deck_units}")
    seen: set[str] = set()
    leftover = 0
    for i, entry in enumerate(deck.units):
        where = f"{field}.units[{i}]"
        if entry.unit not in content().units:
            raise SetupError(f"{where}.unit", f"unknown unit {entry.unit!r}")
        if entry.unit in seen:
            raise SetupError(f"{where}.unit", f"{entry.unit} is already in the deck; units must be distinct")
        seen.add(entry.unit)
        leftover += check_growth(where, entry, params)
    for i, item in enumerate(deck.items):
        if item not in content().items:
            raise SetupError(f"{field}.items[{i}]", f"unknown item {item!r}")
    price = sum(content().items[i].price for i in deck.items)
    if price > leftover:
        raise SetupError(f"{field}.items", f"the items cost {price} GP; the deck has {leftover} GP left over")
    return deck


def check_growth(where: str, entry: DeckUnit, params: Params) -> int:
    """Seed 000, Spending Growth Points. Returns the GP this unit leaves for items."""
    spec = content().units[entry.unit]
    if entry.equipment is not None and entry.equipment not in content().equipment:
        raise SetupError(f"{where}.equipment", f"unknown equipment {entry.equipment!r}")
    for attr, gp in entry.growth.items():
        if attr not in ATTRIBUTES:
            raise SetupError(f"{where}.growth.{attr}", f"cannot grow {attr!r}; growable: {', '.join(ATTRIBUTES)}")
        if gp < 0:
            raise SetupError(f"{where}.growth.{attr}", "must not be negative")
    pools = {p.pool: p for p in equipped_pools(entry.unit, content().equipment.get(entry.equipment or ""))}
    for kind, bought in (("levels", entry.levels), ("slots", entry.slots)):
        for pool, amount in bought.items():
            if pool not in pools:
                raise SetupError(f"{where}.{kind}.{pool}", f"{entry.unit} has no {pool!r} pool")
            if amount < 0:
                raise SetupError(f"{where}.{kind}.{pool}", "must not be negative")
            if kind == "levels" and pools[pool].level + amount > MAX_LEVEL:
                raise SetupError(f"{where}.levels.{pool}", f"a pool level goes up to {MAX_LEVEL}")
            if kind == "slots" and amount > params.max_extra_slots:
                raise SetupError(f"{where}.slots.{pool}", f"at most {params.max_extra_slots} extra slots per pool")
    for j, ability in enumerate(entry.priorities):
        if ability not in content().abilities or content().abilities[ability].pool in ("leader",):
            raise SetupError(f"{where}.priorities[{j}]", f"unknown unit ability {ability!r}")
        # a second mention ranks nothing: it would only grow the deck
        if ability in entry.priorities[:j] and new_inputs():
            raise SetupError(f"{where}.priorities[{j}]", f"{ability} is already listed; each ability once")
    spent = gp_spent(entry, params)
    if spent > spec.gp:
        raise SetupError(where, f"spends {spent} GP; {entry.unit} has a budget of {spec.gp}")
    return spec.gp - spent


def parse_condition(field: str, raw: Any, deck: Deck) -> dict[str, dict[str, int]]:
    """What a set carries over: `{unit: {"lp": n, "exs": basis points}}`."""
    if not isinstance(raw, Mapping):
        raise SetupError(field, "must be an object of unit -> {lp, exs}")
    units = {e.unit for e in deck.units}
    out = {}
    for unit, cond in raw.items():
        if unit not in units:
            raise SetupError(f"{field}.{unit}", "is not a unit of this deck")
        if not isinstance(cond, Mapping) or set(cond) - {"lp", "exs"}:
            raise SetupError(f"{field}.{unit}", "must be an object with 'lp' and/or 'exs'")
        max_lp = content().units[unit].attributes["lp"]
        lp, exs = cond.get("lp", max_lp), cond.get("exs", 0)
        if not isinstance(lp, int) or isinstance(lp, bool) or not 0 <= lp <= max_lp:
            raise SetupError(f"{field}.{unit}.lp", f"must be an integer from 0 to {max_lp}")
        if not isinstance(exs, int) or isinstance(exs, bool) or not 0 <= exs <= 10_000:
            raise SetupError(f"{field}.{unit}.exs", "must be basis points from 0 to 10000")
        out[unit] = {"lp": lp, "exs": exs}
    return out


def seal_setup(raw: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """An inventory is its seat's secret: the public setup holds each deck without items."""
    public, sealed = dict(raw), {}
    for seat in SEATS:
        seat_raw = dict(raw[seat])
        deck = dict(deck_json(seat_raw["deck"]))
        sealed[seat] = {"items": list(deck.pop("items", []))}
        public[seat] = {**seat_raw, "deck": deck}
    return public, sealed


def unseal_setup(public: Mapping[str, Any], sealed: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    raw = dict(public)
    for seat, part in sealed.items():
        seat_raw = dict(raw[seat])
        raw[seat] = {**seat_raw, "deck": {**seat_raw["deck"], "items": list(part.get("items", []))}}
    return raw
