"""A tournament's events. Their topics and fields are stored data: the tournament's hash chain
covers them, so they never change shape (a change would be a new `class_version`)."""
from __future__ import annotations

from typing import Annotated, Any

import msgspec

from domain.engine.events import Event, server_only

FORMATS = ("swiss", "elimination")


class TournamentCreated(Event, frozen=True, kw_only=True):
    TOPIC = "tournaments.TournamentCreated"
    tournament_id: str
    name: str
    ruleset: str
    format: str                             # one of FORMATS
    rounds: int | None                      # Swiss: how many; elimination: as many as the bracket needs
    games: int                              # each pairing is a set of this many battles
    mode: str                               # the sets' mode: best_of or all
    clock: dict[str, Any] | None            # every battle's time control (its fields)
    created_at: str


class PlayerJoined(Event, frozen=True, kw_only=True):
    TOPIC = "tournaments.PlayerJoined"
    player: str                             # a registered player, or a house entrant `house:<bot>#<n>`
    rating: float                           # openskill mu then: the initial ranking
    bot: str | None = None                  # a house entrant's policy
    # The hash of the player's entrant token, which acts for it in every set of the tournament.
    token_hash: Annotated[str | None, server_only()] = None


class Paired(msgspec.Struct, frozen=True, kw_only=True):
    """One pairing of a round: `a` takes the first seat; `b` None is a bye (no set)."""
    a: str
    b: str | None
    set_id: str | None


class RoundPaired(Event, frozen=True, kw_only=True):
    TOPIC = "tournaments.RoundPaired"
    round: int
    pairings: list[Paired]


class Played(msgspec.Struct, frozen=True, kw_only=True):
    """A pairing's result in half-points (win 2, draw 1, loss 0; a bye 2-0), from its set, and
    in elimination from the tiebreak sets its draw needed, in order."""
    a: str
    b: str | None
    points_a: int
    points_b: int
    set_id: str | None
    tiebreaks: list[str] = []

    @property
    def set_ids(self) -> list[str]:
        """Every set the pairing played, its own first: none for a bye."""
        return [self.set_id, *self.tiebreaks] if self.set_id is not None else []


class TiebreakStarted(Event, frozen=True, kw_only=True):
    """An elimination pairing's set (or last tiebreak) was drawn: a one-battle set decides."""
    TOPIC = "tournaments.TiebreakStarted"
    round: int
    a: str
    set_id: str


class RoundEnded(Event, frozen=True, kw_only=True):
    TOPIC = "tournaments.RoundEnded"
    round: int
    results: list[Played]


class Placed(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    rank: int
    points: int
    buchholz: int
    sonneborn_berger: int
    wins: int


class TournamentEnded(Event, frozen=True, kw_only=True):
    TOPIC = "tournaments.TournamentEnded"
    standings: list[Placed]
    champion: str | None
