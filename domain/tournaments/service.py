"""The `Tournaments` service: a tournament is an aggregate of its own in the battles' store,
hash-chained like a set, each of its pairings a set on the tournament's clock.

`simulate` plays a whole tournament of house entrants (`house:<bot>#<n>`, each a distinct
entrant of the tournament; in their sets they sit as that house bot) round by round: each
round's sets are played bot against bot and stored, then the round's pairing and results
are recorded together.
"""
from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec
from eventsourcing.persistence import IntegrityError

from domain.access import derived_token, token_hash
from domain.ai import get_policy
from domain.battles import Battles, utc_now
from domain.engine.clock import ClockSpec, parse_clock
from domain.engine.errors import InvalidInput, RingsideError, quote
from domain.engine.events import Event, Recorded
from domain.engine.ruleset import get_ruleset
from domain.players import NEW_RATING, RatingOf, not_rated, rating_or_new
from domain.sets import Sets, SetState
from domain.sets.service import UnknownSet
from domain.store import StoredRecord

from .decide import NeedsSet, TournamentClosed, check_format, check_join, final_standings, next_pairings, result_of
from .events import (Paired, Played, PlayerJoined, RoundEnded, RoundPaired, TiebreakStarted, TournamentCreated,
                     TournamentEnded)
from .state import TournamentState, chain_events, fold_tournament

MAX_SIMULATED = 1024
RETRIES = 8


class UnknownTournament(RingsideError):
    code = "not_found"


def house_entrant(bot: str, number: int) -> str:
    return f"house:{bot}#{number}"


def entrant_token(player_token: str, tournament_id: str) -> str:
    """The token that acts for a registered entrant in every set of the tournament: known only
    to whoever holds its player token, and stored only as a hash."""
    return derived_token(player_token, f"tournament {tournament_id}")


