"""What a deckduel player can ask for. The tag is the wire `type`."""
from __future__ import annotations

from domain.engine.events import Command, CommandCodec

from .content import CardId


class Mulligan(Command, frozen=True, tag="mulligan"):
    """Put these cards on the bottom of the deck and draw as many (empty: keep the hand)."""
    cards: tuple[CardId, ...] = ()


class PlayAttack(Command, frozen=True, tag="attack"):
    card: CardId


class PlayDrill(Command, frozen=True, tag="drill"):
    card: CardId


class Pass(Command, frozen=True, tag="pass"):
    pass


class Discard(Command, frozen=True, tag="discard"):
    """End step: discard one card while over hand size."""
    card: CardId


DuelCommand = Mulligan | PlayAttack | PlayDrill | Pass | Discard
CODEC = CommandCodec((Mulligan, PlayAttack, PlayDrill, Pass, Discard))
