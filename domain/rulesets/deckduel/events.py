"""Deckduel facts. Hands are secret to their owner; deck order and energy are server-only."""
from __future__ import annotations

from typing import Annotated, Any

from domain.engine.events import Event, secret, server_only

from .commands import Discard, Pass, PlayAttack, PlayDrill
from .content import CardId

Cards = tuple[CardId, ...]


class DuelStarted(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.DuelStarted"
    params: dict[str, Any]
    characters: dict[str, str]
    first_player: str | None = None


class DeckPrepared(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.DeckPrepared"
    seat: str
    size: int
    shuffled: bool
    order: Annotated[Cards | None, server_only()]


class CardsDrawn(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.CardsDrawn"
    seat: str
    count: int
    cards: Annotated[Cards | None, secret(owner="seat")]


class CardsReturned(Event, frozen=True, kw_only=True):
    """Mulligan: these hand cards go to the bottom of the deck."""
    TOPIC = "deckduel.CardsReturned"
    seat: str
    count: int
    cards: Annotated[Cards | None, secret(owner="seat")]


class EnergyGained(Event, frozen=True, kw_only=True):
    """Top cards of the deck go face down onto the energy pile."""
    TOPIC = "deckduel.EnergyGained"
    seat: str
    count: int
    cards: Annotated[Cards | None, server_only()]


class ActivePlayerChosen(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.ActivePlayerChosen"
    seat: str
    by: str                     # "setup" or "rng"


class RoundStarted(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.RoundStarted"
    round: int
    active: str


class AttackPlayed(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.AttackPlayed"
    COMMAND = PlayAttack
    seat: str
    card: CardId


class DrillPlayed(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.DrillPlayed"
    COMMAND = PlayDrill
    seat: str
    card: CardId


class Passed(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.Passed"
    COMMAND = Pass
    seat: str


class CardDiscarded(Event, frozen=True, kw_only=True):
    """End step: the player discards a card of their choice."""
    TOPIC = "deckduel.CardDiscarded"
    COMMAND = Discard
    seat: str
    card: CardId


class EnergyPaid(Event, frozen=True, kw_only=True):
    """Top energy cards go to the bottom of the deck (seed 004, Paying Energy)."""
    TOPIC = "deckduel.EnergyPaid"
    seat: str
    count: int
    cards: Annotated[Cards | None, server_only()]


class DamageDealt(Event, frozen=True, kw_only=True):
    """A damage instance about to be resolved against `seat`'s deck."""
    TOPIC = "deckduel.DamageDealt"
    seat: str
    amount: int
    source: str | None = None       # the attacking seat, if any
    by: str = "attack"              # "attack" or "counter"
    pierce: int = 0                 # flips whose defense icons count for nothing


class DamageFlipped(Event, frozen=True, kw_only=True):
    """One card flipped by damage. Version 2 names the count `icons`, the seed's word: the
    defense icons that counted against the damage (0 for a pierced flip)."""
    TOPIC = "deckduel.DamageFlipped"
    class_version = 2
    seat: str
    card: CardId                    # public: flipped cards are face up
    icons: int
    perfect: bool
    remaining: int

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
        data = dict(data)
        data["icons"] = data.pop("defense")
        return data


class DefenseTriggered(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.DefenseTriggered"
    seat: str
    card: CardId
    trigger: str


class AttackResolved(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.AttackResolved"
    seat: str
    card: CardId


class CardsMilled(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.CardsMilled"
    seat: str
    cards: Cards


class CardsRecovered(Event, frozen=True, kw_only=True):
    """Discard pile top cards return to the hand; they were face up, so they stay public."""
    TOPIC = "deckduel.CardsRecovered"
    seat: str
    cards: Cards


class CardKnockedAway(Event, frozen=True, kw_only=True):
    """A random card leaves the hand for the discard pile, revealed as it lands."""
    TOPIC = "deckduel.CardKnockedAway"
    seat: str
    card: CardId


class CardRecycled(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.CardRecycled"
    seat: str
    card: CardId


class DrillDestroyed(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.DrillDestroyed"
    seat: str
    card: CardId


class CombatEnded(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.CombatEnded"
    round: int


class DiscardRequired(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.DiscardRequired"
    seat: str
    over: int


class RoundEnded(Event, frozen=True, kw_only=True):
    TOPIC = "deckduel.RoundEnded"
    round: int
