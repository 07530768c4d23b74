"""The rat golden battles: the default party (greedy) against a formation of each enemy AI
level, and a three-battle set along a route of formations whose HP and consumables carry
over, with durability running out."""
from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from domain.ai import get_policy
from domain.ai.match import play
from domain.engine.battle import BattleState
from domain.engine.events import Recorded
from domain.rulesets.rat import RULESET
from domain.rulesets.rat.setup import DEFAULT_SETUP

from .golden import CREATED_AT, Battles, PlayedBattle, play_set, set_battles

PLAYERS = {"p1": "ann"}
# One formation per AI level: all random, all no-memory, all memory.
AI_FORMATIONS = {"random": "sewer_ambush", "no_memory": "back_alley", "memory": "clockwork_vault"}


def against(level: str) -> Callable[[], tuple[BattleState, list[Recorded]]]:
    def battle() -> tuple[BattleState, list[Recorded]]:
        match = play(RULESET, {"p1": get_policy("greedy", "rat")}, battle_id=f"golden-rat-{level}",
                     setup={**DEFAULT_SETUP, "formation": AI_FORMATIONS[level]},
                     revealed=f"golden-rat-{level}".encode().ljust(32, b"."), bot_seed=b"golden-rat-bots",
                     players=PLAYERS, created_at=CREATED_AT)
        return match.state, match.records
    return battle


# A route of three formations. GIRL's potions are at durability 1: usable in battle 1, at 0
# after the save, still usable in battle 2, discarded at its end; the bomb (durability 2)
# lasts into battle 3.
SET_SETUP: dict[str, Any] = {
    **DEFAULT_SETUP,
    "party": [*DEFAULT_SETUP["party"][:2],
              {**DEFAULT_SETUP["party"][2], "items": {"potion": {"count": 5, "durability": 1},
                                                      "stutter_potion": {"count": 1, "durability": 2}}},
              {**DEFAULT_SETUP["party"][3], "items": {"bomb": {"count": 2, "durability": 2}}}],
    "formation": ["sewer_ambush", "beetle_burrow", "back_alley"],
}
SET_SEED = "golden-rat-set"


@cache
def rat_set() -> tuple[PlayedBattle, ...]:
    """Three battles in a row, carried over as a set does."""
    return play_set(RULESET, SET_SETUP, {"p1": get_policy("greedy", "rat")}, SET_SEED, "golden-rat-set", PLAYERS)


BATTLES: Battles = {
    **{f"rat_against_{level}_ai": against(level) for level in AI_FORMATIONS},
    **set_battles("rat_set", rat_set),
}
