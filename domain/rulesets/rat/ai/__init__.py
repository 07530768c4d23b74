"""Seed 003, AI: the rules choose for the enemies when no seat plays them. Each enemy's
level (content, or the setup's `enemy_ai`) picks how: `random` (PP-weighted, from the
battle's RNG), `no_memory` (each enemy alone, one turn ahead) or `memory` (all memory
enemies planned together from the public history). All of them read only what the enemy
side may see: the enemies' view (`view.side_view`) and the public turn history."""
from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from domain.engine.registry import Registry
from domain.engine.rng import Rng

from ..legal import choosers
from ..state import ENEMIES, Plan, Rat
from . import joint, planner
from .random import random_ai

Level = Callable[[Rat, list[str], Rng], list[Plan]]
LEVELS: Registry[str, Level] = Registry("rat AI level")
LEVELS.add("random", random_ai)


@LEVELS.register("no_memory")
def no_memory(s: Rat, actors: list[str], rng: Rng) -> list[Plan]:
    return (joint.no_memory if s.rules.ai_version >= 2 else planner.no_memory)(s, actors, rng)


@LEVELS.register("memory")
def memory(s: Rat, actors: list[str], rng: Rng) -> list[Plan]:
    return (joint.memory if s.rules.ai_version >= 2 else planner.memory)(s, actors, rng)


def choose_for_enemies(s: Rat, rng: Rng) -> list[Plan]:
    """Every enemy that may act this turn, in queue order. The AI levels run in the order
    they first appear in the queue; each sees the state without the party's plans."""
    public = replace(s, plans={}) if s.plans else s
    actors = choosers(public, ENEMIES)
    groups: dict[str, list[str]] = {}       # the actors of each level, the levels in queue order
    entities = public.entities
    for a in actors:
        groups.setdefault(entities[a].ai, []).append(a)
    chosen: dict[str, Plan] = {}
    for level, group in groups.items():
        for plan in LEVELS[level](public, group, rng):
            chosen[plan.actor] = plan
    return [chosen[a] for a in actors]
