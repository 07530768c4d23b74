"""Loads the TOML content (cards, characters) into frozen records and hashes it."""
from __future__ import annotations

import tomllib
from functools import cached_property
from hashlib import blake2b
from pathlib import Path

import msgspec

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


class Content:
    def __init__(self, directory: Path = CONTENT_DIR):
        self.files = {p.name: p.read_bytes() for p in sorted(directory.glob("*.toml"))}
        raw_cards = tomllib.loads(self.files["cards.toml"].decode())["cards"]
        raw_chars = tomllib.loads(self.files["characters.toml"].decode())["characters"]
        self.cards = {cid: msgspec.convert({"id": cid, **body}, type=Card) for cid, body in raw_cards.items()}
        self.characters = {cid: msgspec.convert({"id": cid, **body}, type=Character)
                           for cid, body in raw_chars.items()}

    @cached_property
    def hash(self) -> str:
        digest = blake2b(digest_size=16)
        for name, body in self.files.items():
            digest.update(name.encode() + b"\0" + body + b"\0")
        return digest.hexdigest()

    def as_json(self) -> dict[str, object]:
        return {"cards": {k: msgspec.to_builtins(v) for k, v in self.cards.items()},
                "characters": {k: msgspec.to_builtins(v) for k, v in self.characters.items()}}


CONTENT = Content()
CARDS = CONTENT.cards
