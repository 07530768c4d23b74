"""From a deck entry to a unit in battle: equipment, Growth Points, pools, slots and the
abilities that fill them (seed 000, Deck Construction)."""
from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from .content import ATTRIBUTES, Content, DeckUnit, Equipment, content
from .formulas import exhausted
from .state import COMBAT, Fighter, Params, PoolSlot, pool_gained

MAX_LEVEL = 3


def equipped_base(unit_id: str, equipment: Equipment | None, variation: Mapping[str, int]) -> dict[str, int]:
    """Equipment raises the BASE that growth multiplies (seed 000, Equipment Attributes);
    linear variation, when on, shifts the unit's own numbers first."""
    rules = content()
    if not variation and (equipment is None or rules.equipment.get(equipment.id) is equipment):
        # the common case, the same for every battle under one content: kept (a copy handed out)
        return dict(_kept_base(rules, unit_id, equipment.id if equipment is not None else None))
    return _base(rules, unit_id, equipment, variation)


@lru_cache(maxsize=4096)
def _kept_base(rules: Content, unit_id: str, equipment_id: str | None) -> dict[str, int]:
    return _base(rules, unit_id, rules.equipment[equipment_id] if equipment_id is not None else None, {})


def _base(rules: Content, unit_id: str, equipment: Equipment | None, variation: Mapping[str, int]) -> dict[str, int]:
    spec = rules.units[unit_id]
    base = {}
    for attr in ATTRIBUTES:
        own = spec.attributes[attr] * (10_000 + variation.get(attr, 0)) // 10_000     # floored, exactly
        base[attr] = own + (equipment.attributes.get(attr, 0) if equipment else 0)
    return base


