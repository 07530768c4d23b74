"""The `Tournaments` service: a tournament is an aggregate of its own in the battles' store,
hash-chained like a set, each of its pairings a set on the tournament's clock.

`simulate` plays a whole tournament of house entrants (`house:<bot>#<n>`, each a distinct
entrant of the tournament; in their sets they sit as that house bot) round by round: each
round's sets are played bot against bot and stored, then the round's pairing and results
are recorded together.
"""
from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from domain.ai import get_policy
from domain.battles import Battles, utc_now
from domain.engine.clock import ClockSpec, parse_clock
from domain.engine.errors import InvalidInput, RingsideError, quote
from domain.engine.events import Event, Recorded
from domain.engine.ruleset import get_ruleset
from domain.sets import Sets
from domain.store import StoredRecord

from .decide import NeedsSet, check_format, check_join, final_standings, next_pairings, result_of
from .events import Paired, Played, PlayerJoined, RoundEnded, RoundPaired, TournamentCreated, TournamentEnded
from .state import TournamentState, chain_events, fold_tournament

NEW_RATING = 25.0
MAX_SIMULATED = 1024


class UnknownTournament(RingsideError):
    code = "not_found"


def house_entrant(bot: str, number: int) -> str:
    return f"house:{bot}#{number}"


class Tournaments:
    def __init__(self, battles: Battles, sets: Sets):
        self.battles = battles
        self.sets = sets

    # -- reading ---------------------------------------------------------------------------
    def records(self, tournament_id: str) -> list[Recorded]:
        try:
            tid = uuid.UUID(str(tournament_id))
        except ValueError:
            raise UnknownTournament(f"no tournament {tournament_id!r}", tournament_id=str(tournament_id)) from None
        found = self.battles.store.stored_records(tid)
        if not found:
            raise UnknownTournament(f"no tournament {tournament_id!r}", tournament_id=str(tournament_id))
        return found

    def load(self, tournament_id: str) -> TournamentState:
        return fold_tournament(str(tournament_id), self.records(tournament_id))

    # -- writing ---------------------------------------------------------------------------
    def _save(self, state: TournamentState, events: Sequence[Event]) -> TournamentState:
        after, records = chain_events(state, events)
        self.battles.store.save(*(StoredRecord(uuid.UUID(state.tournament_id), r) for r in records))
        return after

    def create(self, ruleset: str, fmt: str, *, rounds: int | None, games: int = 1, mode: str = "best_of",
               clock: ClockSpec | Mapping[str, Any] | str | None = None, name: str = "") -> TournamentState:
        get_ruleset(ruleset)
        check_format(fmt, rounds, games)
        spec = clock if isinstance(clock, ClockSpec) else parse_clock(clock)
        tid = str(uuid.uuid4())
        created = TournamentCreated(tournament_id=tid, name=name or f"{ruleset} {fmt}", ruleset=ruleset, format=fmt,
                                    rounds=rounds if fmt == "swiss" else None, games=games, mode=mode,
                                    clock=None if spec is None else msgspec.to_builtins(spec), created_at=utc_now())
        return self._save(TournamentState(tournament_id=tid), [created])

    def join(self, state: TournamentState, player: str, rating: float = NEW_RATING,
             bot: str | None = None) -> TournamentState:
        check_join(state, player)
        return self._save(state, [PlayerJoined(player=player, rating=rating, bot=bot)])

    def simulate(self, ruleset: str, fmt: str, *, players: int, rounds: int | None, seed: str,
                 bots: Sequence[str] = ("greedy",), games: int = 1, mode: str = "best_of",
                 clock: ClockSpec | Mapping[str, Any] | str | None = None) -> TournamentState:
        """A whole tournament of `players` house entrants (their bots taken in turn from `bots`)."""
        if type(players) is not int or not 2 <= players <= MAX_SIMULATED:
            raise InvalidInput("players", f"a simulated tournament has 2 to {MAX_SIMULATED} players, not {quote(players)}")
        for bot in bots:
            get_policy(bot, ruleset)
        state = self.create(ruleset, fmt, rounds=rounds, games=games, mode=mode, clock=clock)
        joined = [PlayerJoined(player=house_entrant(bots[i % len(bots)], i + 1), rating=NEW_RATING,
                               bot=bots[i % len(bots)]) for i in range(players)]
        state = self._save(state, joined)
        while (pairs := next_pairings(state)) is not None:
            state = self._play_round(state, pairs, seed)
        placed, champion = final_standings(state)
        return self._save(state, [TournamentEnded(standings=placed, champion=champion)])

    def _play_round(self, state: TournamentState, pairs: list[tuple[str, str | None]], seed: str) -> TournamentState:
        created = state.created
        assert created is not None
        number = len(state.ended_rounds) + 1
        pairings, results = [], []
        for i, (a, b) in enumerate(pairs):
            set_ids: list[str] = []
            winners: list[str | None] = []
            while True:
                try:
                    played = result_of(created, a, b, winners, set_ids)
                    break
                except NeedsSet:
                    pass
                assert b is not None
                games = created.games if not set_ids else 1
                done = self._simulated_set(state, a, b, games, f"{seed}/{number}/{i}/{len(set_ids)}")
                set_ids.append(done[0])
                winners.append(done[1])
            pairings.append(Paired(a=a, b=b, set_id=played.set_id))
            results.append(played)
        return self._save(state, [RoundPaired(round=number, pairings=pairings),
                                  RoundEnded(round=number, results=results)])

    def _simulated_set(self, state: TournamentState, a: str, b: str, games: int, seed: str) -> tuple[str, str | None]:
        created = state.created
        assert created is not None
        bots = {"p1": get_policy(state.bots[a], created.ruleset), "p2": get_policy(state.bots[b], created.ruleset)}
        played = self.sets.simulate(created.ruleset, bots, games=games, mode=created.mode if games > 1 else "best_of",
                                    seed=seed, clock=created.clock)
        assert played.ended is not None
        return played.set_id, played.ended.winner

    def page(self, tournament_id: str) -> dict[str, Any]:
        """The tournament as anyone may see it: entrants, rounds with their sets, standings."""
        state = self.load(tournament_id)
        created = state.created
        assert created is not None
        placed, champion = final_standings(state) if state.ended_rounds else ([], None)
        rounds = []
        for paired in state.paired:
            ended = next((r for r in state.ended_rounds if r.round == paired.round), None)
            rounds.append({"round": paired.round, "pairings": msgspec.to_builtins(paired.pairings),
                           "results": None if ended is None else msgspec.to_builtins(ended.results)})
        return {"tournament_id": state.tournament_id, "name": created.name, "ruleset": created.ruleset,
                "format": created.format, "rounds_planned": created.rounds, "games": created.games,
                "clock": created.clock, "entrants": [{"id": e.id, "rating": e.rating} for e in state.entrants],
                "rounds": rounds, "standings": msgspec.to_builtins(placed),
                "champion": state.ended.champion if state.ended else None, "finished": state.ended is not None,
                "head": state.chain if state.ended is not None else None}


def results_of(state: TournamentState) -> list[Played]:
    return [p for r in state.ended_rounds for p in r.results]
