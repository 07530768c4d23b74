"""Seed 003, Random AI: a move drawn with weight equal to its current PP.

```lua
for move in moveset do for i = 1, move.current_pp do table.insert(available_moves, move) end end
which_index = rt.random.integer(1, sizeof(available_moves))
```
An intrinsic move has no PP to count: it gets `params.intrinsic_weight` tickets (README).
The target is then drawn uniformly from the move's targets (`rng.int(1, n)`).
"""
from __future__ import annotations

from domain.engine.rng import Rng

from ..content import content
from ..legal import action_options, actions_of
from ..state import Plan, Rat


def tickets(s: Rat, actor: str, usable: list[str] | None = None) -> list[str]:
    """The seed's `available_moves`: each usable move once per PP left, in moveset order
    (`usable`: the actor's `actions_of`, if worked out already)."""
    e = s.entities[actor]
    found: list[str] = []
    actions = content().actions
    for action in actions_of(s, e) if usable is None else usable:
        kind = actions[action].kind
        count = e.moves[action] if kind == "move" else e.items[action].count if kind == "consumable" \
            else s.params.intrinsic_weight
        found.extend([action] * count)
    return found


def random_ai(s: Rat, actors: list[str], rng: Rng) -> list[Plan]:
    plans = []
    for actor in actors:
        e = s.entities[actor]
        usable = actions_of(s, e)
        pool = tickets(s, actor, usable) or usable
        action = pool[rng.int(1, len(pool)) - 1]
        # Its options with that action: listed once for each time the entity lists the action.
        choices = action_options(s, e, action) * usable.count(action)
        pick = choices[rng.int(1, len(choices)) - 1]
        plans.append(Plan(actor=actor, action=pick.action, target=pick.target, move=pick.move))
    return plans
