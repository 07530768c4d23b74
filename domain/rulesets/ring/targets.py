"""What a seat can do now: usable abilities, their targets, and the legal commands.

`decide` checks a command against these same functions, so it accepts exactly what
`legal_commands` lists.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from domain.engine.errors import RuleViolation

from .commands import (ChooseBattlefield, EndTurn, PickRing, PickTeam, StrikeLeader, Swap, UseAbility, UseItem,
                       UseLeaderAbility)
from .content import Ability, content
from .effects.moves import effective
from .effects.queries import AbilityCheck, SwapCost
from .roster import loadout
from .state import Fighter, Ring, opponent

UNIT_TARGETS = ("enemy_unit", "ally", "ally_bench")


def alive(s: Ring, seat: str) -> list[str]:
    return [k for k in s.side(seat).team if not s.units[k].down]


def bench(s: Ring, seat: str) -> list[str]:
    side = s.side(seat)
    return [k for k in side.team if k != side.ring and not s.units[k].down]


def eligible(s: Ring, seat: str) -> list[str]:
    """Deck units that can still be picked: LP left (seed 000, LP)."""
    return [k for k in s.side(seat).deck if not s.units[k].removed]


def team_size(s: Ring, seat: str) -> int:
    return min(s.params.team_size, len(eligible(s, seat)))


def target_options(s: Ring, seat: str, user: Fighter | None, ability: Ability) -> Sequence[str | None]:
    kind = ability.target
    enemy = opponent(seat)
    if kind == "enemy_ring":
        ring = s.ring_unit(enemy)
        return [None] if ring is not None and not ring.down else []
    if kind == "enemy_unit":
        return alive(s, enemy)
    if kind == "enemy_team":
        return [None] if alive(s, enemy) else []
    if kind == "self":
        return [None] if user is not None and not user.removed else []
    if kind == "ally":
        return [k for k in s.side(seat).team if not s.units[k].removed]
    if kind == "ally_team":
        return [None] if alive(s, seat) else []
    if kind == "ally_bench":
        return [k for k in s.side(seat).team if k != s.side(seat).ring and not s.units[k].removed]
    if kind == "dynamic":
        return [d.id for d in s.dynamics if _fits(ability, d)]
    return [None]                   # field, enemy_leader, ally_leader


def _fits(ability: Ability, dyn: object) -> bool:
    """Removal only takes what Abilities and Items put in play; a Dynamic-on-Dynamic never
    targets another one (so seals cannot chain)."""
    for step in ability.steps:
        if step.do == "remove" and not dyn.removable:                       # type: ignore[attr-defined]
            return False
        if step.do == "inflict" and step.dynamic and content().dynamics[step.dynamic].on == "dynamic" \
                and content().dynamics[dyn.kind].on == "dynamic":              # type: ignore[attr-defined]
            return False
    return True


def unit_ability_ok(s: Ring, seat: str, unit: Fighter | None, ability_id: str) -> str | None:
    """Why the Ring unit cannot use this ability now, or None when it can."""
    if unit is None or unit.down:
        return "the unit in the Ring is KO'd"
    if ability_id not in loadout(unit):
        return f"{ability_id!r} is not in the Ability Slots of {unit.unit}"
    ability = content().abilities[ability_id]
    ap = s.side(seat).ap
    if ability.ap > ap:
        return f"{ability.name} costs {ability.ap} AP; you have {ap}"
    if ability.mp > unit.mp:
        return f"{ability.name} takes {ability.mp} MP; {unit.unit} has {unit.mp}"
    if effective(s, AbilityCheck(seat=seat, unit=unit.key, ability=ability_id, mp=ability.mp)) is None:
        return f"a Dynamic in play blocks {ability.name}"
    return None


def leader_ability_ok(s: Ring, seat: str, ability_id: str) -> str | None:
    if ability_id not in content().leaders[s.side(seat).leader].abilities:
        return f"{ability_id!r} is not an ability of your leader"
    ability = content().abilities[ability_id]
    if ability.ap > s.side(seat).ap:
        return f"{ability.name} costs {ability.ap} AP; you have {s.side(seat).ap}"
    if effective(s, AbilityCheck(seat=seat, unit=None, ability=ability_id, mp=0)) is None:
        return f"a Dynamic in play blocks {ability.name}"
    return None


def swap_cost(s: Ring, seat: str) -> int:
    if s.swap_required:
        return 0
    cost = content().leaders[s.side(seat).leader].swap_cost
    changed = effective(s, SwapCost(seat=seat, amount=cost))
    assert changed is not None, "no Dynamic cancels a swap cost; they only change the amount"
    return max(0, changed.amount)


def item_cost(s: Ring, seat: str) -> int:
    return content().leaders[s.side(seat).leader].item_cost


def can_strike(s: Ring, seat: str) -> bool:
    """Seed 000: the leader is vulnerable while its Ring unit is KO'd and the enemy has AP;
    by default only in the turn the enemy knocked it out (`Params.strike_window`), or while
    its side has no unit left to send into the Ring (else only the time limit could end it)."""
    enemy = opponent(seat)
    ring = s.ring_unit(enemy)
    if ring is None or not ring.down or s.side(seat).ap <= 0:
        return False
    return s.params.strike_window == "down" or s.strike_open == seat or not bench(s, enemy)


def checked_target(options: Sequence[str | None], target: str | None, ability: Ability) -> None:
    if target not in options:
        if not options:
            raise RuleViolation(f"{ability.name} has no target now")
        shown = ", ".join("none" if o is None else o for o in options)
        raise RuleViolation(f"{ability.name} cannot target {target!r}; targets: {shown}")


def actions(s: Ring, seat: str, *, with_end: bool = True) -> Iterator[object]:
    """Every legal command, in a stable order."""
    if s.phase == "battlefield":
        yield from (ChooseBattlefield(battlefield=b) for b in sorted(content().battlefields))
        return
    if s.phase == "team":
        units = sorted(s.units[k].unit for k in eligible(s, seat))
        yield from (PickTeam(units=c) for c in combinations(units, team_size(s, seat)))
        return
    if s.phase == "ring":
        yield from (PickRing(unit=s.units[k].unit) for k in sorted(alive(s, seat)))
        return
    if s.swap_required:
        yield from (Swap(unit=s.units[k].unit) for k in bench(s, seat))
        return
    yield from battle_actions(s, seat)
    if with_end:
        yield EndTurn()


def battle_actions(s: Ring, seat: str) -> Iterator[object]:
    side = s.side(seat)
    ring = s.ring_unit(seat)
    rules = content()
    if ring is not None and not ring.down:
        for aid in loadout(ring):
            if unit_ability_ok(s, seat, ring, aid) is None:
                for target in target_options(s, seat, ring, rules.abilities[aid]):
                    yield UseAbility(ability=aid, target=target)
    for aid in rules.leaders[side.leader].abilities:
        if leader_ability_ok(s, seat, aid) is None:
            for target in target_options(s, seat, ring, rules.abilities[aid]):
                yield UseLeaderAbility(ability=aid, target=target)
    if side.items and item_cost(s, seat) <= side.ap:
        for item in sorted(set(side.items)):
            for target in target_options(s, seat, ring, rules.item_abilities[item]):
                yield UseItem(item=item, target=target)
    if swap_cost(s, seat) <= side.ap:
        yield from (Swap(unit=s.units[k].unit) for k in bench(s, seat))
    if can_strike(s, seat):
        yield from (StrikeLeader(ap=n) for n in range(1, side.ap + 1))


def can_act(s: Ring, seat: str) -> bool:
    return next(battle_actions(s, seat), None) is not None
