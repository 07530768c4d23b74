"""A tournament's entrants, its recorded games, and the standings they make.

Scores are exact integers in half-points: a win is 2, a draw 1, a loss 0, and a bye 2 (a
bye is a game with no opponent, `b` None). Ratings only order the entrants at the start.

The standings are sorted by these keys, each breaking the ties of the ones above it:

| Key              | Better | What it is                                                              |
|------------------|--------|-------------------------------------------------------------------------|
| points           | higher | half-points: win 2, draw 1, loss 0, bye 2                               |
| Buchholz         | higher | the sum of the opponents' points (half-points)                          |
| Sonneborn-Berger | higher | the sum, over games, of the opponent's points × the player's points in  |
|                  |        | that game (quarter-points: a win counts the opponent's points in full,  |
|                  |        | a draw counts half of them, a loss nothing)                             |
| wins             | higher | games won over the board; a bye is not a win                            |
| initial rank     | lower  | rating at the start, higher first, then id in ascending order           |

An opponent's points are all of its points, its own byes included. A bye counts for
Buchholz and Sonneborn-Berger as a game against FIDE's virtual opponent: one that starts the
round with the player's points, loses the bye game, and draws every later round. Its points
are the player's points before the bye's round, plus 1 for each round played after it.
Initial rank is unique, so no two standings are equal on every key.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence

import msgspec

from domain.engine.errors import InvalidInput, quote

WIN, DRAW, LOSS = 2, 1, 0
BYE = WIN                 # a bye scores as a win


class Entrant(msgspec.Struct, frozen=True):
    """An entrant at the tournament's start."""
    id: str               # player id, e.g. "alice" or "house:greedy#3"
    rating: float         # rating when the tournament started: only orders the entrants


class Game(msgspec.Struct, frozen=True):
    """One pairing's result in a round, in half-points (win 2, draw 1, loss 0)."""
    round: int            # 1-based
    a: str
    b: str | None         # None: a bye for `a`, which scores 2 (points_a 2, points_b 0)
    points_a: int
    points_b: int


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    """One entrant's place. `points` and `buchholz` in half-points, `sonneborn_berger` in
    quarter-points; `rank` and `initial_rank` are 1-based."""
    id: str
    rank: int
    points: int
    buchholz: int
    sonneborn_berger: int
    wins: int
    initial_rank: int


def initial_order(entrants: Sequence[Entrant]) -> list[str]:
    """Entrant ids by rating descending, then id ascending."""
    return list(initial_ranks(entrants))


def initial_ranks(entrants: Sequence[Entrant]) -> dict[str, int]:
    """Each entrant's 0-based initial rank, in that order. InvalidInput ("entrants") for fewer
    than 2 entrants, a duplicate id, or a rating that is not a finite number."""
    if len(entrants) < 2:
        raise InvalidInput("entrants", f"a tournament needs at least 2 entrants, not {len(entrants)}")
    seen: set[str] = set()
    for entrant in entrants:
        if not isinstance(entrant.id, str) or not entrant.id:
            raise InvalidInput("entrants", f"an entrant id is a non-empty string, not {quote(entrant.id)}")
        if entrant.id in seen:
            raise InvalidInput("entrants", f"duplicate entrant id {quote(entrant.id)}")
        # NaN has no order: it would make the ranking depend on the input's order.
        if isinstance(entrant.rating, bool) or not isinstance(entrant.rating, (int, float)) \
                or not math.isfinite(entrant.rating):
            raise InvalidInput("entrants", f"the rating of {quote(entrant.id)} is not a finite number")
        seen.add(entrant.id)
    ordered = sorted(entrants, key=lambda e: (-e.rating, e.id))
    return {entrant.id: rank for rank, entrant in enumerate(ordered)}


