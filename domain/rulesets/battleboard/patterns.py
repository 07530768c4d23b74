"""Seed 002, Patterns: which combatants an action reaches, from an origin on or next to the
movement path. `aim` checks a command's targets; `aims` lists every way to aim an action, so
`legal_commands` and `decide` share one definition.

Targets are listed in roster order (heroes h1.., then foes f1..), which is also the order the
attacks resolve in. A line names its `row`, a wave its middle `col`, a burst its centre `at`,
a path charge the empty cell `at` where it ends, straight ahead.
"""
from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from typing import NamedTuple

from domain.engine.errors import RuleViolation

from .attack import nearest_origin
from .board import (STEPS, cell_penalty, enemy_at, hazard_paid, liquid_ignored, on_board, origin_reaches,
                    origins, step_cost, within)
from .commands import Act
from .content import Action
from .reading import reading, remembered, stand
from .state import Battleboard, Combatant, Pos

MULTI = 3                            # Scatter and Flurry: up to 3 attacks


class Aim(NamedTuple):
    """Where a command aims its action: the combatants it takes in, the origin it is taken
    from, the focus rerolls it asks for, and a charge's cells and movement points."""
    units: tuple[str, ...]
    origin: Pos
    reroll: int = 0
    charge: tuple[Pos, ...] = ()
    cost: int = 0


def foes_of(s: Battleboard, unit: Combatant) -> list[Combatant]:
    return [u for u in reading(s).placed if u.side != unit.side]


def allies_of(s: Battleboard, unit: Combatant) -> list[Combatant]:
    return [u for u in reading(s).placed if u.side == unit.side]


def in_reach(s: Battleboard, unit: Combatant, action: Action,
             seen: dict[tuple[str, int], dict[str, Pos]] | None = None) -> dict[str, Pos]:
    """Each enemy (or ally) the action can single out, with the origin it would use. `seen`
    keeps the answers of one listing, by target kind and range."""
    key = (action.target, action.range)
    if seen is not None:
        if key not in seen:
            seen[key] = in_reach(s, unit, action)
        return seen[key]
    lay, pool = stand(s, unit.side, action.target == "enemy")
    if s.rules.elevated_range:
        # The origins' table is kept per layout, path and range (`Layout.best_origins`).
        table = lay.best_origins(unit.path or ((unit.cell,) if unit.cell else ()), liquid_ignored(unit),
                                 action.range)
        return {other: table[cell] for other, cell, _ in pool if cell in table}
    # All `_in_reach` reads besides the combatant: the layout, the range rule, and where the
    # combatants it may single out stand.
    reads = ("reach", key, lay, False, pool)
    return dict(remembered(unit, reads, lambda: _in_reach(s, unit, action)))


def _in_reach(s: Battleboard, unit: Combatant, action: Action) -> dict[str, Pos]:
    """`in_reach` under 1.0.0's range rule: each origin counts its distance."""
    pool = foes_of(s, unit) if action.target == "enemy" else allies_of(s, unit)
    options = origin_reaches(s, unit)
    found = {}
    for other in pool:
        assert other.cell is not None
        origin = nearest_origin(options, other.cell, action.range)
        if origin is not None:
            found[other.id] = origin
    return found


def aims(s: Battleboard, unit: Combatant, action: Action,
         seen: dict[tuple[str, int], dict[str, Pos]] | None = None) -> list[dict[str, object]]:
    """Every well-aimed command for the action, as its aiming fields."""
    if action.target == "self":
        return [{}]
    if action.target == "ally" or action.pattern == "single":
        return [{"targets": (key,)} for key in in_reach(s, unit, action, seen)]
    if action.pattern in ("scatter", "flurry"):
        keys = list(in_reach(s, unit, action, seen))
        pick = combinations if action.pattern == "scatter" else combinations_with_replacement
        return [{"targets": combo} for n in range(1, MULTI + 1) for combo in pick(keys, n)]
    if action.pattern == "line":
        return [{"row": row} for row in range(s.params.height) if _area(s, unit, action, "row", row)[0]]
    if action.pattern == "wave":
        return [{"col": col} for col in range(s.params.width) if _area(s, unit, action, "col", col)[0]]
    if action.pattern == "burst":
        return [{"at": (c, r)} for r in range(s.params.height) for c in range(s.params.width)
                if _area(s, unit, action, "at", (c, r))[0]]
    return [{"at": end} for end, _ in charges(s, unit).items()]


def aim(s: Battleboard, unit: Combatant, action: Action, cmd: Act) -> Aim:
    """The command's targets, checked against the action's pattern; RuleViolation if off."""
    given = {k: v for k, v in (("targets", cmd.targets), ("row", cmd.row), ("col", cmd.col), ("at", cmd.at))
             if v not in ((), None)}
    wants = _aiming_field(action)
    extra = sorted(set(given) - {wants})
    if extra:
        raise RuleViolation(f"{action.name} ({action.pattern}) is aimed with {wants or 'nothing'}, not {extra[0]}")
    if wants is None:
        return Aim(units=(), origin=unit.cell or (0, 0))
    if wants not in given:
        raise RuleViolation(f"{action.name} needs {wants}")
    if wants == "targets":
        return _aim_units(s, unit, action, cmd)
    if action.pattern == "path":
        assert cmd.at is not None
        found = charges(s, unit).get(tuple(cmd.at))  # type: ignore[arg-type]
        if found is None:
            raise RuleViolation(f"{action.name} charges straight through enemies to an empty cell it can afford; "
                                f"{list(cmd.at)} is not one")
        cells, cost, passed = found
        return Aim(units=passed, origin=cells[-1], reroll=cmd.reroll, charge=cells, cost=cost)
    value = given[wants]
    keys, origin = _area(s, unit, action, wants, tuple(value) if wants == "at" else value)  # type: ignore[arg-type]
    if not keys:
        raise RuleViolation(f"no enemy in that {action.pattern} within reach of {unit.name}'s path")
    return Aim(units=keys, origin=origin, reroll=cmd.reroll)


