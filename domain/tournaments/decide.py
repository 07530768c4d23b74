"""What a tournament decides, as pure functions of its state: the next round's pairings, a
pairing's result from its sets, and the final standings. `ringside audit tournament`
re-derives each of them from the log."""
from __future__ import annotations

from collections.abc import Sequence

from domain.engine.errors import InvalidInput, RingsideError, quote

from .elimination import EliminationRound, first_round, next_round
from .events import FORMATS, Placed, Played, TournamentCreated
from .standings import WIN, standings
from .state import TournamentState
from .swiss import pair_round

MAX_ROUNDS = 99
MAX_ENTRANTS = 4096
TIEBREAKS = 3           # an elimination set drawn is followed by up to this many one-battle sets


class TournamentClosed(RingsideError):
    """The tournament has started (or ended): nobody joins it now."""
    code = "stale"


def check_format(fmt: object, rounds: object, games: object) -> None:
    if fmt not in FORMATS:
        raise InvalidInput("format", f"a tournament is one of {', '.join(FORMATS)}, not {quote(fmt)}")
    if fmt == "swiss" and (type(rounds) is not int or not 1 <= rounds <= MAX_ROUNDS):
        raise InvalidInput("rounds", f"a Swiss has 1 to {MAX_ROUNDS} rounds, not {quote(rounds)}")
    if type(games) is not int or not 1 <= games <= 99:
        raise InvalidInput("games", f"each pairing is a set of 1 to 99 games, not {quote(games)}")


def check_join(state: TournamentState, player: str) -> None:
    if state.paired or state.ended is not None:
        raise TournamentClosed(f"tournament {state.tournament_id} has started; nobody joins it now")
    if any(e.id == player for e in state.entrants):
        raise InvalidInput("player", f"{player} has joined already")
    if len(state.entrants) >= MAX_ENTRANTS:
        raise InvalidInput("player", f"a tournament has at most {MAX_ENTRANTS} entrants")


def bracket(state: TournamentState) -> EliminationRound | None:
    """The elimination round to play next, replayed from the first with each round's winners;
    None once the final has been played."""
    played: EliminationRound | None = first_round(state.entrants)
    for ended in state.ended_rounds:
        assert played is not None
        played = next_round(played, {(p.a, p.b): winner(p) for p in ended.results if p.b is not None})
    return played


def winner(result: Played) -> str:
    assert result.b is not None and result.points_a != result.points_b
    return result.a if result.points_a > result.points_b else result.b


def next_pairings(state: TournamentState) -> list[tuple[str, str | None]] | None:
    """The next round's pairings (a bye as (player, None)), or None when the tournament is over."""
    created = state.created
    assert created is not None and state.current is None
    number = len(state.ended_rounds) + 1
    if created.format == "swiss":
        if number > (created.rounds or 0):
            return None
        found = pair_round(state.entrants, state.games(), number)
        return [*found.pairs, *([(found.bye, None)] if found.bye is not None else [])]
    round_ = bracket(state)
    if round_ is None:
        return None
    return [*round_.pairs, *((bye, None) for bye in round_.byes)]


def result_of(created: TournamentCreated, a: str, b: str | None, set_winners: Sequence[str | None],
              set_ids: Sequence[str]) -> Played:
    """A pairing's result from the winning sides of its set and tiebreak sets, p1 being `a`: a
    win 2-0, a draw 1-1. In elimination a drawn set is followed by one-battle tiebreak sets
    (NeedsSet asks for the first set and each tiebreak); if TIEBREAKS of them are drawn too, the higher seed,
    `a`, goes through."""
    if b is None:
        return Played(a=a, b=None, points_a=WIN, points_b=0, set_id=None)
    if not set_winners:
        raise NeedsSet(f"{a} and {b} have not played yet")
    if created.format == "swiss":
        side = set_winners[0]
    else:
        side = next((w for w in set_winners if w is not None), None)
        if side is None and len(set_winners) <= TIEBREAKS:
            raise NeedsSet(f"{a} and {b} drew; a tiebreak set decides")
        side = side or "p1"
    points_a, points_b = {"p1": (WIN, 0), "p2": (0, WIN), None: (1, 1)}[side]
    return Played(a=a, b=b, points_a=points_a, points_b=points_b, set_id=set_ids[0], tiebreaks=list(set_ids[1:]))


class NeedsSet(Exception):
    """A pairing not decided yet: its set is due, or in elimination after a draw a tiebreak."""


def final_standings(state: TournamentState) -> tuple[list[Placed], str | None]:
    found = standings(state.entrants, state.games())
    placed = [Placed(id=s.id, rank=s.rank, points=s.points, buchholz=s.buchholz,
                     sonneborn_berger=s.sonneborn_berger, wins=s.wins) for s in found]
    created = state.created
    assert created is not None
    if created.format == "elimination":
        final = state.ended_rounds[-1].results
        decided = [p for p in final if p.b is not None]
        return placed, winner(decided[0]) if decided else final[0].a
    return placed, placed[0].id if placed else None
