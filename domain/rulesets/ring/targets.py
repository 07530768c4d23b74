"""What a seat can do now: usable abilities, their targets, and the legal commands.

`decide` checks a command against these same functions, so it accepts exactly what
`legal_commands` lists. A state's battle actions are worked out once per state object and
content (`battle_options`), and `decide` takes a command found among them as checked.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from domain.engine.errors import RuleViolation
from domain.engine.events import Command

from .commands import (ChooseBattlefield, EndTurn, PickRing, PickTeam, RingCommand, StrikeLeader, Swap, UseAbility,
                       UseItem, UseLeaderAbility)
from .content import Ability, content
from .hooks import AbilityCheck, SwapCost
from .moves import Modifiers, modifiers, through
from .roster import loadout
from .state import REMOVABLE_SOURCES, Fighter, Ring, opponent

UNIT_TARGETS = ("enemy_unit", "ally", "ally_bench")


# `Ring.down` holds the keys of the units KO'd or removed (evolve keeps it with their flags):
# these lists, made for every legal action, test membership there rather than each unit.

def alive(s: Ring, seat: str) -> list[str]:
    down = s.down
    return [k for k in s.side(seat).team if k not in down]


def bench(s: Ring, seat: str) -> list[str]:
    side, down = s.side(seat), s.down
    return [k for k in side.team if k != side.ring and k not in down]


def eligible(s: Ring, seat: str) -> list[str]:
    """Deck units that can still be picked: LP left (seed 000, LP)."""
    return [k for k in s.side(seat).deck if not s.units[k].removed]


def team_size(s: Ring, seat: str) -> int:
    return min(s.params.team_size, len(eligible(s, seat)))


def target_options(s: Ring, seat: str, user: Fighter | None, ability: Ability) -> Sequence[str | None]:
    kind = ability.target
    enemy = opponent(seat)
    if kind == "enemy_ring":
        ring = s.side(enemy).ring
        return [None] if ring is not None and ring not in s.down else []
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
        # Removal only takes what Abilities and Items put in play; a Dynamic-on-Dynamic never
        # targets another one (so seals cannot chain).
        removes, on_dynamic = _dynamic_target_rules(ability)
        specs = content().dynamics
        return [d.id for d in s.dynamics if not (removes and d.source not in REMOVABLE_SOURCES)
                and not (on_dynamic and specs[d.kind].on == "dynamic")]
    return [None]                   # field, enemy_leader, ally_leader


# id(ability) -> (that ability, the content, whether it removes its target, whether it puts a
# Dynamic-on-Dynamic on it): asked of every Dynamic in play each time the targets are listed
_DYNAMIC_TARGET_RULES: dict[int, tuple[Ability, object, bool, bool]] = {}


def _dynamic_target_rules(ability: Ability) -> tuple[bool, bool]:
    rules = content()
    known = _DYNAMIC_TARGET_RULES.get(id(ability))
    if known is None or known[0] is not ability or known[1] is not rules:
        removes = any(step.do == "remove" for step in ability.steps)
        on_dynamic = any(step.do == "inflict" and step.dynamic and rules.dynamics[step.dynamic].on == "dynamic"
                         for step in ability.steps)
        if len(_DYNAMIC_TARGET_RULES) > 4096:
            _DYNAMIC_TARGET_RULES.clear()
        known = _DYNAMIC_TARGET_RULES[id(ability)] = (ability, rules, removes, on_dynamic)
    return known[2], known[3]


def unit_ability_ok(s: Ring, seat: str, unit: Fighter | None, ability_id: str) -> str | None:
    """Why the Ring unit cannot use this ability now, or None when it can."""
    if unit is None or unit.down:
        return "the unit in the Ring is KO'd"
    if ability_id not in loadout(unit):
        return f"{ability_id!r} is not in the Ability Slots of {unit.unit}"
    return _unit_ability_blocked(s, seat, unit, content().abilities[ability_id], s.side(seat).ap,
                                 modifiers(s, AbilityCheck))


def _unit_ability_blocked(s: Ring, seat: str, unit: Fighter, ability: Ability, ap: int,
                          checks: Modifiers) -> str | None:
    """Why the Ring unit, which has this ability in its slots, cannot use it now with `ap`
    AP left; `checks` are the Dynamics' hooks on `AbilityCheck` in `s`."""
    if ability.ap > ap:
        return f"{ability.name} costs {ability.ap} AP; you have {ap}"
    if ability.mp > unit.mp:
        return f"{ability.name} takes {ability.mp} MP; {unit.unit} has {unit.mp}"
    if checks and through(s, checks, AbilityCheck(seat=seat, unit=unit.key, ability=ability.id, mp=ability.mp)) is None:
        return f"a Dynamic in play blocks {ability.name}"
    return None


