"""What a skirmish player can ask for. The tag is the wire `type`."""
from __future__ import annotations

from domain.engine.events import Command, CommandCodec


class Field(Command, frozen=True, tag="field"):
    """Selection: the team's characters to field (3 in a duel, up to 5 in a raid)."""
    characters: tuple[str, ...] = ()


class Place(Command, frozen=True, tag="place"):
    """Placement: one fielded character's tile in the deployment zone, as [col, row]."""
    character: str
    cell: tuple[int, ...] = ()


class Mulligan(Command, frozen=True, tag="mulligan"):
    """Starting hand: the cards to replace (empty: keep all three)."""
    cards: tuple[str, ...] = ()


class Move(Command, frozen=True, tag="move"):
    character: str
    to: tuple[int, ...] = ()


class Attack(Command, frozen=True, tag="attack"):
    character: str
    target: str


class Play(Command, frozen=True, tag="play"):
    """Use a skill card: `character` uses it; `target` is a unit key for an ally or enemy
    card; `exert` pays a point of maximum AP for an Exert card's effect."""
    card: str
    character: str
    target: str | None = None
    exert: bool = False


class EndTurn(Command, frozen=True, tag="end_turn"):
    pass


class Forfeit(Command, frozen=True, tag="forfeit"):
    """Seed 001, Defeat: valid at any time, even on the opponent's turn."""


SkirmishCommand = Field | Place | Mulligan | Move | Attack | Play | EndTurn | Forfeit
CODEC = CommandCodec((Field, Place, Mulligan, Move, Attack, Play, EndTurn, Forfeit))
