"""The planning AIs (seed 003, AI; README: the no-memory level the seed leaves empty).

Both score each (action, target) of an enemy one turn ahead, from what the enemy side
sees: the party's HP and max HP, stat levels, ailments, knock-outs (`side_view`), and the
enemies' own stats. Nothing reads the party's hidden numbers (DEF, EVs) or its plans: a
hit is estimated against `GUESS_DEF` scaled by the target's visible DEF level.

- `no_memory`: each enemy alone picks its best-scoring option; ties go to the first listed.
- `memory`: the memory enemies plan together, in queue order, each seeing the others'
  plans (focus fire, no wasted overkill, no ailment twice), and read the public history:
  a member PROTECTed last turn cannot be protected again (seed 003), one the party keeps
  protecting is likely shielded, and members that keep hitting enemies are threats.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from domain.engine.rng import Rng

from ..content import content
from ..legal import options
from ..state import ENEMIES, Plan, Rat
from ..stats import FACTORS, stat
from ..view import side_view

GUESS_DEF = 30                  # what an enemy assumes a party member's DEF is


@dataclass
class Outlook:
    """One side's reading of the board for this turn, and the group's plans so far."""
    party: dict[str, dict[str, Any]]
    damage: dict[str, int] = field(default_factory=dict)        # planned, per target
    ailments: set[tuple[str, str]] = field(default_factory=set)
    shield: dict[str, Fraction] = field(default_factory=dict)   # chance a target is protected
    threat: dict[str, int] = field(default_factory=dict)


def outlook(s: Rat, remember: bool) -> Outlook:
    seen = side_view(s, ENEMIES)
    out = Outlook(party={p["id"]: p for p in seen["party"]})
    if not remember or not s.history:
        return out
    last = s.history[-1]
    turns = len(s.history)
    actions = content().actions
    for key in out.party:
        covered = sum(1 for log in s.history for a in log.actions if a.action == "protect" and a.target == key)
        out.shield[key] = Fraction(0) if any(a.action == "protect" and a.target == key for a in last.actions) \
            else min(Fraction(4, 5), Fraction(covered, turns))
        out.threat[key] = min(25, 5 * sum(1 for log in s.history for a in log.actions
                                         if a.actor == key and actions[a.action].damaging))
    return out


def estimate(s: Rat, actor: str, power: int, target: dict[str, Any]) -> int:
    atk = stat(s, s.entities[actor], "atk")
    level = target["levels"].get("def", 0)
    guess = 0 if level <= -4 else 10 ** 9 if level >= 4 else int(GUESS_DEF * FACTORS[level])
    return int(Fraction(power, 100) * atk * 100 / (100 + guess))


def score(s: Rat, actor: str, action_id: str, target: str | None, look: Outlook) -> int:
    action = content().actions[action_id]
    me = s.entities[actor]
    if action.target in ("all_enemies", "all_allies"):
        side = "party" if action.target == "all_enemies" else ENEMIES
        keys = [k for k in look.party] if side == "party" else [e.id for e in s.side(ENEMIES) if e.alive]
    else:
        keys = [target] if target is not None else []
    total = 0
    for key in keys:
        if key in look.party:
            total += _against(s, actor, action_id, look.party[key], look)
        elif s.entities[key].side == me.side:
            total += _for_ally(s, action_id, key)
    return total


def _against(s: Rat, actor: str, action_id: str, target: dict[str, Any], look: Outlook) -> int:
    if target["dead"]:
        return 0
    action = content().actions[action_id]
    value = 0
    held = {a["kind"] for a in target["ailments"]}
    for step in action.steps:
        if step.do == "damage":
            if target["ko"]:
                value += 300                        # knocked out earlier: any damage kills
                continue
            left = target["hp"] - look.damage.get(target["id"], 0)
            hit = estimate(s, actor, step.power, target)
            value += min(hit, max(0, left)) * 100 // max(1, target["max_hp"])
            value += 80 if 0 < left <= hit else 0
            value += look.threat.get(target["id"], 0)
        elif step.do == "ailment" and step.ailment not in held and (target["id"], step.ailment) not in look.ailments \
                and not target["ko"]:
            value += content().ailments[step.ailment].ai_value * step.chance // 100
        elif step.do == "stat" and step.who == "target" and step.amount < 0:
            value += 15 if target["levels"].get(step.stat, 0) > -3 else 0
        elif step.who == "user" and step.do in ("stat", "heal", "priority"):
            value += _for_ally(s, action_id, actor, only_user=True)
    return int(value * (1 - look.shield.get(target["id"], Fraction(0))))


def _for_ally(s: Rat, action_id: str, key: str, only_user: bool = False) -> int:
    ally = s.entities[key]
    value = 0
    for step in content().actions[action_id].steps:
        if only_user and step.who != "user":
            continue
        if step.do == "heal":
            missing = ally.max_hp - ally.hp
            value += 150 if ally.ko else missing * 100 // ally.max_hp
        elif step.do == "stat" and step.amount > 0 and ally.standing:
            value += 15 if ally.level(step.stat) < 3 else 0
        elif step.do == "cure":
            value += 20 * sum(1 for x in s.statuses(key) if x.source == "ailment" and step.ailment in ("all", x.kind))
        elif step.do == "protect":
            value += 30 if ally.hp * 5 < ally.max_hp * 2 else 2
        elif step.do == "priority":
            value += 5
    # An enemy's content `ai_value` says how much its side guards it (bosses more).
    enemies = content().enemies
    guarded = enemies[ally.kind].ai_value if ally.kind in enemies else 100
    return value * guarded // 100


def _best(s: Rat, actor: str, look: Outlook) -> Plan:
    best, best_score = None, -1
    for option in options(s, s.entities[actor]):
        value = score(s, actor, option.action, option.target, look)
        if value > best_score:
            best, best_score = option, value
    assert best is not None, "STRIKE is always an option"
    return Plan(actor=actor, action=best.action, target=best.target, move=best.move)


def no_memory(s: Rat, actors: list[str], rng: Rng) -> list[Plan]:
    look = outlook(s, remember=False)
    return [_best(s, actor, look) for actor in actors]


def memory(s: Rat, actors: list[str], rng: Rng) -> list[Plan]:
    look = outlook(s, remember=True)
    plans = []
    for actor in actors:
        plan = _best(s, actor, look)
        plans.append(plan)
        for step in content().actions[plan.action].steps:
            if plan.target in look.party and step.do == "damage":
                target = look.party[plan.target]
                look.damage[plan.target] = look.damage.get(plan.target, 0) + estimate(s, actor, step.power, target)
            if plan.target is not None and step.do == "ailment":
                look.ailments.add((plan.target, step.ailment))
    return plans