def leader_ability_ok(s: Ring, seat: str, ability_id: str) -> str | None:
    rules = content()
    if ability_id not in rules.leaders[s.side(seat).leader].abilities:
        return f"{ability_id!r} is not an ability of your leader"
    return _leader_ability_blocked(s, seat, rules.abilities[ability_id], s.side(seat).ap, modifiers(s, AbilityCheck))


def _leader_ability_blocked(s: Ring, seat: str, ability: Ability, ap: int, checks: Modifiers) -> str | None:
    """Why the leader cannot use this ability of its own now (`ap` and `checks` as above)."""
    if ability.ap > ap:
        return f"{ability.name} costs {ability.ap} AP; you have {ap}"
    if checks and through(s, checks, AbilityCheck(seat=seat, unit=None, ability=ability.id, mp=0)) is None:
        return f"a Dynamic in play blocks {ability.name}"
    return None


def swap_cost(s: Ring, seat: str) -> int:
    if s.swap_required:
        return 0
    cost = content().leaders[s.side(seat).leader].swap_cost
    found = modifiers(s, SwapCost)
    if not found:                   # nothing in play changes it: `effective` would hand it back
        return max(0, cost)
    changed = through(s, found, SwapCost(seat=seat, amount=cost))
    assert changed is not None, "no Dynamic cancels a swap cost; they only change the amount"
    return max(0, changed.amount)


def item_cost(s: Ring, seat: str) -> int:
    return content().leaders[s.side(seat).leader].item_cost


def can_strike(s: Ring, seat: str) -> bool:
    """Seed 000: the leader is vulnerable while its Ring unit is KO'd and the enemy has AP;
    by default only in the turn the enemy knocked it out (`Params.strike_window`), or while
    its side has no unit left to send into the Ring (else only the time limit could end it)."""
    side, enemy = (s.p1, s.p2) if seat == "p1" else (s.p2, s.p1)     # asked for every action list
    if enemy.ring is None or enemy.ring not in s.down or side.ap <= 0:
        return False
    return s.params.strike_window == "down" or s.strike_open == seat or not bench(s, opponent(seat))


def checked_target(options: Sequence[str | None], target: str | None, ability: Ability) -> None:
    if target not in options:
        if not options:
            raise RuleViolation(f"{ability.name} has no target now")
        shown = ", ".join("none" if o is None else o for o in options)
        raise RuleViolation(f"{ability.name} cannot target {target!r}; targets: {shown}")


def actions(s: Ring, seat: str, *, with_end: bool = True) -> list[RingCommand]:
    """Every legal command, in a stable order."""
    if s.phase == "battlefield":
        return [ChooseBattlefield(battlefield=b) for b in sorted(content().battlefields)]
    if s.phase == "team":
        units = sorted(s.units[k].unit for k in eligible(s, seat))
        return [PickTeam(units=c) for c in combinations(units, team_size(s, seat))]
    if s.phase == "ring":
        return [PickRing(unit=s.units[k].unit) for k in sorted(alive(s, seat))]
    if s.swap_required:
        return [Swap(unit=s.units[k].unit) for k in bench(s, seat)]
    return [*battle_options(s, seat), END_TURN] if with_end else list(battle_options(s, seat))


END_TURN = EndTurn()         # commands are frozen: one serves every list


# The battle actions of the last state asked about, by (the content in force, seat): a state is
# asked by `settle` after the action that made it, by `legal_commands` and by `decide`, one
# after the other, so only the latest state needs them. The state is held here (a strong
# reference), so no other object can take its address while its answers are kept; the pair is
# read once, so battles in several threads only miss, never mix answers.
_LAST: tuple[object, dict[tuple[object, str], tuple[RingCommand, ...]]] = (None, {})


def battle_options(s: Ring, seat: str) -> tuple[RingCommand, ...]:
    """`battle_actions`, worked out once per state object, content and seat."""
    global _LAST
    last, key = _LAST, (content(), seat)
    if last[0] is s:
        found = last[1].get(key)
        if found is not None:
            return found
    else:
        last = _LAST = (s, {})
    found = last[1][key] = battle_actions(s, seat)
    return found


