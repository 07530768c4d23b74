"""What a seat can do now: usable abilities, their targets, and the legal commands.

`decide` checks a command against these same functions, so it accepts exactly what
`legal_commands` lists. A state's battle actions are worked out once per state object and
content (`battle_options`), and `decide` takes a command found among them as checked.
"""
from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from itertools import combinations
from typing import Any

from domain.engine.errors import RuleViolation
from domain.engine.events import Command

from .commands import (ChooseBattlefield, EndTurn, PickRing, PickTeam, RingCommand, StrikeLeader, Swap, UseAbility,
                       UseItem, UseLeaderAbility)
from .content import Ability, Content, content
from .hooks import AbilityCheck, SwapCost
from .moves import Modifiers, modifiers, through
from .roster import loadout
from .effects.dynamics import OPEN, ability_blocks
from .state import REMOVABLE_SOURCES, Fighter, Ring, Side, opponent

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
    rules, leader = content(), s.side(seat).leader
    found = modifiers(s, SwapCost)
    if not found:                   # nothing in play changes it: `effective` would hand it back
        return max(0, rules.leaders[leader].swap_cost)
    kept = _decided(s)
    last = kept.get(("swap", seat, leader))
    if last is not None and last[0] is found:
        return last[1]
    changed = through(s, found, SwapCost(seat=seat, amount=rules.leaders[leader].swap_cost))
    assert changed is not None, "no Dynamic cancels a swap cost; they only change the amount"
    cost = max(0, changed.amount)
    kept[("swap", seat, leader)] = (found, cost)
    return cost


# What the Dynamics in play decide for a listing (each seat's swap cost, `ability_blocks`),
# with the modifiers it was worked out through: kept while the Dynamics stay the same tuple (the
# same records, all their hooks read) under the same content. The tuple is held here, strongly.
_DECIDED: list[Any] = [None, None, {}]