def _aiming_field(action: Action) -> str | None:
    if action.target == "self":
        return None
    if action.target == "ally" or action.pattern in ("single", "scatter", "flurry"):
        return "targets"
    return {"line": "row", "wave": "col"}.get(action.pattern, "at")


def _aim_units(s: Battleboard, unit: Combatant, action: Action, cmd: Act) -> Aim:
    reach = in_reach(s, unit, action)
    limit = 1 if action.target == "ally" or action.pattern == "single" else MULTI
    if not 1 <= len(cmd.targets) <= limit:
        raise RuleViolation(f"{action.name} takes {'one target' if limit == 1 else f'1 to {limit} targets'}")
    for key in cmd.targets:
        if key not in reach:
            kind = "an enemy" if action.target == "enemy" else "an ally"
            raise RuleViolation(f"{key} is not {kind} within {action.range} of {unit.name}'s movement path", target=key)
    order = list(s.units)
    if list(cmd.targets) != sorted(cmd.targets, key=order.index):
        raise RuleViolation("list targets in roster order (h1.., then f1..)")
    if action.pattern == "scatter" and len(set(cmd.targets)) != len(cmd.targets):
        raise RuleViolation(f"{action.name} (scatter) attacks separate targets")
    return Aim(units=tuple(cmd.targets), origin=reach[cmd.targets[0]], reroll=cmd.reroll)


def _area(s: Battleboard, unit: Combatant, action: Action, field: str, value: object) -> tuple[tuple[str, ...], Pos]:
    """The enemies a line, wave or burst placed at `value` hits, and its origin: of the origins
    that reach it, the one that loses the fewest dice (the first on the path among equals);
    none if out of reach."""
    if field == "at" and not (isinstance(value, tuple) and on_board(s, value)):
        raise RuleViolation("at: a cell [col, row] on the board")
    limit = s.params.height if field == "row" else s.params.width
    if field != "at" and not (isinstance(value, int) and 0 <= value < limit):
        raise RuleViolation(f"{field}: 0..{limit - 1}")
    cells = _cells(s, field, value)
    anchor = _anchor(s, field, value)
    reach = [o for o in origins(s, unit) if any(within(s, o, c, action.range) for c in anchor)]
    if not reach:
        return (), (0, 0)
    hit = tuple(u.id for u in foes_of(s, unit) if u.cell in cells)
    if not s.rules.area_fewest_dice:
        return hit, reach[0]        # 1.0.0's rules: the first origin that reaches
    return hit, min(reach, key=lambda o: cell_penalty(s, unit, o))


def _anchor(s: Battleboard, field: str, value: object) -> list[Pos]:
    """What must be within range of an origin: a line's row, a wave's middle column, a burst's centre."""
    if field == "row":
        return _cells(s, field, value)
    if field == "col":
        return [(value, r) for r in range(s.params.height)]  # type: ignore[misc]
    assert isinstance(value, tuple)
    return [value]


def _cells(s: Battleboard, field: str, value: object) -> list[Pos]:
    if field == "row":
        return [(c, value) for c in range(s.params.width)]  # type: ignore[misc]
    if field == "col":
        return [(c, r) for r in range(s.params.height) for c in range(value - 1, value + 2)  # type: ignore[operator]
                if 0 <= c < s.params.width]
    assert isinstance(value, tuple)
    x, y = value
    return [(c, r) for r in range(y - 1, y + 2) for c in range(x - 1, x + 2) if on_board(s, (c, r))]


def charges(s: Battleboard, unit: Combatant) -> dict[Pos, tuple[tuple[Pos, ...], int, tuple[str, ...]]]:
    """Path: straight-line charges through enemies ending on an empty cell it can afford, passing
    at least one enemy: end -> (cells entered, movement points, enemies passed)."""
    found: dict[Pos, tuple[tuple[Pos, ...], int, tuple[str, ...]]] = {}
    if unit.cell is None:
        return found
    for dc, dr in STEPS:
        cells: list[Pos] = []
        here, cost, hazards = unit.cell, 0, 0
        passed: list[str] = []
        while on_board(s, nxt := (here[0] + dc, here[1] + dr)):
            price = step_cost(s, unit, here, nxt, through_enemies=True)
            if price is None or cost + price > unit.mp:
                break
            cost, here = cost + price, nxt
            hazards += hazard_paid(s, unit, nxt)
            cells.append(nxt)
            if enemy_at(s, unit, nxt):
                passed.extend(u.id for u in foes_of(s, unit) if u.cell == nxt)
            elif passed and not any(u.cell == nxt for u in s.units.values() if not u.defeated) \
                    and hazards <= unit.tokens_left:
                found[nxt] = (tuple(cells), cost, tuple(passed))
    return found
