"""The ring golden battles: a scripted battle, a whole battle between seeded bots, and a
three-battle set whose LP and EXS carry over."""
from __future__ import annotations

from functools import cache
from typing import Any

from domain.ai import get_policy
from domain.ai.match import play
from domain.engine.battle import BattleState, decide_batch, open_battle
from domain.engine.events import Recorded
from domain.rulesets.ring import RULESET

from .golden import CREATED_AT, PLAYERS, Battles, PlayedBattle, play_set, set_battles

# Teams of two on the Volcano Rim (10 HP to every non-fiery Ring unit at its turn's start),
# so a handful of blows KO a team and the enemy leader falls to strikes.
SCRIPTED_SETUP: dict[str, Any] = {
    "p1": {"deck": "ember_rush"}, "p2": {"deck": "storm_runners"},
    "battlefield": "volcano_rim", "params": {"team_size": 2},
}
# Gale (p2) wins initiative: her Tailwind gives 11 AP a turn and Quick Hands makes a swap 2 AP.
SCRIPTED_SCRIPT: list[tuple[str, dict[str, Any]]] = [
    # Both teams are locked in secret, then revealed together; the Ring picks likewise.
    ("p1", {"type": "pick_team", "units": ["fang_shrike", "needle_hawk"]}),
    ("p2", {"type": "pick_team", "units": ["mirror_imp", "shadow_cat"]}),
    ("p1", {"type": "pick_ring", "unit": "fang_shrike"}),
    ("p2", {"type": "pick_ring", "unit": "mirror_imp"}),
    # Turn 1 (p2): a critical Umbral Strike, echoed by the imp's Shadow, gives it a second
    # Shadow; then a paid swap.
    ("p2", {"type": "ability", "ability": "umbral_strike"}),
    ("p2", {"type": "swap", "unit": "shadow_cat"}),
    ("p2", {"type": "end_turn"}),
    # Turn 2 (p1): two Heavy Slaps (Brutality twice on each) KO the cat, which loses 1 LP;
    # its leader is open, so the 4 AP left of Ignis's 10 become 4 leader damage.
    ("p1", {"type": "ability", "ability": "heavy_slap"}),
    ("p1", {"type": "ability", "ability": "heavy_slap"}),
    ("p1", {"type": "strike_leader", "ap": 4}),
    # Turn 3 (p2): the KO'd cat must leave the Ring first, for free.
    ("p2", {"type": "swap", "unit": "mirror_imp"}),
    ("p2", {"type": "ability", "ability": "umbral_strike"}),
    ("p2", {"type": "leader_ability", "ability": "gust_strike"}),
    ("p2", {"type": "end_turn"}),
    # Turn 4 (p1): two more Heavy Slaps KO the imp (2 LP -> 1).
    ("p1", {"type": "ability", "ability": "heavy_slap"}),
    ("p1", {"type": "ability", "ability": "heavy_slap"}),
    ("p1", {"type": "strike_leader", "ap": 4}),
    # Turn 5 (p2): a Potion revives the imp (nobody is left to swap in).
    ("p2", {"type": "use_item", "item": "potion", "target": "p2.mirror_imp"}),
    ("p2", {"type": "ability", "ability": "umbral_strike"}),
    ("p2", {"type": "end_turn"}),
    # Turn 6 (p1): the imp's second KO takes its last LP, so it is removed. The War Horn's
    # 2 AP go into the strike too.
    ("p1", {"type": "ability", "ability": "heavy_slap"}),
    ("p1", {"type": "use_item", "item": "war_horn"}),
    ("p1", {"type": "strike_leader", "ap": 8}),
    # Turn 7 (p2): no unit standing.
    ("p2", {"type": "end_turn"}),
    # Turn 8 (p1): the volcano KOs the shrike as the turn starts; p1's own free swap, then
    # 10 of the 11 HP Gale has left of her 27 (27 - 4 - 4 - 8 = 11).
    ("p1", {"type": "swap", "unit": "needle_hawk"}),
    ("p1", {"type": "strike_leader", "ap": 10}),
    # Turn 9 (p2): still no unit standing. Turn 10 (p1): the last 1.
    ("p2", {"type": "end_turn"}),
    ("p1", {"type": "strike_leader", "ap": 1}),
]


def ko_swap_and_strike() -> tuple[BattleState, list[Recorded]]:
    state, records = open_battle(RULESET, battle_id="golden-ring-ko-swap-and-strike", setup=SCRIPTED_SETUP,
                                 players=PLAYERS, revealed=b"golden-ring-scripted".ljust(32, b"."),
                                 created_at=CREATED_AT)
    for seat, command in SCRIPTED_SCRIPT:
        state, batch = decide_batch(RULESET, state, seat, command)
        records.extend(batch)
    return state, records


def greedy_vs_memory() -> tuple[BattleState, list[Recorded]]:
    """The two default presets, a whole battle between seeded bots."""
    bots = {"p1": get_policy("greedy", "ring"), "p2": get_policy("memory", "ring")}
    match = play(RULESET, bots, battle_id="golden-ring-greedy-vs-memory",
                 revealed=b"golden-ring-greedy-vs-memory".ljust(32, b"."), bot_seed=b"golden-ring-bots",
                 players=PLAYERS, created_at=CREATED_AT)
    return match.state, match.records


# The default presets with teams of two, so that most units sit some battles out. Of the
# seeds golden-ring-set-0..199, 100 was the first (ring 1.2.0) whose set shows every
# carry-over rule: EXS gained and lost (down to 0), LP lost, won back and capped, and a unit
# out for good.
SET_SETUP: dict[str, Any] = {"p1": {"deck": "ember_rush"}, "p2": {"deck": "iron_wall"}, "params": {"team_size": 2}}
SET_SEED = "golden-ring-set-100"


@cache
def ring_set() -> tuple[PlayedBattle, ...]:
    """Three battles in a row, carried over as `Sets.simulate` does (same seeds: set 0)."""
    bots = {"p1": get_policy("greedy", "ring"), "p2": get_policy("random", "ring")}
    return play_set(RULESET, SET_SETUP, bots, SET_SEED, "golden-ring-set", PLAYERS)


BATTLES: Battles = {
    "ring_ko_swap_and_strike": ko_swap_and_strike,
    "ring_greedy_vs_memory": greedy_vs_memory,
    **set_battles("ring_set", ring_set),
}
