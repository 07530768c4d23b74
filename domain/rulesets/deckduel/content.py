"""Loads the TOML content (cards, characters) into frozen records and hashes it."""
from __future__ import annotations

from pathlib import Path

import msgspec

from domain.engine.content import ContentFiles, InForce

CONTENT_DIR = Path(__file__).parent / "content"
CardId = str


class Card(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: CardId
    name: str
    kind: str                       # "attack" or "drill"
    cost: int
    defense: int                    # defense icons, top right (seed 004, Dealing Damage)
    arrows: int = 0                 # damage, bottom right (attacks only)
    effect: str | None = None       # a registered attack effect
    effect_amount: int = 1
    effect_stops_at: tuple[CardId, ...] = ()   # cards the effect stops at (a `recover` never takes them)
    trigger: str | None = None      # a registered defense trigger
    trigger_amount: int = 1
    drill: str | None = None        # a registered continuous drill effect
    text: str = ""


class Character(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    deck: dict[CardId, int]
    text: str = ""

    def deck_list(self) -> tuple[CardId, ...]:
        return tuple(card for card, copies in self.deck.items() for _ in range(copies))


class Content(ContentFiles):
    TABLES = ("cards", "characters")

    def __init__(self, directory: Path = CONTENT_DIR):
        super().__init__(directory)
        raw_cards = self.toml("cards.toml")["cards"]
        raw_chars = self.toml("characters.toml")["characters"]
        self.cards = {cid: msgspec.convert({"id": cid, **body}, type=Card) for cid, body in raw_cards.items()}
        self.characters = {cid: msgspec.convert({"id": cid, **body}, type=Character)
                           for cid, body in raw_chars.items()}



CONTENT = Content()
IN_FORCE = InForce(CONTENT, "deckduel_content")
content, playing = IN_FORCE.get, IN_FORCE.playing
CARDS = CONTENT.cards
