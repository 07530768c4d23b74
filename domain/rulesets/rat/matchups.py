"""The matchups a balance run plays (`ringside balance`): the default party against every
enemy formation of the content, once at each enemy's own AI level (the formation's, as the
content lists it) and once at each level the setup's `enemy_ai` may set for every enemy.

The enemy AI level is a setup parameter, and each level a matchup of its own, so one run
compares them and `--matchups` picks some: the enemies' entry (and the cell's name) is the
formation's name, "Sewer Ambush", followed by the level when it is set for all, "Sewer Ambush
(memory)". The party's entry is "default party"."""
from __future__ import annotations

from domain.engine.ruleset import Matchup

from .content import AI_LEVELS, content
from .setup import DEFAULT_SETUP
from .state import ENEMIES, PARTY

PARTY_ENTRY = "default party"


def matchups() -> list[Matchup]:
    return [matchup(formation, level) for formation in content().formations for level in (None, *AI_LEVELS)]


def matchup(formation: str, level: str | None) -> Matchup:
    name = content().formations[formation].name
    enemies = name if level is None else f"{name} ({level})"
    setup = {**DEFAULT_SETUP, "formation": formation, **({"enemy_ai": level} if level is not None else {})}
    return Matchup(setup=setup, entries={PARTY: PARTY_ENTRY, ENEMIES: enemies}, label=enemies)