def check_games(games: Sequence[Game], known: Mapping[str, int]) -> int:
    """The last round the games cover (0 for none). InvalidInput ("games[i]...") for an
    unknown id, a player against itself, impossible points, a player twice in a round, or
    rounds that do not run 1, 2, ... without a gap."""
    met: set[tuple[int, str]] = set()
    rounds: set[int] = set()
    for i, game in enumerate(games):
        where = f"games[{i}]"
        if type(game.round) is not int or game.round < 1:
            raise InvalidInput(f"{where}.round", f"a round is an integer from 1, not {quote(game.round)}")
        if game.a == game.b:
            raise InvalidInput(f"{where}.b", f"{quote(game.a)} cannot play itself")
        for side, player in (("a", game.a), ("b", game.b)):
            if (player is not None or side == "a") and player not in known:
                raise InvalidInput(f"{where}.{side}", f"{quote(player)} is not an entrant")
            if player is not None:
                if (game.round, player) in met:
                    raise InvalidInput(f"{where}.{side}", f"{quote(player)} plays twice in round {game.round}")
                met.add((game.round, player))
        _check_points(game, where)
        rounds.add(game.round)
    last = max(rounds, default=0)
    if len(rounds) != last:
        missing = min(set(range(1, last + 1)) - rounds)
        raise InvalidInput("games", f"round {missing} has no games, but round {last} has")
    return last


def _check_points(game: Game, where: str) -> None:
    if game.b is None:
        if (game.points_a, game.points_b) != (BYE, 0):
            raise InvalidInput(f"{where}.points_a", f"a bye scores {BYE} to 0, not {quote(game.points_a)} "
                               f"to {quote(game.points_b)}")
        return
    scores = (game.points_a, game.points_b)
    if any(type(p) is not int for p in scores) or sorted(scores) not in ([LOSS, WIN], [DRAW, DRAW]):
        raise InvalidInput(f"{where}.points_a", f"a game scores 2-0, 1-1 or 0-2 in half-points, not "
                           f"{quote(game.points_a)}-{quote(game.points_b)}")


def points_of(games: Sequence[Game]) -> dict[str, int]:
    """Each player's points (half-points) over `games`; players with no game are absent."""
    points: dict[str, int] = defaultdict(int)
    for game in games:
        points[game.a] += game.points_a
        if game.b is not None:
            points[game.b] += game.points_b
    return points


def standings(entrants: Sequence[Entrant], games: Sequence[Game]) -> list[Standing]:
    """Every entrant's standing after `games`, best first (see the module's table)."""
    ranks = initial_ranks(entrants)
    last = check_games(games, ranks)
    points = points_of(games)
    # (opponent's points, own points in the game) per player; a bye's opponent is virtual.
    results: dict[str, list[tuple[int, int]]] = defaultdict(list)
    wins: dict[str, int] = defaultdict(int)
    for game in games:
        if game.b is None:
            results[game.a].append((_virtual_opponent(game, games, last), game.points_a))
            continue
        results[game.a].append((points[game.b], game.points_a))
        results[game.b].append((points[game.a], game.points_b))
        wins[game.a] += game.points_a == WIN
        wins[game.b] += game.points_b == WIN

    def key(player: str) -> tuple[int, int, int, int, int]:
        buchholz = sum(opponent for opponent, _ in results[player])
        sb = sum(opponent * own for opponent, own in results[player])
        return -points[player], -buchholz, -sb, -wins[player], ranks[player]

    keys = {player: key(player) for player in ranks}
    order = sorted(ranks, key=keys.__getitem__)
    return [Standing(id=player, rank=place, points=-keys[player][0], buchholz=-keys[player][1],
                     sonneborn_berger=-keys[player][2], wins=wins[player], initial_rank=ranks[player] + 1)
            for place, player in enumerate(order, start=1)]


def _virtual_opponent(bye: Game, games: Sequence[Game], last: int) -> int:
    """The points of a bye's virtual opponent: the player's points before the bye's round, the
    loss of the bye game (what the bye did not score), and a draw in each later round."""
    before = sum(g.points_a if g.a == bye.a else g.points_b
                 for g in games if g.round < bye.round and bye.a in (g.a, g.b))
    return before + (WIN - bye.points_a) + DRAW * (last - bye.round)
