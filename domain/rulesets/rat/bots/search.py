"""Rat's `search`: ISMCTS (`domain.ai.search`) over the seat's knowledge (`knowledge.py`),
for either side's seat. A playout plays about a turn with a cheap policy, and is scored by the
HP each side has left."""
from __future__ import annotations

import math

from domain.ai.search import Rated, Tuning

from ..commands import Act
from ..content import content
from ..hp import immune
from ..state import PARTY, Entity, Rat

DEPTH = 4                   # commands a playout plays: a turn of a party of four
STEEPNESS = 4.0             # how sharply the HP lead turns into chances
DOWN_RISK = 0.5             # a knocked-out party member: one more hit kills it, and the battle is lost
WANDER = (1, 4)             # the chance the playout plays any command instead of the best


def evaluate(state: Rat, side: str) -> float:
    """`side`'s chances: a logistic of the party's share of HP left less the enemies'."""
    lead = _health(state, PARTY, DOWN_RISK) - _health(state, "enemies", 0.0)
    party = 1 / (1 + math.exp(-STEEPNESS * lead))
    return party if side == PARTY else 1 - party


def _health(state: Rat, side: str, down: float) -> float:
    """The mean share of max HP the side's entities have (a dead one none), less `down` for
    each knocked-out one."""
    total, count = 0.0, 0
    for e in state.entities.values():
        if e.side != side:
            continue
        count += 1
        if e.ko:
            total -= down
        elif not e.dead and e.max_hp > 0:
            total += e.hp / e.max_hp
    return total / max(1, count)


def worth(state: Rat, seat: str, cmd: Act) -> float:
    """A quick rating of one command from the state: a kill first, then saving a downed ally,
    then damage by power, then what else the action does."""
    action = content().actions[cmd.action]
    actor = state.entities[cmd.actor]
    target = state.entities.get(cmd.target) if cmd.target is not None else None
    value = -1.0 if action.kind == "consumable" else 0.0
    for step in action.steps:
        if step.do == "damage":
            value += _damage_worth(state, actor, target, step.power)
        elif step.do == "heal" and target is not None and target.side == actor.side:
            value += 60.0 if target.ko else 30.0 * (1 - target.hp / max(1, target.max_hp))
        elif step.do == "protect" and target is not None:
            value += 40.0 if target.ko else 0.5
        elif step.do == "ailment" and target is not None and target.side != actor.side:
            value += 0.0 if target.ko or state.has(target.id, step.ailment) or immune(target, step.ailment) \
                else 3.0 * step.chance / 100
        else:
            value += 1.0
    return value


def _damage_worth(state: Rat, actor: Entity, target: Entity | None, power: int) -> float:
    if target is None:          # every foe at once
        return sum(power / 10 * 0.7 for e in state.entities.values() if e.side != actor.side and e.standing)
    if target.side == actor.side:
        return -power / 10
    return 100.0 if target.ko else power / 10


# the slowest moves measured (a turn resolved with the memory AI in most iterations): ~150 a second
TUNING = Tuning(depth=DEPTH, evaluate=evaluate, playout=Rated(worth, WANDER), iterations_per_second=150)
