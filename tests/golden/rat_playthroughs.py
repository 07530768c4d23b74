"""The rat golden battles: the default party (greedy) against a formation of each enemy AI
level, and a three-battle set along a route of formations whose HP and consumables carry
over, with durability running out."""
from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.engine.battle import BattleState
from domain.engine.events import Recorded
from domain.rulesets.rat import RULESET
from domain.rulesets.rat.setup import DEFAULT_SETUP
from domain.sets import battle_setup, carry_after

from .golden import CREATED_AT, Battles

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


class PlayedBattle(NamedTuple):
    setup: dict[str, Any]               # the set's setup with the carry-over applied
    state: BattleState
    records: list[Recorded]
    carry: dict[str, Any] | None        # what the next battle starts from


@cache
def rat_set() -> tuple[PlayedBattle, ...]:
    """Three battles in a row, carried over as a set does."""
    played: list[PlayedBattle] = []
    carry = None
    for i in range(3):
        setup = battle_setup(RULESET, SET_SETUP, carry)
        match = play(RULESET, {"p1": get_policy("greedy", "rat")}, battle_id=f"golden-rat-set-battle-{i + 1}",
                     revealed=seeded_bytes(SET_SEED, "set", 0, i), bot_seed=seeded_bytes(SET_SEED, "bots", 0, i),
                     setup=setup, players=PLAYERS, created_at=CREATED_AT)
        carry = carry_after(RULESET, carry, setup, match.state)
        played.append(PlayedBattle(setup, match.state, match.records, carry))
    return tuple(played)


def set_battle(index: int) -> Callable[[], tuple[BattleState, list[Recorded]]]:
    def battle() -> tuple[BattleState, list[Recorded]]:
        found = rat_set()[index]
        return found.state, list(found.records)
    return battle


BATTLES: Battles = {
    **{f"rat_against_{level}_ai": against(level) for level in AI_FORMATIONS},
    **{f"rat_set_battle_{i + 1}": set_battle(i) for i in range(3)},
}
