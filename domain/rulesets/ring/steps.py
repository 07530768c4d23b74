"""Ability and item steps (content `do`): what an ability does once its effectiveness is
rolled (seed 000, Direct and Indirect Effects). Each step reads its number for the rolled
effectiveness from a (glancing, normal, critical) triple."""
from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from domain.engine.hooks import Resolver
from domain.engine.registry import Registry

from . import events as ev
from .content import Ability, content, Step
from .formulas import damage as default_damage
from .moves import add_dynamic, change_mp, equipment_back, part, reduce_hp, restore_hp, severity_events
from .roster import unequipped_pools
from .state import Ring, opponent, seat_of

# Content names these ids (`do`); `tests/rulesets/ring/test_content.py` checks every id resolves.
STEPS: Registry[str, Callable[..., None]] = Registry("ring ability step")
step = STEPS.register

TIER_INDEX = {"glancing": 0, "normal": 1, "critical": 2}


class Use(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """An ability in resolution: who uses it, on what, at which effectiveness."""
    seat: str
    user: str | None                # the unit whose attributes it uses
    by: str | None = None           # the unit that acts: none for leader abilities and items
    ability: Ability
    targets: tuple[str, ...]        # unit keys, or Dynamic ids for `dynamic` abilities
    tier: int                       # 0 glancing, 1 normal, 2 critical
    earlier_uses: int = 0

    def units(self, s: Ring, st: Step) -> Sequence[str]:
        """The units a step acts on, minus those without the ability's required TAG."""
        if st.to == "self":
            return (self.user,) if self.user else ()
        if self.ability.target == "dynamic":
            return ()
        wanted = self.ability.needs_tag
        return [k for k in self.targets if wanted is None or wanted in s.units[k].tags]


def amount(st: Step, use: Use) -> int:
    return st.power[use.tier] + st.escalate * use.earlier_uses


@step("damage")
def damage(b: Resolver[Ring], use: Use, st: Step) -> None:
    """Default damage, scaled by ATK/DEF with the step's penetration; off-Ring targets of a
    unit- or team-wide attack take `bench_damage_bp` of it (seed 000, Targeting Units)."""
    power = amount(st, use)
    if power <= 0 or use.user is None:
        return
    for key in use.units(b.state, st):
        for _ in range(st.hits):
            s = b.state
            if key in s.down:
                break
            target = s.units[key]
            dealt = default_damage(power, s.units[use.user].stat("atk"), target.stat("def"), st.penetration)
            if use.ability.target in ("enemy_unit", "enemy_team") and s.side(target.seat).ring != key:
                dealt = part(dealt, s.params.bench_damage_bp)
            reduce_hp(b, key, dealt, by=use.by, ability=use.ability.id)


@step("true_damage")
def true_damage(b: Resolver[Ring], use: Use, st: Step) -> None:
    for key in use.units(b.state, st):
        reduce_hp(b, key, amount(st, use), by=use.by, ability=use.ability.id)


@step("heal")
def heal(b: Resolver[Ring], use: Use, st: Step) -> None:
    for key in use.units(b.state, st):
        restore_hp(b, key, amount(st, use), by=use.by, ability=use.ability.id)


@step("mp")
def mp(b: Resolver[Ring], use: Use, st: Step) -> None:
    for key in use.units(b.state, st):
        if not b.state.units[key].removed:
            change_mp(b, key, amount(st, use))


@step("augment")
def augment(b: Resolver[Ring], use: Use, st: Step) -> None:
    delta = amount(st, use)
    for key in use.units(b.state, st):
        if delta and key not in b.state.down:
            b.apply(ev.Augmented(unit=key, attr=st.attr or "atk", delta=delta))


@step("exhaust")
def exhaust(b: Resolver[Ring], use: Use, st: Step) -> None:
    for key in use.units(b.state, st):
        unit = b.state.units[key]
        new = max(0, min(10_000, unit.exs + amount(st, use)))
        if new != unit.exs and not unit.removed:
            b.emit(ev.ExhaustionChanged(unit=key, exs=new))


@step("tag")
def tag(b: Resolver[Ring], use: Use, st: Step) -> None:
    for key in use.units(b.state, st):
        if st.tag and st.tag not in b.state.units[key].tags:
            b.emit(ev.TagAdded(unit=key, tag=st.tag))


@step("lp")
def lp(b: Resolver[Ring], use: Use, st: Step) -> None:
    """LP damage or restoration. Seed 000, HP: "a KO'd Unit cannot be targeted for HP or LP
    damage": its KO has cost its LP already (an earlier step of the same ability may be
    what knocked it out). A removed unit is beyond both."""
    delta = amount(st, use)
    for key in use.units(b.state, st):
        unit = b.state.units[key]
        if unit.removed or not delta:
            continue
        if delta < 0 and not unit.ko:
            b.emit(ev.LpLost(unit=key, amount=min(-delta, unit.lp)))
        elif delta > 0 and unit.lp < unit.max_lp:
            b.emit(ev.LpRestored(unit=key, amount=min(delta, unit.max_lp - unit.lp)))


@step("inflict")
def inflict(b: Resolver[Ring], use: Use, st: Step) -> None:
    """Put a Dynamic into play on each target (its severity and chance by effectiveness)."""
    severity, chance = st.severity[use.tier], st.chance[use.tier]
    if severity <= 0 or st.dynamic is None:
        return
    spec = content().dynamics[st.dynamic]
    source = "item" if use.ability.pool == "item" else "ability"
    places: list[dict[str, str | None]]        # add_dynamic's seat, unit and target
    if spec.on == "dynamic":
        places = [dict(target=t, seat=use.seat) for t in use.targets if b.state.dynamic(t) is not None]
    elif spec.on == "field":
        places = [dict(seat=None)]
    else:
        units = use.units(b.state, st) or ((use.user,) if use.user else ())
        live = [k for k in units if k not in b.state.down]
        if spec.on == "team":
            places = [dict(seat=s) for s in dict.fromkeys(seat_of(k) for k in live)] or [dict(seat=use.seat)]
        else:
            places = [dict(seat=seat_of(k), unit=k) for k in live]
    for place in places:
        if chance >= 10_000 or b.rng.chance(chance, 10_000):
            add_dynamic(b, st.dynamic, source=source, severity=severity, by=use.seat, **place)


@step("severity")
def severity(b: Resolver[Ring], use: Use, st: Step) -> None:
    for dyn_id in use.targets:
        dyn = b.state.dynamic(dyn_id)
        if dyn is not None:
            for event in severity_events(b.state, dyn, amount(st, use)):
                b.emit(event)


@step("remove")
def remove(b: Resolver[Ring], use: Use, st: Step) -> None:
    for dyn_id in use.targets:
        dyn = b.state.dynamic(dyn_id)
        if dyn is not None and dyn.removable:
            b.emit(ev.DynamicRemoved(id=dyn_id, reason=use.ability.id))


@step("pool_level")
def pool_level(b: Resolver[Ring], use: Use, st: Step) -> None:
    for key in use.units(b.state, st):
        for slot in b.state.units[key].pools:
            if slot.pool == st.pool and slot.level < 3:
                b.emit(ev.PoolChanged(unit=key, pool=slot.pool, level=min(3, slot.level + amount(st, use))))


@step("grant_pool")
def grant_pool(b: Resolver[Ring], use: Use, st: Step) -> None:
    level = max(1, min(3, st.power[1]))
    for key in use.units(b.state, st):
        have = {p.pool: p.level for p in b.state.units[key].pools}
        if st.pool is not None and have.get(st.pool, 0) < level:
            b.emit(ev.PoolChanged(unit=key, pool=st.pool, level=level))


@step("replace_pool")
def replace_pool(b: Resolver[Ring], use: Use, st: Step) -> None:
    """Seed 000: Abilities and Items can replace a unit's pool in battle; its slots then fill
    from the new pool at the same level."""
    for key in use.units(b.state, st):
        pools = {p.pool for p in b.state.units[key].pools}
        if st.pool in pools and st.into and st.into not in pools:
            b.emit(ev.PoolReplaced(unit=key, pool=st.pool, into=st.into))


@step("lose_pool")
def lose_pool(b: Resolver[Ring], use: Use, st: Step) -> None:
    """Seed 000, Ability Pools: units can lose a pool in battle, for the rest of it; the
    Abilities it gave leave the slots at once. `pool` names one, or picks the "highest"
    level one (the first on a tie) or the "latest" (the last it gained); the power is how
    many. A unit keeps its last pool."""
    for key in use.units(b.state, st):
        for _ in range(amount(st, use)):
            unit = b.state.units[key]
            if unit.removed or len(unit.pools) <= 1:
                break
            if st.pool == "highest":
                lost = max(unit.pools, key=lambda p: p.level).pool
            elif st.pool == "latest":
                lost = unit.pools[-1].pool
            elif any(p.pool == st.pool for p in unit.pools):
                lost = str(st.pool)
            else:
                break
            b.emit(ev.PoolLost(unit=key, pool=lost))


@step("disable_equipment")
def disable_equipment(b: Resolver[Ring], use: Use, st: Step) -> None:
    """Seed 000, Choosing Equipment: equipment can be disabled in battle, for the power's
    number of its team's turns; it comes back as the last of them ends (a turn of its team
    under way counts). Its Dynamics leave effect and the pools, levels and slots it gave go;
    its attributes and tags are part of the unit's base and stay. Disabling it again only
    ever lengthens it."""
    turns = amount(st, use)
    if turns <= 0:
        return
    for key in use.units(b.state, st):
        unit = b.state.units[key]
        off = b.state.disabled_equipment(key)
        if unit.equipment is None or unit.down:
            continue
        if off is None:
            b.emit(ev.EquipmentDisabled(unit=key, equipment=unit.equipment, turns=turns,
                                        pools=unequipped_pools(unit)))
        elif turns > off.turns:
            b.emit(ev.EquipmentDisableChanged(unit=key, turns=turns, delta=turns - off.turns))


@step("restore_equipment")
def restore_equipment(b: Resolver[Ring], use: Use, st: Step) -> None:
    for key in use.units(b.state, st):
        equipment_back(b, key, reason=use.ability.id)


@step("leader_damage")
def leader_damage(b: Resolver[Ring], use: Use, st: Step) -> None:
    if amount(st, use) > 0:
        b.emit(ev.LeaderHpReduced(seat=opponent(use.seat), amount=amount(st, use), by=use.seat))


@step("leader_heal")
def leader_heal(b: Resolver[Ring], use: Use, st: Step) -> None:
    side = b.state.side(use.seat)
    healed = min(amount(st, use), side.leader_max_hp - side.leader_hp)
    if healed > 0:
        b.emit(ev.LeaderHpRestored(seat=use.seat, amount=healed))


@step("ap")
def ap(b: Resolver[Ring], use: Use, st: Step) -> None:
    if amount(st, use) > 0:
        b.emit(ev.ApGained(seat=use.seat, amount=amount(st, use)))
