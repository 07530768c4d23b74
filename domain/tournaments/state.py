"""A tournament's state, folded from its events; `decide.py` says what comes next."""
from __future__ import annotations

from collections.abc import Iterable
from functools import singledispatch

import msgspec

from domain.engine.chain import GENESIS, chain_folded
from domain.engine.events import Event, Recorded

from .events import PlayerJoined, RoundEnded, RoundPaired, TiebreakStarted, TournamentCreated, TournamentEnded
from .standings import Entrant, Game


class TournamentState(msgspec.Struct, frozen=True, kw_only=True):
    tournament_id: str
    seq: int = 0
    chain: str = GENESIS
    created: TournamentCreated | None = None
    entrants: tuple[Entrant, ...] = ()
    bots: dict[str, str] = {}                   # house entrant -> its policy
    paired: tuple[RoundPaired, ...] = ()
    ended_rounds: tuple[RoundEnded, ...] = ()
    tiebreaks: dict[str, tuple[str, ...]] = {}  # the round in play: first seat -> its tiebreak sets
    token_hashes: dict[str, str] = {}           # entrant -> its entrant token's hash
    ended: TournamentEnded | None = None

    @property
    def current(self) -> RoundPaired | None:
        """The round being played: paired, its results not recorded yet."""
        if self.paired and len(self.paired) > len(self.ended_rounds):
            return self.paired[-1]
        return None

    def games(self) -> list[Game]:
        """Every recorded result, as the pairing and standings functions take them."""
        return [Game(r.round, p.a, p.b, p.points_a, p.points_b) for r in self.ended_rounds for p in r.results]


def evolve_tournament(state: TournamentState, rec: Recorded) -> TournamentState:
    return msgspec.structs.replace(_evolve(rec.event, state), seq=rec.seq, chain=rec.chain)


@singledispatch
def _evolve(event: Event, state: TournamentState) -> TournamentState:
    raise TypeError(f"not a tournament event: {event.TOPIC}")


@_evolve.register
def _(event: TournamentCreated, state: TournamentState) -> TournamentState:
    return msgspec.structs.replace(state, created=event)


@_evolve.register
def _(event: PlayerJoined, state: TournamentState) -> TournamentState:
    bots = {**state.bots, event.player: event.bot} if event.bot is not None else state.bots
    hashes = {**state.token_hashes, event.player: event.token_hash} if event.token_hash else state.token_hashes
    return msgspec.structs.replace(state, entrants=(*state.entrants, Entrant(event.player, event.rating)), bots=bots,
                                   token_hashes=hashes)


@_evolve.register
def _(event: RoundPaired, state: TournamentState) -> TournamentState:
    return msgspec.structs.replace(state, paired=(*state.paired, event))


@_evolve.register
def _(event: TiebreakStarted, state: TournamentState) -> TournamentState:
    return msgspec.structs.replace(state, tiebreaks={**state.tiebreaks,
                                                     event.a: (*state.tiebreaks.get(event.a, ()), event.set_id)})


@_evolve.register
def _(event: RoundEnded, state: TournamentState) -> TournamentState:
    return msgspec.structs.replace(state, ended_rounds=(*state.ended_rounds, event), tiebreaks={})


@_evolve.register
def _(event: TournamentEnded, state: TournamentState) -> TournamentState:
    return msgspec.structs.replace(state, ended=event)


def chain_events(state: TournamentState, events: Iterable[Event]) -> tuple[TournamentState, list[Recorded]]:
    """Record `events` after the head, each hash-chained to the one before, and fold them."""
    return chain_folded(state, events, evolve_tournament)


def fold_tournament(tournament_id: str, records: Iterable[Recorded]) -> TournamentState:
    state = TournamentState(tournament_id=tournament_id)
    for rec in records:
        state = evolve_tournament(state, rec)
    return state
