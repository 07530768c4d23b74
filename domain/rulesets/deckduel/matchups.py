"""The matchups a balance run plays (`ringside balance`): every ordered pair of two different
characters, each with its own default deck, so each pairing is played from both seats. An
entry is a character's short name, its name up to the comma ("Kira" for "Kira, the Brawler")."""
from __future__ import annotations

from domain.engine.ruleset import Matchup, every_pairing

from .content import content


def matchups() -> list[Matchup]:
    return every_pairing({character.name.split(",")[0]: {"character": character.id}
                          for character in content().characters.values()})