def listed(s: Ring, seat: str, cmd: Command) -> bool:
    """Whether `cmd` is among the battle actions already worked out for this state, content
    and seat: `decide` need not check it again (it would make the same checks)."""
    last = _LAST
    if last[0] is not s:
        return False
    found = last[1].get((content(), seat))
    return found is not None and cmd in found


def battle_actions(s: Ring, seat: str) -> tuple[RingCommand, ...]:
    """What the side whose turn it is can do besides ending it: abilities, items, swaps and
    strikes, in a stable order.

    This runs for every state of every battle, so it makes the tests of `unit_ability_ok`,
    `leader_ability_ok`, `check_item`, `swap` and `can_strike` itself, in their order and
    without their reasons; the conformance tests hold `decide` to accept exactly this list."""
    side = s.p1 if seat == "p1" else s.p2          # `side` and `ring_unit`, inlined
    ap = side.ap
    ring = s.units[side.ring] if side.ring is not None else None
    rules = content()
    found: list[RingCommand] = []
    known = _known_targets(s, seat)
    checks = modifiers(s, AbilityCheck)
    if ring is not None and ring.key not in s.down:
        for aid in loadout(ring):
            ability = rules.abilities[aid]
            if ability.ap <= ap and ability.mp <= ring.mp and (
                    not checks
                    or through(s, checks, AbilityCheck(seat=seat, unit=ring.key, ability=aid, mp=ability.mp)) is not None):
                for target in known.get(ability.target) or _targets(s, seat, ring, ability, known):
                    found.append(UseAbility(ability=aid, target=target))
    for aid in rules.leaders[side.leader].abilities:
        ability = rules.abilities[aid]
        if ability.ap <= ap and (
                not checks or through(s, checks, AbilityCheck(seat=seat, unit=None, ability=aid, mp=0)) is not None):
            for target in known.get(ability.target) or _targets(s, seat, ring, ability, known):
                found.append(UseLeaderAbility(ability=aid, target=target))
    if side.items and rules.leaders[side.leader].item_cost <= ap:
        for item in sorted(set(side.items)):
            for target in _targets(s, seat, ring, rules.item_abilities[item], known):
                found.append(UseItem(item=item, target=target))
    if swap_cost(s, seat) <= ap:
        for key in side.team:
            if key != side.ring and key not in s.down:          # `bench`
                found.append(Swap(unit=s.units[key].unit))
    if can_strike(s, seat):
        for n in range(1, ap + 1):
            found.append(StrikeLeader(ap=n))
    return tuple(found)


def _targets(s: Ring, seat: str, user: Fighter | None, ability: Ability,
             known: dict[str, Sequence[str | None]]) -> Sequence[str | None]:
    """`target_options`, kept in `known` by target kind (`_known_targets`); a Dynamic target
    depends on more than the kind."""
    kind = ability.target
    if kind == "dynamic":
        return target_options(s, seat, user, ability)
    found = known.get(kind)
    if found is None:
        found = known[kind] = target_options(s, seat, user, ability)
    return found


# seat -> (content, down set, own team, own Ring, enemy team, enemy Ring, target lists by kind)
_BOARDS: dict[str, tuple[object, frozenset[str], tuple[str, ...], str | None, tuple[str, ...], str | None,
                         dict[str, Sequence[str | None]]]] = {}


def _known_targets(s: Ring, seat: str) -> dict[str, Sequence[str | None]]:
    """The target lists of `seat`'s actions by kind, filled as they are asked for. With the seat
    and its user (the Ring unit) fixed, a list of a kind other than Dynamic depends only on the
    teams, the Rings and who is down (`Ring.down`, a new set whenever a unit goes down, comes
    back or leaves). The states of one turn mostly share those objects, so each seat's last
    lists serve while they are the same objects (held here, so none is mistaken for another)."""
    rules = content()
    side, enemy = (s.p1, s.p2) if seat == "p1" else (s.p2, s.p1)
    last = _BOARDS.get(seat)
    if (last is not None and last[0] is rules and last[1] is s.down and last[2] is side.team
            and last[3] == side.ring and last[4] is enemy.team and last[5] == enemy.ring):
        return last[6]
    known: dict[str, Sequence[str | None]] = {}
    _BOARDS[seat] = (rules, s.down, side.team, side.ring, enemy.team, enemy.ring, known)
    return known


def can_act(s: Ring, seat: str) -> bool:
    return bool(battle_options(s, seat))
