"""The deckduel golden battles: two scripted duels and a whole duel between seeded bots."""
from __future__ import annotations

from typing import Any

from domain.ai import get_policy
from domain.ai.match import play
from domain.engine.battle import BattleState, decide_batch, open_battle
from domain.engine.events import Recorded
from domain.rulesets.deckduel import RULESET

from .golden import CREATED_AT, PLAYERS, Battles

# Twelve-card decks, top first, so the whole duel fits in a screenful of commands.
SMALL = {"deck_size": 12, "initial_hand": 3, "starting_energy": 2}
PERFECT_AND_COUNTER_SETUP: dict[str, Any] = {
    "p1": {"character": "kira", "shuffle": False, "deck": [
        "straight", "hook", "jab",              # hand
        "jab", "jab",                           # energy
        "straight", "uppercut", "jab",          # round 1: power up, draw two
        "parry", "jab", "jab", "jab"]},
    "p2": {"character": "brom", "shuffle": False, "deck": [
        "jab", "straight", "hook",
        "jab", "jab",
        "jab", "hook", "uppercut",
        "jab", "pocket_sand", "haymaker", "rebound"]},
    "first_player": "p1",
    "params": SMALL,
}
# Round 1: p1's straight meets p2's jab (2 -1 = 1, one icon: perfect defense); p2's jab
# flips p1's parry, whose counter flips p2's pocket sand, whose disrupt hits p1's hand;
# p1's hook then empties p2's deck (rebound recycles itself once on the way).
PERFECT_AND_COUNTER_SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("p1", {"type": "mulligan", "cards": []}),
    ("p2", {"type": "mulligan", "cards": []}),
    ("p1", {"type": "attack", "card": "straight"}),
    ("p2", {"type": "attack", "card": "jab"}),
    ("p1", {"type": "attack", "card": "hook"}),
]


DRILLS_SETUP: dict[str, Any] = {
    "p1": {"character": "kira", "shuffle": False, "deck": [
        "whetstone", "jab", "generator", "haymaker",     # hand
        "jab", "jab", "jab",                            # energy
        "straight", "hook", "jab",                      # round 1
        "uppercut", "jab", "straight", "jab",           # round 2, with the generator
        "parry", "hook", "jab", "jab", "jab", "jab"]},
    "p2": {"character": "brom", "shuffle": False, "deck": [
        "iron_skin", "jab", "jab", "straight",
        "jab", "jab", "jab",
        "jab", "hook", "hook",
        "iron_guard",
        "jab", "jab", "hook",
        "jab", "jab", "jab", "jab", "jab", "jab"]},
    "first_player": "p1",
    "params": {"deck_size": 20, "initial_hand": 4, "starting_energy": 3, "hand_size": 2},
}
# Round 1: whetstone and iron skin cancel out on p1's jab, whose flip is braced by iron
# guard; both pass, both discard down to two (p1, the active player, first). Round 2:
# p2 active, p1's generator powers up two; p2's hook meets p1's parry (a perfect defense)
# whose counter iron skin blunts to nothing; then the end step with p2 discarding first.
DRILLS_SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("p1", {"type": "mulligan", "cards": []}),
    ("p2", {"type": "mulligan", "cards": []}),
    ("p1", {"type": "drill", "card": "whetstone"}),
    ("p2", {"type": "drill", "card": "iron_skin"}),
    ("p1", {"type": "attack", "card": "jab"}),
    ("p2", {"type": "pass"}),
    ("p1", {"type": "drill", "card": "generator"}),
    ("p2", {"type": "pass"}),
    ("p1", {"type": "pass"}),
    ("p1", {"type": "discard", "card": "haymaker"}),
    ("p2", {"type": "discard", "card": "jab"}),
    ("p2", {"type": "discard", "card": "jab"}),
    ("p2", {"type": "discard", "card": "straight"}),
    ("p2", {"type": "attack", "card": "hook"}),
    ("p1", {"type": "attack", "card": "hook"}),
    ("p2", {"type": "pass"}),
    ("p1", {"type": "pass"}),
    ("p2", {"type": "discard", "card": "jab"}),
    ("p1", {"type": "discard", "card": "jab"}),
    ("p1", {"type": "discard", "card": "jab"}),
]


def scripted(setup: dict[str, Any], script: list[tuple[str, dict[str, Any]]], revealed: bytes,
             battle_id: str) -> tuple[BattleState, list[Recorded]]:
    state, records = open_battle(RULESET, battle_id=battle_id, setup=setup, players=PLAYERS,
                                 revealed=revealed, created_at=CREATED_AT)
    for seat, command in script:
        state, batch = decide_batch(RULESET, state, seat, command)
        records.extend(batch)
    return state, records


def perfect_and_counter() -> tuple[BattleState, list[Recorded]]:
    return scripted(PERFECT_AND_COUNTER_SETUP, PERFECT_AND_COUNTER_SCRIPT, bytes(range(32)),
                    "golden-perfect-and-counter")


def drills_and_end_step() -> tuple[BattleState, list[Recorded]]:
    return scripted(DRILLS_SETUP, DRILLS_SCRIPT, bytes(range(32, 64)), "golden-drills-and-end-step")


def greedy_vs_random() -> tuple[BattleState, list[Recorded]]:
    """The default characters with shuffled decks: a whole duel between two seeded bots."""
    match = play(RULESET, {"p1": get_policy("greedy", "deckduel"), "p2": get_policy("random", "deckduel")},
                 battle_id="golden-greedy-vs-random", revealed=b"golden-greedy-vs-random".ljust(32, b"."),
                 bot_seed=b"golden-bots", players=PLAYERS, created_at=CREATED_AT)
    return match.state, match.records


BATTLES: Battles = {
    "deckduel_perfect_and_counter": perfect_and_counter,
    "deckduel_drills_and_end_step": drills_and_end_step,
    "deckduel_greedy_vs_random": greedy_vs_random,
}