def _decided(s: Ring) -> dict[Hashable, Any]:
    rules = content()
    if _DECIDED[0] is not s.dynamics or _DECIDED[1] is not rules:
        _DECIDED[0], _DECIDED[1], _DECIDED[2] = s.dynamics, rules, {}
    found: dict[Hashable, Any] = _DECIDED[2]
    return found


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
    without their reasons; the conformance tests hold `decide` to accept exactly this list.
    What the side's board offers (`_menu`) is kept across the states of a battle; each state
    picks from it by its AP, its Ring unit's MP and the Dynamics' `AbilityCheck` hooks."""
    side = s.p1 if seat == "p1" else s.p2          # `side` and `ring_unit`, inlined
    ap = side.ap
    ring = s.units[side.ring] if side.ring is not None else None
    menu = _menu(s, seat, side, ring)
    checks = modifiers(s, AbilityCheck)
    blocks = _blocks(s, checks) if checks else OPEN
    least, stunned = blocks if blocks is not None else OPEN
    found: list[RingCommand] = []
    if menu.abilities:                              # a Ring unit that is not down
        assert ring is not None, "only a Ring unit has abilities on the menu"
        mp, unit_open = ring.mp, ring.key not in stunned
        for cost, need, aid, listed_, ability in menu.abilities:
            if cost <= ap and need <= mp and (
                    need < least and unit_open if blocks is not None
                    else through(s, checks, AbilityCheck(seat=seat, unit=ring.key, ability=aid, mp=need)) is not None):
                found += listed_ if listed_ is not None else _aimed(s, seat, ring, ability, UseAbility, aid)
    for cost, aid, listed_, ability in menu.leader:
        if cost <= ap and (0 < least if blocks is not None
                           else through(s, checks, AbilityCheck(seat=seat, unit=None, ability=aid, mp=0)) is not None):
            found += listed_ if listed_ is not None else _aimed(s, seat, ring, ability, UseLeaderAbility, aid)
    if menu.items and menu.item_cost <= ap:
        for item, listed_, ability in menu.items:
            found += listed_ if listed_ is not None else _aimed(s, seat, ring, ability, UseItem, item)
    if menu.swaps and swap_cost(s, seat) <= ap:
        found += menu.swaps
    if can_strike(s, seat):
        for n in range(1, ap + 1):
            found.append(StrikeLeader(ap=n))
    return tuple(found)


def _blocks(s: Ring, checks: Modifiers) -> tuple[int, Collection[str]] | None:
    """`ability_blocks` of `checks`, kept as `_decided` keeps it."""
    kept = _decided(s)
    last = kept.get("blocks")
    if last is not None and last[0] is checks:
        found: tuple[int, Collection[str]] | None = last[1]
        return found
    found = ability_blocks(s, checks)
    kept["blocks"] = (checks, found)
    return found


def _aimed(s: Ring, seat: str, ring: Fighter | None, ability: Ability, kind: Aimed, name: str) -> Commands:
    """The commands of an ability that targets a Dynamic, one per Dynamic it can target now."""
    return commands(kind, name, target_options(s, seat, ring, ability))


def _each(targets: Sequence[str | None] | None, kind: Aimed, name: str) -> Listing:
    """One command per target (None: the ability targets a Dynamic, read from each state)."""
    return None if targets is None else commands(kind, name, targets)


Aimed = type[UseAbility] | type[UseLeaderAbility] | type[UseItem]
Commands = tuple[RingCommand, ...]

# (command class, its ability or item, the targets) -> one command per target. The same lists
# come back in every battle, and commands are frozen: one list serves every menu that has it.
_COMMANDS: dict[tuple[Aimed, str, tuple[str | None, ...]], Commands] = {}


def commands(kind: Aimed, name: str, targets: Sequence[str | None]) -> Commands:
    """`kind` of `name` (an ability, or an item for `UseItem`) at each of `targets`, in order."""
    key = (kind, name, tuple(targets))
    found = _COMMANDS.get(key)
    if found is None:
        if len(_COMMANDS) >= 8192:
            _COMMANDS.clear()
        if kind is UseItem:
            found = tuple([UseItem(item=name, target=t) for t in targets])
        elif kind is UseAbility:
            found = tuple([UseAbility(ability=name, target=t) for t in targets])
        else:
            found = tuple([UseLeaderAbility(ability=name, target=t) for t in targets])
        _COMMANDS[key] = found
    return found


Listing = tuple[RingCommand, ...] | None


class Menu:
    """What `_menu` lists: the Ring unit's abilities as (AP, MP, id, commands, ability), the
    leader's as (AP, id, commands, ability), the items as (id, commands, ability), the item
    cost and the swaps. Commands None: the ability targets a Dynamic, and its targets are
    read from each state."""
    __slots__ = ("abilities", "leader", "items", "item_cost", "swaps")

    def __init__(self, abilities: tuple[tuple[int, int, str, Listing, Ability], ...],
                 leader: tuple[tuple[int, str, Listing, Ability], ...], items: tuple[tuple[str, Listing, Ability], ...],
                 item_cost: int, swaps: tuple[RingCommand, ...]):
        self.abilities, self.leader, self.items, self.item_cost, self.swaps = abilities, leader, items, item_cost, swaps


# (seat, its Ring unit) -> (content, down set, own team, enemy team, whether the enemy Ring unit
# stands, items, the Ring unit's pools and priorities, leader, menu)
_MENUS: dict[tuple[str, str | None], tuple[object, ...]] = {}


def _menu(s: Ring, seat: str, side: Side, ring: Fighter | None) -> Menu:
    """Every battle action `seat` could take with AP, MP and the Dynamics' leave, in order,
    each with its targets. With the seat and its Ring unit fixed, they depend only on the
    content, the teams, who is down (`Ring.down`, a new set whenever a unit goes down, comes
    back or leaves), whether the enemy Ring unit stands, the items and the Ring unit's slots
    (`loadout`). The states of a battle mostly share those objects, so the last menu of each
    seat and Ring unit serves while they are the same objects (held here, so none is
    mistaken for another): a swap back finds its menu again."""
    rules = content()
    enemy = s.p2 if seat == "p1" else s.p1
    down = s.down
    standing = enemy.ring is not None and enemy.ring not in down         # all an `enemy_ring` target reads
    pools, priorities = (ring.pools, ring.priorities) if ring is not None else ((), ())
    last = _MENUS.get((seat, side.ring))
    if (last is not None and last[0] is rules and last[1] is down and last[2] is side.team
            and last[3] is enemy.team and last[4] is standing and last[5] is side.items
            and last[6] is pools and last[7] is priorities and last[8] == side.leader):
        return last[9]  # type: ignore[return-value]
    menu = _listing(s, seat, side, ring, rules)
    if len(_MENUS) > 256:
        _MENUS.clear()
    _MENUS[(seat, side.ring)] = (rules, down, side.team, enemy.team, standing, side.items, pools, priorities,
                                 side.leader, menu)
    return menu


def _listing(s: Ring, seat: str, side: Side, ring: Fighter | None, rules: Content) -> Menu:
    """`_menu`, worked out: each target list asked of `target_options` once per target kind."""
    known: dict[str, Sequence[str | None]] = {}

    def aims(ability: Ability) -> Sequence[str | None] | None:
        if ability.target == "dynamic":
            return None
        found = known.get(ability.target)
        if found is None:
            found = known[ability.target] = target_options(s, seat, ring, ability)
        return found

    abilities = []
    if ring is not None and ring.key not in s.down:
        for aid in loadout(ring):
            ability = rules.abilities[aid]
            abilities.append((ability.ap, ability.mp, aid, _each(aims(ability), UseAbility, aid),
                              ability))
    leader = []
    for aid in rules.leaders[side.leader].abilities:
        ability = rules.abilities[aid]
        leader.append((ability.ap, aid, _each(aims(ability), UseLeaderAbility, aid), ability))
    items = []
    for item in sorted(set(side.items)):
        ability = rules.item_abilities[item]
        items.append((item, _each(aims(ability), UseItem, item), ability))
    swaps = tuple([Swap(unit=s.units[key].unit) for key in bench(s, seat)])
    return Menu(tuple(abilities), tuple(leader), tuple(items), rules.leaders[side.leader].item_cost, swaps)


def can_act(s: Ring, seat: str) -> bool:
    return bool(battle_options(s, seat))
