"""The matchups a balance run plays (`ringside balance`): every ordered pair of two different
preset decks, so each pairing is played from both seats (as `balance.py` plays them). An entry
is a preset's id."""
from __future__ import annotations

from domain.engine.ruleset import Matchup, every_pairing

from .content import content


def matchups() -> list[Matchup]:
    return every_pairing({deck: {"deck": deck} for deck in content().decks})
