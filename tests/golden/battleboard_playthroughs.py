"""The battleboard golden battles: a scripted opening on the training ground, a whole battle
between greedy heroes and a memory game master, and three hero seats against the Cinder
Drake."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.ai import get_policy
from domain.ai.match import play
from domain.engine.battle import BattleState, decide_batch, open_battle
from domain.engine.events import Recorded
from domain.rulesets.battleboard import RULESET
from domain.rulesets.battleboard.setup import DEFAULT_SETUP, table

from .golden import CREATED_AT, Battles

Played = tuple[BattleState, list[Recorded]]
PLAYERS = {"h1": "ann", "h2": "bob", "h3": "cy", "gm": "gwen"}
BOSS_SETUP: dict[str, Any] = {"heroes": ["aria", "bram", "cass"], "encounter": "drake_lair"}
# Aria (h1) and Bram (h2) against two goblin cutthroats and an archer on the training ground.
SCRIPTED_SETUP: dict[str, Any] = {"heroes": ["aria", "bram"], "map": "training_ground",
                                  "foes": ["goblin_cutthroat", "goblin_cutthroat", "goblin_archer"]}
SCRIPTED_SCRIPT: list[tuple[str, dict[str, Any]]] = [
    # The foes win the initiative and go second: they arrange first, in secret; then the heroes.
    ("gm", {"type": "choose", "go": "second"}),
    ("gm", {"type": "place", "unit": "f1", "cell": [1, 3]}),
    ("gm", {"type": "place", "unit": "f2", "cell": [3, 3]}),
    ("gm", {"type": "place", "unit": "f3", "cell": [2, 5]}),
    ("h2", {"type": "place", "unit": "h2", "cell": [1, 1]}),
    ("h1", {"type": "place", "unit": "h1", "cell": [2, 2]}),
    # Round 1, the heroes' half turn: one action each. Bram's Firebolt breaks Goblin f1; Aria
    # wades into the foes' row through two zones of control and difficult ground, Heavy Blows
    # f2 (a focus reroll), then snaps back to her origin as her seat ends its turn.
    ("h2", {"type": "act", "unit": "h2", "action": "firebolt", "targets": ["f1"]}),
    ("h1", {"type": "move", "unit": "h1", "to": [2, 3]}),
    ("h1", {"type": "act", "unit": "h1", "action": "heavy_blow", "targets": ["f2"], "reroll": 1}),
    ("h1", {"type": "end_turn"}),
    ("h2", {"type": "end_turn"}),
    # The foes' turn: f1 steps into the heroes' rows to cut Bram, who spends 2 focus to turn
    # the break into a tap; the archer cannot shoot up at Aria on her mound (range never
    # climbs), so it steps forward and shoots Bram from 3 away; f2 cannot reach Aria on her
    # mound (lower ground is not next to higher), and both goblins snap back.
    ("gm", {"type": "move", "unit": "f1", "to": [1, 2]}),
    ("gm", {"type": "act", "unit": "f1", "action": "rusty_blade", "targets": ["h2"]}),
    ("h2", {"type": "defend", "lose": "untapped", "focus": 2}),
    ("gm", {"type": "move", "unit": "f3", "to": [2, 4]}),
    ("gm", {"type": "act", "unit": "f3", "action": "shortbow_shot", "targets": ["h2"]}),
    ("gm", {"type": "move", "unit": "f2", "to": [3, 2]}),
    ("gm", {"type": "end_turn"}),
    # Round 2: Bram's Scatter Shot and a doubled-down Firebolt; Aria raises her shield and
    # doubles down on Recover (two guard actions). Both hero seats end, in either order.
    ("h2", {"type": "move", "unit": "h2", "to": [2, 1]}),
    ("h2", {"type": "move", "unit": "h2", "to": [3, 1]}),
    ("h2", {"type": "act", "unit": "h2", "action": "scatter_shot", "targets": ["f1", "f2"]}),
    ("h2", {"type": "act", "unit": "h2", "action": "firebolt", "targets": ["f1"], "reroll": 2}),
    ("h1", {"type": "act", "unit": "h1", "action": "raise_shield"}),
    ("h1", {"type": "act", "unit": "h1", "action": "recover"}),
    ("h2", {"type": "end_turn"}),
    ("h1", {"type": "end_turn"}),]


def players(setup: Mapping[str, Any]) -> dict[str, str]:
    return {seat: PLAYERS[seat] for seat in table(setup).seats}


def scripted_opening() -> Played:
    state, records = open_battle(RULESET, battle_id="golden-battleboard-scripted", setup=SCRIPTED_SETUP,
                                 players=players(SCRIPTED_SETUP), revealed=b"golden-battleboard-scripted".ljust(32, b"."),
                                 created_at=CREATED_AT)
    for seat, command in SCRIPTED_SCRIPT:
        state, batch = decide_batch(RULESET, state, seat, command)
        records.extend(batch)
    return state, records


def bots_battle(name: str, heroes: str, foes: str, setup: Mapping[str, Any]) -> Played:
    bots = {seat: get_policy(foes if seat == "gm" else heroes, "battleboard") for seat in table(setup).seats}
    match = play(RULESET, bots, battle_id=f"golden-battleboard-{name}", setup=setup,
                 revealed=f"golden-battleboard-{name}".encode().ljust(32, b"."),
                 bot_seed=f"golden-battleboard-{name}-bots".encode(), players=players(setup), created_at=CREATED_AT)
    return match.state, match.records


def greedy_vs_memory() -> Played:
    """The default setup played out: greedy hero seats against a memory game master."""
    return bots_battle("greedy-vs-memory", "greedy", "memory", DEFAULT_SETUP)


def boss_fight() -> Played:
    """Three hero seats against the Cinder Drake and its goblins, greedy bots all."""
    return bots_battle("boss", "greedy", "greedy", BOSS_SETUP)


BATTLES: Battles = {
    "battleboard_scripted_opening": scripted_opening,
    "battleboard_greedy_vs_memory": greedy_vs_memory,
    "battleboard_boss_fight": boss_fight,
}