def grown(base: Mapping[str, int], growth: Mapping[str, int], params: Params) -> dict[str, int]:
    """Each GP grows an attribute by a percentage of its base, rounded down once."""
    return {a: v * (10_000 + params.gp_growth_bp * growth.get(a, 0)) // 10_000 for a, v in base.items()}


# A pool as equipment shapes it, with the unit's own pools it stands for: itself, the two
# a replacement merged, or none for a pool the equipment added.
Shaped = tuple[PoolSlot, tuple[PoolSlot, ...]]


def equipped_pools(unit_id: str, equipment: Equipment | None) -> list[PoolSlot]:
    """Seed 000, Add, Replace, or Upgrade Ability Pools."""
    return [slot for slot, _ in _shaped(unit_id, equipment)]


def _shaped(unit_id: str, equipment: Equipment | None) -> tuple[Shaped, ...]:
    # The same every time for a unit and its equipment under one content (asked for each deck
    # unit when a setup is checked and again when its battle starts): kept by their ids.
    rules = content()
    if equipment is not None and rules.equipment.get(equipment.id) is not equipment:
        return _shape(rules, unit_id, equipment)        # equipment from elsewhere: not kept
    return _kept_shape(rules, unit_id, equipment.id if equipment is not None else None)


@lru_cache(maxsize=4096)
def _kept_shape(rules: Content, unit_id: str, equipment_id: str | None) -> tuple[Shaped, ...]:
    return _shape(rules, unit_id, rules.equipment[equipment_id] if equipment_id is not None else None)


def _shape(rules: Content, unit_id: str, equipment: Equipment | None) -> tuple[Shaped, ...]:
    shaped: list[Shaped] = [(slot, (slot,)) for slot in (PoolSlot(p, lvl) for p, lvl in
                                                           rules.units[unit_id].pools.items())]
    if equipment is None:
        return tuple(shaped)
    for old, new in equipment.replace_pool.items():
        shaped = _replaced(shaped, old, new)
    for new, level in equipment.add_pool.items():
        if all(slot.pool != new for slot, _ in shaped):
            shaped.append((PoolSlot(new, level), ()))
    target = _upgraded([slot for slot, _ in shaped], equipment.upgrade_pool)
    if target is not None:
        shaped = [(PoolSlot(p.pool, min(MAX_LEVEL, p.level + equipment.upgrade_levels)) if p.pool == target else p, own)
                  for p, own in shaped]
    if equipment.extra_slots:
        shaped = [(PoolSlot(p.pool, p.level, p.extra + equipment.extra_slots), own) for p, own in shaped]
    return tuple(shaped)


def _replaced(shaped: list[Shaped], old: str, new: str) -> list[Shaped]:
    """`old` becomes `new` at its level; a unit that has `new` already keeps one of it, at
    the higher of the two levels."""
    if all(p.pool != old for p, _ in shaped):
        return shaped
    level = max(p.level for p, _ in shaped if p.pool in (old, new))
    own = tuple(o for p, owns in shaped if p.pool in (old, new) for o in owns)
    merged, placed = [], False
    for p, owns in shaped:
        if p.pool in (old, new):
            if not placed:
                merged.append((PoolSlot(new, level, p.extra), own))
                placed = True
        else:
            merged.append((p, owns))
    return merged


def unequipped_pools(f: Fighter) -> tuple[PoolSlot, ...]:
    """The unit's pools while its equipment is disabled (`bare_pools`)."""
    return bare_pools(f.unit, f.equipment, f.pools)


def bare_pools(unit_id: str, equipment_id: str | None, pools: tuple[PoolSlot, ...]) -> tuple[PoolSlot, ...]:
    """A unit's `pools` without its equipment: every pool the equipment shaped is the unit's
    own again, in the unit's own order (a pool it added goes; one it replaced is the
    original again, two it merged are two again; an upgrade's levels and the extra slots
    go). Levels and slots that came otherwise (Growth Points, abilities) stay, with the
    first pool they stand on; pools the equipment had nothing to do with stay as they are,
    after the pool before them."""
    equipment = content().equipment.get(equipment_id) if equipment_id else None
    if equipment is None:
        return pools
    order = list(content().units[unit_id].pools)
    shaped = {slot.pool: (slot, own) for slot, own in _shaped(unit_id, equipment)}
    placed: list[tuple[tuple[int, int], PoolSlot]] = []     # (where, the pool), sorted below
    after = -1
    for i, p in enumerate(pools):
        if p.pool not in shaped:                            # gained or replaced in battle
            placed.append(((after, i + 1), p))
            continue
        slot, own = shaped[p.pool]
        for n, o in enumerate(own):
            if n == 0:
                o = PoolSlot(o.pool, max(1, min(MAX_LEVEL, o.level + p.level - slot.level)),
                             max(0, o.extra + p.extra - slot.extra))
            after = max(after, order.index(o.pool))
            placed.append(((order.index(o.pool), 0), o))
    bare: tuple[PoolSlot, ...] = ()
    for _, o in sorted(placed, key=lambda row: row[0]):
        # a pool the unit would have twice is kept once, at the higher level
        bare = pool_gained(bare, o.pool, o.level) if any(b.pool == o.pool for b in bare) else bare + (o,)
    return bare


def _upgraded(pools: list[PoolSlot], which: str | None) -> str | None:
    if which is None or not pools:
        return None
    if which == "lowest":
        return min(pools, key=lambda p: p.level).pool
    if which == "third":
        return pools[2].pool if len(pools) >= 3 else None
    return which if any(p.pool == which for p in pools) else None


def gp_spent(entry: DeckUnit, params: Params) -> int:
    return (sum(entry.growth.values()) + params.gp_slot_cost * sum(entry.slots.values())
            + params.gp_level_cost * sum(entry.levels.values()))


def build_fighter(seat: str, entry: DeckUnit, params: Params, *, lp: int | None = None, exs: int = 0,
                  variation: Mapping[str, int] | None = None) -> Fighter:
    spec = content().units[entry.unit]
    equipment = content().equipment.get(entry.equipment) if entry.equipment else None
    stats = grown(equipped_base(entry.unit, equipment, variation or {}), entry.growth, params)
    pools = [PoolSlot(p.pool, p.level + entry.levels.get(p.pool, 0), p.extra + entry.slots.get(p.pool, 0))
             for p in equipped_pools(entry.unit, equipment)]
    tags = spec.tags + tuple(t for t in (equipment.tags if equipment else ()) if t not in spec.tags)
    max_lp = spec.attributes["lp"]
    lp = max_lp if lp is None else lp
    max_hp, max_mp = max(1, exhausted(stats["hp"], exs)), exhausted(stats["mp"], exs)
    return Fighter(key=f"{seat}.{entry.unit}", seat=seat, unit=entry.unit, hp=max_hp if lp > 0 else 0,
                   max_hp=max_hp, mp=max_mp, max_mp=max_mp, lp=lp, max_lp=max_lp, exs=exs,
                   base={a: stats[a] for a in COMBAT}, tags=tags, pools=tuple(pools),
                   priorities=entry.priorities, equipment=entry.equipment, removed=lp <= 0)


def slotted(pools: tuple[PoolSlot, ...], priorities: tuple[str, ...]) -> tuple[str, ...]:
    """The abilities `pools` put in their slots, by `priorities` (`_loadout`)."""
    return _loadout(content(), pools, priorities)


def loadout(f: Fighter) -> tuple[str, ...]:
    # A fighter keeps its pools and priorities objects until they change, so the answer is
    # found by their identity first, sparing the hash of every pool record. Each entry holds
    # the objects it is keyed by, so no other object can take their address while it lives.
    rules = content()
    known = _BY_POOLS.get(id(f.pools))
    if known is not None and known[0] is f.pools and known[1] is f.priorities and known[2] is rules:
        return known[3]
    found = _loadout(rules, f.pools, f.priorities)
    if len(_BY_POOLS) > 4096:
        _BY_POOLS.clear()
    _BY_POOLS[id(f.pools)] = (f.pools, f.priorities, rules, found)
    return found


_BY_POOLS: dict[int, tuple[tuple[PoolSlot, ...], tuple[str, ...], Content, tuple[str, ...]]] = {}


@lru_cache(maxsize=4096)
def _loadout(rules: Content, pools: tuple[PoolSlot, ...], priorities: tuple[str, ...]) -> tuple[str, ...]:
    """Seed 000, Ability Slots: each pool's slots take the highest-priority abilities its
    level allows; abilities without a priority follow, highest tier first."""
    rank = {aid: i for i, aid in enumerate(priorities)}
    chosen: list[str] = []
    for slot in pools:
        available = [(rank.get(a.id, len(rank)), -a.tier, i, a.id)
                     for i, a in enumerate(rules.pool_abilities.get(slot.pool, ())) if a.tier <= slot.level]
        chosen += [row[3] for row in sorted(available)[:slot.slots] if row[3] not in chosen]
    return tuple(chosen)
