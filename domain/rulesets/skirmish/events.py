"""Skirmish facts. Hands and placements are secret to their seat; deck order is server-only."""
from __future__ import annotations

from typing import Annotated, Any

from domain.engine.events import Event, secret, server_only
from domain.engine.in_force import with_older

from .commands import Attack, EndTurn, Forfeit, Move, Place, Play
from .state import Params

Cards = tuple[str, ...]


class SkirmishStarted(Event, frozen=True, kw_only=True):
    """The teams (public from the start, seed 001 Preparation 1) with each unit's numbers."""
    TOPIC = "skirmish.SkirmishStarted"
    class_version = 2
    params: dict[str, Any]
    mode: str
    board: str
    units: list[dict[str, Any]]
    first_player: str | None = None

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
        """Skirmish 1.0.0 had no `second_chance_damage` nor `second_player_ap` param: it played
        by their `Older` values (a unit returns whole; no compensation)."""
        return {**data, "params": with_older(Params, data["params"])}


class UnitPlaced(Event, frozen=True, kw_only=True):
    """A seat placed one fielded character; where stays secret until every unit is placed."""
    TOPIC = "skirmish.UnitPlaced"
    COMMAND = Place
    seat: str
    character: str
    cell: Annotated[list[int] | None, secret(owner="seat")]

    def is_action(self) -> bool:
        return False        # the reveal is the public fact


class PlacementsRevealed(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.PlacementsRevealed"
    cells: dict[str, list[int]]


class DeckPrepared(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.DeckPrepared"
    seat: str
    size: int
    order: Annotated[Cards | None, server_only()]


class CardsDrawn(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.CardsDrawn"
    seat: str
    count: int
    cards: Annotated[Cards | None, secret(owner="seat")]


class CardBurned(Event, frozen=True, kw_only=True):
    """Seed 001, Cards: a card drawn into a full hand is discarded, face up."""
    TOPIC = "skirmish.CardBurned"
    seat: str
    card: str


class CardsReturned(Event, frozen=True, kw_only=True):
    """Starting hand: cards put back before the deck is shuffled and new ones drawn."""
    TOPIC = "skirmish.CardsReturned"
    seat: str
    count: int
    cards: Annotated[Cards | None, secret(owner="seat")]


class DeckShuffled(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.DeckShuffled"
    seat: str
    order: Annotated[Cards | None, server_only()]


class FirstPlayerChosen(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.FirstPlayerChosen"
    seat: str
    by: str                         # "setup" or "rng"


class UnitEntered(Event, frozen=True, kw_only=True):
    """A unit enters the match (its Prologue, the first time)."""
    TOPIC = "skirmish.UnitEntered"
    unit: str
    cell: list[int]


class TalentTriggered(Event, frozen=True, kw_only=True):
    """A unit's talent activates (seed 001, Talents): what follows is its effect."""
    TOPIC = "skirmish.TalentTriggered"
    unit: str
    talent: str


class TalentCopied(Event, frozen=True, kw_only=True):
    """Mirror Match: the opponent's talent drawn from the battle's RNG."""
    TOPIC = "skirmish.TalentCopied"
    unit: str
    talent: str
    source: str


class StatsLowered(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.StatsLowered"
    unit: str
    power: int
    armor: int
    by: str


class TurnStarted(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.TurnStarted"
    turn: int
    seat: str


class ApRestored(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.ApRestored"
    seat: str
    max_ap: int
    ap: int


class MaxApChanged(Event, frozen=True, kw_only=True):
    """Early Bird raises the maximum; Exert lowers it (and the points left with it)."""
    TOPIC = "skirmish.MaxApChanged"
    seat: str
    max_ap: int
    ap: int
    by: str


class StormRaised(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.StormRaised"
    seat: str
    storm: int
    by: str


class DrawFailed(Event, frozen=True, kw_only=True):
    """Seed 001, Defeat: a player who tries to draw from an empty deck loses."""
    TOPIC = "skirmish.DrawFailed"
    seat: str


class PlayerDefeated(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.PlayerDefeated"
    seat: str
    reason: str


class UnitMoved(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.UnitMoved"
    COMMAND = Move
    seat: str
    character: str
    to: list[int]
    path: list[list[int]]


class Attacked(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.Attacked"
    COMMAND = Attack
    seat: str
    character: str
    target: str


class AttackForced(Event, frozen=True, kw_only=True):
    """Aggression: at the start of its seat's turn a unit able to attack an aggressive opponent does."""
    TOPIC = "skirmish.AttackForced"
    RULES_ACTION = True
    seat: str
    character: str
    target: str


class Struck(Event, frozen=True, kw_only=True):
    """An attack landed: `power` after Prowess, Amplify and Fortified; `damage` the total taken."""
    TOPIC = "skirmish.Struck"
    unit: str
    target: str
    power: int
    damage: int
    counter: bool = False


class SkillDamaged(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.SkillDamaged"
    unit: str
    card: str
    amount: int
    damage: int


class Healed(Event, frozen=True, kw_only=True):
    """`amount` is the damage actually removed."""
    TOPIC = "skirmish.Healed"
    unit: str
    amount: int
    damage: int
    by: str


class UnitFainted(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.UnitFainted"
    unit: str


class ReturnPending(Event, frozen=True, kw_only=True):
    """Second Chance: the unit will return at the start of its seat's next turn."""
    TOPIC = "skirmish.ReturnPending"
    unit: str


class UnitReturned(Event, frozen=True, kw_only=True):
    """Second Chance: the unit is back on `cell` with `damage` taken (version 1: always none)."""
    TOPIC = "skirmish.UnitReturned"
    class_version = 2
    unit: str
    cell: list[int]
    damage: int

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
        return {**data, "damage": 0}


class EffectGiven(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.EffectGiven"
    unit: str
    effect: str
    by: str


class EffectEnded(Event, frozen=True, kw_only=True):
    """`reason`: expired, consumed, attacked (Concealed) or fainted."""
    TOPIC = "skirmish.EffectEnded"
    unit: str
    effect: str
    reason: str


class CardPlayed(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.CardPlayed"
    COMMAND = Play
    seat: str
    card: str
    character: str
    target: str | None = None
    exert: bool = False
    cost: int


class KeywordActivated(Event, frozen=True, kw_only=True):
    """A keyword's effect happens `times` times (Storm: once per Storm skill used)."""
    TOPIC = "skirmish.KeywordActivated"
    card: str
    keyword: str
    times: int


class TurnEnded(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.TurnEnded"
    COMMAND = EndTurn
    seat: str


class Forfeited(Event, frozen=True, kw_only=True):
    TOPIC = "skirmish.Forfeited"
    COMMAND = Forfeit
    seat: str
