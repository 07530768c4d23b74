"""Seed 002, Actions: taking an action (kinds, doubling down, costs, Confused), then its attacks
or its steps (`steps.py`)."""
from __future__ import annotations

from domain.engine.errors import RuleViolation

from . import events as ev
from .attack import parse_dice, run_attacks
from .board import terrain
from .commands import Act
from .content import Action, content
from .patterns import Aim, aim
from .resolver import BoardResolver, lose_token
from .state import AttackPlan, Battleboard, Combatant
from .steps import STEPS, apply_steps



def slot(s: Battleboard, unit: Combatant, action: Action) -> tuple[bool, bool]:
    """(a double down, paid by Invigorated), or RuleViolation. Two actions of different kinds a
    turn (one in a half turn, or when stunned); doubling down adds one of a kind already taken,
    never an identical one unless it is repeatable or Invigorated pays for it."""
    found = open_slot(s, unit, action)
    if found is not None:
        return found
    if action.kind not in unit.kinds:
        raise RuleViolation(f"{unit.name} has taken its {unit.slots} action{'s' if unit.slots > 1 else ''} "
                            f"this turn; doubling down repeats a kind already taken ({', '.join(unit.kinds)})")
    if unit.doubled:
        raise RuleViolation(f"{unit.name} has already doubled down this turn")
    if action.id in unit.taken and not action.repeatable and not unit.count("invigorated"):
        raise RuleViolation(f"{action.name} is not repeatable: double down with another {action.kind} action")
    raise RuleViolation(f"doubling down costs {s.params.double_down_energy} energy "
                        f"(+{action.energy} for {action.name}); {unit.name} has {unit.energy}")


def open_slot(s: Battleboard, unit: Combatant, action: Action) -> tuple[bool, bool] | None:
    """`slot`'s answer where it has one, else None (where `slot` says why not)."""
    if action.kind not in unit.kinds:
        regular = len(unit.kinds) - (1 if unit.doubled else 0)
        return (False, False) if regular < unit.slots else None
    if unit.doubled:
        return None
    invigorated = unit.count("invigorated") > 0
    if action.id in unit.taken and not action.repeatable and not invigorated:
        return None
    if not invigorated and unit.energy < s.params.double_down_energy + action.energy:
        return None
    return True, invigorated


def costs(s: Battleboard, unit: Combatant, action: Action, double: bool, invigorated: bool, reroll: int) -> int:
    """The energy the action spends; RuleViolation if energy or focus fall short."""
    energy = energy_cost(s, action, double, invigorated)
    if unit.energy < energy:
        raise RuleViolation(f"{action.name} costs {energy} energy; {unit.name} has {unit.energy}", energy=unit.energy)
    if unit.focus < action.focus + reroll:
        raise RuleViolation(f"{action.name} costs {action.focus} focus and {reroll} more to reroll; "
                            f"{unit.name} has {unit.focus}", focus=unit.focus)
    if reroll and action.dice is None:
        raise RuleViolation(f"{action.name} rolls no dice to reroll")
    if reroll > max_reroll(action):
        raise RuleViolation(f"{action.name} rerolls at most {max_reroll(action)} dice", reroll=reroll)
    return energy


def energy_cost(s: Battleboard, action: Action, double: bool, invigorated: bool) -> int:
    return action.energy + (s.params.double_down_energy if double and not invigorated else 0)


def payable(s: Battleboard, unit: Combatant, action: Action, double: bool, invigorated: bool) -> bool:
    """Whether `costs` accepts the action with no reroll (so raises nothing)."""
    return unit.energy >= energy_cost(s, action, double, invigorated) and unit.focus >= action.focus


def affordable(s: Battleboard, unit: Combatant) -> list[tuple[Action, int]]:
    """Each of the combatant's actions that `slot` and `costs` accept now with no reroll, in
    its order, with the most focus rerolls it may add: `open_slot` and `payable` read once
    for all its actions (the energy a double down costs, Invigorated, the kinds taken)."""
    actions = content().actions
    kinds, focus, energy, doubled = unit.kinds, unit.focus, unit.energy, unit.doubled
    regular_open = len(kinds) - (1 if doubled else 0) < unit.slots
    invigorated = unit.count("invigorated") > 0
    double_cost = 0 if invigorated else s.params.double_down_energy
    found = []
    for action_id in unit.actions:
        action = actions[action_id]
        if focus < action.focus:
            continue
        if action.kind in kinds:        # a double down
            if doubled or energy < action.energy + double_cost \
                    or not (invigorated or action.repeatable or action_id not in unit.taken):
                continue
        elif not regular_open or energy < action.energy:
            continue
        found.append((action, min(max_reroll(action), focus - action.focus)))
    return found


def max_reroll(action: Action) -> int:
    """Focus rerolls an action may ask for: up to its number of dice."""
    return parse_dice(action.dice)[0] if action.dice else 0


def act(b: BoardResolver, seat: str, cmd: Act, unit: Combatant) -> None:
    s = b.state
    if cmd.action not in unit.actions:
        raise RuleViolation(f"{unit.name} has no action {cmd.action!r}", action=cmd.action)
    action = content().actions[cmd.action]
    double, invigorated = slot(s, unit, action)
    energy = costs(s, unit, action, double, invigorated, cmd.reroll)
    target = aim(s, unit, action, cmd)
    b.emit(ev.ActionTaken(seat=seat, unit=unit.id, action=action.id, targets=cmd.targets, row=cmd.row, col=cmd.col,
                          at=cmd.at, reroll=cmd.reroll, kind=action.kind, double_down=double, energy=energy,
                          focus=action.focus, invigorated=invigorated))
    if invigorated and double:
        b.emit(ev.TokenSpent(unit=unit.id, token="invigorated", reason="doubled down"))
    if confused(b, unit.id):
        return
    resolve(b, unit.id, action, target)


def confused(b: BoardResolver, key: str) -> bool:
    """Confused: a d12 for each token; any at or under `confused_fail` loses the action."""
    count = b.state.units[key].count("confused")
    if not count:
        return False
    dice = [b.rng.int(1, b.state.params.die_sides) for _ in range(count)]
    lost = any(d <= b.state.params.confused_fail for d in dice)
    b.emit(ev.ConfusionRolled(unit=key, dice=dice, lost=lost))
    b.emit(ev.TokenSpent(unit=key, token="confused", reason="used"))
    return lost


def resolve(b: BoardResolver, key: str, action: Action, target: Aim) -> None:
    if target.charge:
        b.emit(ev.Charged(unit=key, cells=[list(c) for c in target.charge], cost=target.cost))
        for cell in target.charge:
            if terrain(b.state, cell) == "hazardous":
                lose_token(b, key, "hazardous")
    if action.dice is not None:
        run_attacks(b, AttackPlan(attacker=key, action=action.id, targets=target.units, rerolls=target.reroll,
                                  origin=target.origin))
        return
    for other in target.units or (key,):
        apply_steps(b, key, other, action)


__all__ = ["STEPS", "act", "affordable", "apply_steps", "costs", "max_reroll", "open_slot", "payable", "slot"]