class Tournaments:
    def __init__(self, battles: Battles, sets: Sets,
                 rating_of: RatingOf = not_rated):
        self.battles = battles
        self.sets = sets
        self.rating_of = rating_of        # a player's rating in a ruleset (None: not rated yet)

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

    def simulate(self, ruleset: str, fmt: str, *, players: int, rounds: int | None, seed: str,
                 bots: Sequence[str] = ("greedy",), games: int = 1, mode: str = "best_of",
                 clock: ClockSpec | Mapping[str, Any] | str | None = None) -> TournamentState:
        """A whole tournament of `players` house entrants (their bots taken in turn from `bots`)."""
        if type(players) is not int or not 2 <= players <= MAX_SIMULATED:
            raise InvalidInput("players", f"a simulated tournament has 2 to {MAX_SIMULATED} players, "
                                          f"not {quote(players)}")
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
        pairings: list[Paired] = []
        tiebreaks: list[Event] = []
        results = []
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
                if set_ids:         # as a live tournament records the tiebreak it opens
                    tiebreaks.append(TiebreakStarted(round=number, a=a, set_id=done[0]))
                set_ids.append(done[0])
                winners.append(done[1])
            pairings.append(Paired(a=a, b=b, set_id=played.set_id))
            results.append(played)
        return self._save(state, [RoundPaired(round=number, pairings=pairings), *tiebreaks,
                                  RoundEnded(round=number, results=results)])

    def _simulated_set(self, state: TournamentState, a: str, b: str, games: int, seed: str) -> tuple[str, str | None]:
        created = state.created
        assert created is not None
        bots = {"p1": get_policy(state.bots[a], created.ruleset), "p2": get_policy(state.bots[b], created.ruleset)}
        played = self.sets.simulate(created.ruleset, bots, games=games, mode=created.mode if games > 1 else "best_of",
                                    seed=seed, clock=created.clock)
        assert played.ended is not None
        return played.set_id, played.ended.winner

    # -- played live -----------------------------------------------------------------------
    def enter(self, tournament_id: str, player: str, player_token: str) -> dict[str, Any]:
        """The registered `player` (whose token the caller has checked) joins at its rating in
        the tournament's ruleset; its entrant token, derived from its player token, acts for
        it in every set of the tournament."""
        state = self.load(tournament_id)
        assert state.created is not None
        rating = rating_or_new(self.rating_of, state.created.ruleset, player)
        token = entrant_token(player_token, state.tournament_id)
        self._append(state, [PlayerJoined(player=player, rating=rating,
                                           token_hash=token_hash(token))], check=lambda s: check_join(s, player))
        return {"tournament_id": state.tournament_id, "player": player, "entrant_token": token}

    def enter_house(self, tournament_id: str, bot: str) -> str:
        """A house entrant (`house:<bot>#<n>`, n counting the tournament's entrants)."""
        state = self.load(tournament_id)
        assert state.created is not None
        get_policy(bot, state.created.ruleset)
        entrant = house_entrant(bot, len(state.entrants) + 1)
        self._append(state, [PlayerJoined(player=entrant, rating=NEW_RATING, bot=bot)],
                     check=lambda s: check_join(s, entrant))
        return entrant

    def start(self, tournament_id: str) -> TournamentState:
        """Pair round 1 and open its sets."""
        state = self.load(tournament_id)
        if state.paired or state.ended is not None:
            raise TournamentClosed(f"tournament {state.tournament_id} has started already")
        if len(state.entrants) < 2:
            raise InvalidInput("entrants", "a tournament needs at least 2 entrants to start")
        return self._pair_next(state)

    def advance(self, tournament_id: str) -> TournamentState:
        """Record the round in play once every one of its sets has ended (a drawn elimination
        set first gets its tiebreak set), then pair the next round or end the tournament.
        Idempotent; a concurrent advancer's win is reloaded, not redone."""
        state = self.load(tournament_id)
        current, created = state.current, state.created
        if current is None or created is None:
            return state
        results = []
        for pairing in current.pairings:
            set_ids = [pairing.set_id, *state.tiebreaks.get(pairing.a, ())] if pairing.set_id else []
            winners: list[str | None] = []
            for i, set_id in enumerate(set_ids):
                found = self._opened(state, pairing.a, pairing.b, set_id, created.games if i == 0 else 1)
                if found is None or found.ended is None:
                    return state            # still being played
                winners.append(found.ended.winner)
            try:
                results.append(result_of(created, pairing.a, pairing.b, winners, set_ids))
            except NeedsSet:
                set_id = str(uuid.uuid4())
                after = self._first(state, [TiebreakStarted(round=current.round, a=pairing.a, set_id=set_id)])
                if after is not None:
                    self._opened(after, pairing.a, pairing.b, set_id, 1)
                return after or self.load(tournament_id)
        after = self._first(state, [RoundEnded(round=current.round, results=results)])
        return self.load(tournament_id) if after is None else self._pair_next(after)

    def _pair_next(self, state: TournamentState) -> TournamentState:
        pairs = next_pairings(state)
        if pairs is None:
            placed, champion = final_standings(state)
            ended = self._first(state, [TournamentEnded(standings=placed, champion=champion)])
            return ended or self.load(state.tournament_id)
        paired = RoundPaired(round=len(state.ended_rounds) + 1, pairings=[
            Paired(a=a, b=b, set_id=None if b is None else str(uuid.uuid4())) for a, b in pairs])
        after = self._first(state, [paired])
        if after is None:
            return self.load(state.tournament_id)      # another worker paired the round, and opens its sets
        assert after.created is not None
        for pairing in paired.pairings:
            if pairing.set_id is not None and pairing.b is not None:
                self._opened(after, pairing.a, pairing.b, pairing.set_id, after.created.games)
        return after

    def _opened(self, state: TournamentState, a: str, b: str | None, set_id: str, games: int) -> SetState | None:
        """A pairing's set as stored; None when it has only just been opened: a set the
        tournament recorded but nobody opened (a worker stopped between the two) is opened here.
        Another worker may open it at the same moment (the sweep, while `start` opens round 1):
        the set and its first battle are saved in one transaction, so one of the two wins whole,
        and the loser finds it opened."""
        created = state.created
        assert created is not None and b is not None
        try:
            return self.sets.load(set_id)
        except UnknownSet:
            seats = (("p1", a), ("p2", b))
            entry = {seat: {"bot": state.bots[who]} if who in state.bots else who for seat, who in seats}
            hashes = {seat: state.token_hashes[who] for seat, who in seats if who in state.token_hashes}
            try:
                self.sets.create(created.ruleset, entry, games=games, mode=created.mode if games > 1 else "best_of",
                                 set_id=set_id, clock=created.clock, token_hashes=hashes)
            except IntegrityError:
                pass                # another worker opened it first
            return None

    def _first(self, state: TournamentState, events: Sequence[Event]) -> TournamentState | None:
        """Save `events` after `state`, or None if another worker moved the tournament on first
        (what it did stands; nothing here is redone on top of it)."""
        try:
            return self._save(state, events)
        except IntegrityError:
            return None

    def _append(self, state: TournamentState, events: Sequence[Event],
                check: Callable[[TournamentState], None] | None = None) -> TournamentState:
        """Save `events` after `state`; after another writer's win, reload, check again, retry."""
        for attempt in range(RETRIES + 1):
            if check is not None:
                check(state)
            try:
                return self._save(state, events)
            except IntegrityError:
                if attempt == RETRIES:
                    raise
                state = self.load(state.tournament_id)
        raise AssertionError("unreachable")

    def page(self, tournament_id: str) -> dict[str, Any]:
        return page_of(self.load(tournament_id))


def page_of(state: TournamentState) -> dict[str, Any]:
    """The tournament as anyone may see it: entrants, rounds with their sets, standings."""
    created = state.created
    assert created is not None
    placed = final_standings(state)[0] if state.ended_rounds else []
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
