"""The skirmish golden battles: a scripted duel, a whole duel between the greedy and memory
bots, and a raid of five against the Tempest Wyrm's side."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.ai import get_policy
from domain.ai.match import play
from domain.engine.battle import BattleState, decide_batch, open_battle
from domain.engine.events import Recorded
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.setup import DEFAULT_SETUP, RAID_SETUP

from .golden import CREATED_AT, PLAYERS, Battles

Played = tuple[BattleState, list[Recorded]]

SCRIPTED_SETUP: dict[str, Any] = {**DEFAULT_SETUP, "board": "meadow", "first_player": "p1"}   # its cells are meadow's
# The Ember Circle's three against three Thornwood Wardens on the meadow. Each turn's draw
# comes from the seeded shuffle; p1's mulligan swaps two of its three cards.
SCRIPTED_SCRIPT: list[tuple[str, dict[str, Any]]] = [
    # Preparation: fielded three, then places, in secret; then the starting hands.
    ("p1", {"type": "field", "characters": ["ember", "cinder", "flint"]}),
    ("p2", {"type": "field", "characters": ["wisp", "sable", "thorn"]}),
    ("p1", {"type": "place", "character": "ember", "cell": [3, 1]}),
    ("p1", {"type": "place", "character": "cinder", "cell": [2, 1]}),
    ("p1", {"type": "place", "character": "flint", "cell": [4, 1]}),
    ("p2", {"type": "place", "character": "sable", "cell": [3, 6]}),
    ("p2", {"type": "place", "character": "wisp", "cell": [2, 6]}),
    ("p2", {"type": "place", "character": "thorn", "cell": [4, 6]}),
    ("p1", {"type": "mulligan", "cards": ["hot_pursuit", "ranger_skill"]}),
    ("p2", {"type": "mulligan", "cards": []}),
    # Turn 1 (p1, 2 AP with Ember's Early Bird): Kindle gives Ember Amplify (Threshold unmet).
    ("p1", {"type": "play", "card": "kindle", "character": "ember"}),
    ("p1", {"type": "move", "character": "ember", "to": [3, 3]}),
    ("p1", {"type": "move", "character": "cinder", "to": [2, 3]}),
    ("p1", {"type": "end_turn"}),
    # Turn 2 (p2): Sable shoots Ember two tiles away and Ember's Amplified counter answers
    # (20); Thorn's blow on Cinder, one tile away, goes unanswered. Vanish channels: Sable is
    # Concealed, gains Prowess, then is Restrained by its own Channel.
    ("p2", {"type": "move", "character": "sable", "to": [3, 5]}),
    ("p2", {"type": "attack", "character": "sable", "target": "p1.ember"}),
    ("p2", {"type": "move", "character": "thorn", "to": [2, 4]}),
    ("p2", {"type": "attack", "character": "thorn", "target": "p1.cinder"}),
    ("p2", {"type": "play", "card": "vanish", "character": "sable"}),
    ("p2", {"type": "end_turn"}),
    # Turn 3 (p1): Amplify in round 2 makes Ember's shot 22; Flint and Thorn trade melee blows.
    ("p1", {"type": "play", "card": "caster_skill", "character": "ember"}),
    ("p1", {"type": "attack", "character": "ember", "target": "p2.thorn"}),
    ("p1", {"type": "move", "character": "flint", "to": [3, 4]}),
    ("p1", {"type": "attack", "character": "flint", "target": "p2.thorn"}),
    ("p1", {"type": "play", "card": "ranger_skill", "character": "cinder"}),
    ("p1", {"type": "end_turn"}),
    # Turn 4 (p2): Sable's own Restrained and Concealed expire; its Prowess doubles the shot
    # (32) and Thorn's blow makes Ember faint. Sap Mending channels a second heal.
    ("p2", {"type": "attack", "character": "sable", "target": "p1.ember"}),
    ("p2", {"type": "move", "character": "thorn", "to": [4, 3]}),
    ("p2", {"type": "attack", "character": "thorn", "target": "p1.ember"}),
    ("p2", {"type": "play", "card": "sap_mending", "character": "wisp", "target": "p2.sable"}),
    ("p2", {"type": "end_turn"}),
    # Turn 5 (p1): Ashen Arrow is the first Storm skill: its Storm damage happens once.
    ("p1", {"type": "attack", "character": "flint", "target": "p2.sable"}),
    ("p1", {"type": "play", "card": "ashen_arrow", "character": "cinder", "target": "p2.thorn"}),
    ("p1", {"type": "attack", "character": "cinder", "target": "p2.thorn"}),
    ("p1", {"type": "end_turn"}),
    # Turn 6 (p2): Thicket Snare after Thorn's attack: Aftermath adds its 6 damage.
    ("p2", {"type": "move", "character": "thorn", "to": [4, 4]}),
    ("p2", {"type": "attack", "character": "thorn", "target": "p1.flint"}),
    ("p2", {"type": "play", "card": "thicket_snare", "character": "thorn", "target": "p1.flint"}),
    ("p2", {"type": "move", "character": "sable", "to": [2, 5]}),
    ("p2", {"type": "attack", "character": "sable", "target": "p1.cinder"}),
    ("p2", {"type": "move", "character": "wisp", "to": [3, 6]}),
    ("p2", {"type": "attack", "character": "wisp", "target": "p1.flint"}),
    ("p2", {"type": "end_turn"}),
    # Turn 7 (p1): the second Storm skill hits every enemy twice, even from a Restrained user,
    # and Thorn faints; Sable faints and its Second Chance brings it back as p2's turn 8 starts,
    # with half its armor as damage.
    ("p1", {"type": "play", "card": "flurry_of_sparks", "character": "flint"}),
    ("p1", {"type": "attack", "character": "cinder", "target": "p2.sable"}),
    ("p1", {"type": "end_turn"}),
    # Turn 8 (p2): p1 forfeits on its opponent's turn.
    ("p1", {"type": "forfeit"}),
]


def scripted_duel() -> Played:
    state, records = open_battle(RULESET, battle_id="golden-skirmish-scripted-duel", setup=SCRIPTED_SETUP,
                                 players=PLAYERS, revealed=b"golden-skirmish-scripted".ljust(32, b"."),
                                 created_at=CREATED_AT)
    for seat, command in SCRIPTED_SCRIPT:
        state, batch = decide_batch(RULESET, state, seat, command)
        records.extend(batch)
    return state, records


def bots_battle(name: str, policies: Mapping[str, str], setup: Mapping[str, Any]) -> Played:
    bots = {seat: get_policy(policy, "skirmish") for seat, policy in policies.items()}
    match = play(RULESET, bots, battle_id=f"golden-skirmish-{name}", setup=setup,
                 revealed=f"golden-skirmish-{name}".encode().ljust(32, b"."),
                 bot_seed=f"golden-skirmish-{name}-bots".encode(), players=PLAYERS, created_at=CREATED_AT)
    return match.state, match.records


def greedy_vs_memory() -> Played:
    """The default teams, a whole duel between seeded bots."""
    return bots_battle("greedy-vs-memory", {"p1": "greedy", "p2": "memory"}, DEFAULT_SETUP)


def raid() -> Played:
    """Five fielded characters (the memory bot fields its whole team) against the Tempest Wyrm
    and its two escorts, the boss side played by the greedy bot."""
    return bots_battle("raid", {"p1": "memory", "p2": "greedy"}, RAID_SETUP)


BATTLES: Battles = {
    "skirmish_scripted_duel": scripted_duel,
    "skirmish_greedy_vs_memory": greedy_vs_memory,
    "skirmish_raid": raid,
}
