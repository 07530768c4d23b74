"""Standings as given / when / then: points, Buchholz, Sonneborn-Berger, wins and initial rank,
in half-points (win 2, draw 1, loss 0, bye 2), each worked out by hand in a comment."""
from __future__ import annotations

import pytest

from domain.engine.errors import InvalidInput
from domain.tournaments.standings import Entrant, Game, Standing, initial_order, standings

FIVE = [Entrant("ann", 2000.0), Entrant("bob", 1900.0), Entrant("cat", 1800.0), Entrant("dan", 1700.0),
        Entrant("eve", 1600.0)]
FOUR = FIVE[:4]


def row(player: str, rank: int, points: int, buchholz: int, sb: int, wins: int, initial: int) -> Standing:
    return Standing(id=player, rank=rank, points=points, buchholz=buchholz, sonneborn_berger=sb, wins=wins,
                    initial_rank=initial)


def test_initial_order_is_rating_descending_then_id():
    entrants = [Entrant("zed", 1500.0), Entrant("amy", 1500.0), Entrant("house:greedy#3", 1600.0)]
    assert initial_order(entrants) == ["house:greedy#3", "amy", "zed"]


def test_standings_with_byes_count_the_virtual_opponent():
    # given three rounds of five players, a bye in each
    games = [
        Game(1, "ann", "cat", 2, 0), Game(1, "bob", "dan", 1, 1), Game(1, "eve", None, 2, 0),
        Game(2, "ann", "bob", 1, 1), Game(2, "cat", "eve", 2, 0), Game(2, "dan", None, 2, 0),
        Game(3, "ann", "dan", 2, 0), Game(3, "bob", "eve", 0, 2), Game(3, "cat", None, 2, 0),
    ]
    # when
    table = standings(FIVE, games)
    # then
    # points: ann 2+1+2=5, bob 1+1+0=2, cat 0+2+2=4, dan 1+2+0=3, eve 2+0+2=4
    # virtual opponents (points before the bye's round + 1 per later round, of 3):
    #   eve r1: 0+2=2, dan r2: 1+1=2, cat r3: 2+0=2
    # Buchholz: ann cat4+bob2+dan3=9, bob dan3+ann5+eve4=12, cat ann5+eve4+v2=11,
    #           dan bob2+v2+ann5=9, eve v2+cat4+bob2=8
    # Sonneborn-Berger (opponent's points × own points): ann 4·2+2·1+3·2=16, bob 3·1+5·1+4·0=8,
    #           cat 5·0+4·2+2·2=12, dan 2·1+2·2+5·0=6, eve 2·2+4·0+2·2=8
    # wins over the board (byes not counted): ann 2, bob 0, cat 1, dan 0, eve 1
    # cat and eve share 4 points: Buchholz 11 > 8 puts cat first
    assert table == [
        row("ann", 1, 5, 9, 16, 2, 1),
        row("cat", 2, 4, 11, 12, 1, 3),
        row("eve", 3, 4, 8, 8, 1, 5),
        row("dan", 4, 3, 9, 6, 0, 4),
        row("bob", 5, 2, 12, 8, 0, 2),
    ]


def test_sonneborn_berger_breaks_a_tie_of_points_and_buchholz():
    # given a round robin of four
    games = [Game(1, "ann", "dan", 2, 0), Game(1, "bob", "cat", 1, 1),
             Game(2, "ann", "cat", 2, 0), Game(2, "dan", "bob", 1, 1),
             Game(3, "ann", "bob", 0, 2), Game(3, "cat", "dan", 1, 1)]
    # when
    table = standings(FOUR, games)
    # then
    # points: ann 2+2+0=4, bob 1+1+2=4, cat 1+0+1=2, dan 0+1+1=2
    # Buchholz: ann dan2+cat2+bob4=8, bob cat2+dan2+ann4=8, cat bob4+ann4+dan2=10, dan 4+4+2=10
    # SB: ann 2·2+2·2+4·0=8, bob 2·1+2·1+4·2=12 (bob above ann);
    #     cat 4·1+4·0+2·1=6, dan 4·0+4·1+2·1=6; wins 0 and 0: initial rank puts cat (3) before dan (4)
    assert table == [
        row("bob", 1, 4, 8, 12, 1, 2),
        row("ann", 2, 4, 8, 8, 2, 1),
        row("cat", 3, 2, 10, 6, 0, 3),
        row("dan", 4, 2, 10, 6, 0, 4),
    ]


def test_wins_then_initial_rank_break_the_last_ties():
    # given a round robin of four where everyone ends on 3 half-points
    games = [Game(1, "ann", "dan", 2, 0), Game(1, "bob", "cat", 1, 1),
             Game(2, "ann", "cat", 1, 1), Game(2, "dan", "bob", 2, 0),
             Game(3, "ann", "bob", 0, 2), Game(3, "cat", "dan", 1, 1)]
    # when
    table = standings(FOUR, games)
    # then
    # points: ann 2+1+0=3, bob 1+0+2=3, cat 1+1+1=3, dan 0+2+1=3; Buchholz 3+3+3=9 for everyone
    # SB: ann 3·2+3·1+3·0=9, bob 3·1+3·0+3·2=9, cat 3·1+3·1+3·1=9, dan 3·0+3·2+3·1=9
    # wins: ann 1, bob 1, cat 0, dan 1: cat is last; ann, bob, dan by initial rank 1, 2, 4
    assert [(s.id, s.rank, s.wins) for s in table] == [("ann", 1, 1), ("bob", 2, 1), ("dan", 3, 1), ("cat", 4, 0)]
    assert {(s.points, s.buchholz, s.sonneborn_berger) for s in table} == {(3, 9, 9)}


def test_before_any_game_the_standings_are_the_initial_order():
    assert [(s.id, s.rank, s.points) for s in standings(FOUR, [])] == [
        ("ann", 1, 0), ("bob", 2, 0), ("cat", 3, 0), ("dan", 4, 0)]


@pytest.mark.parametrize("entrants, message", [
    ([Entrant("ann", 1.0)], "at least 2 entrants"),
    ([Entrant("ann", 1.0), Entrant("ann", 2.0)], "duplicate entrant id 'ann'"),
    ([Entrant("ann", 1.0), Entrant("bob", float("nan"))], "rating of 'bob' is not a finite number"),
])
def test_bad_entrants_are_refused(entrants, message):
    with pytest.raises(InvalidInput) as refused:
        standings(entrants, [])
    assert refused.value.field == "entrants" and message in refused.value.message


@pytest.mark.parametrize("game, field, message", [
    (Game(1, "ann", "zoe", 2, 0), "games[0].b", "'zoe' is not an entrant"),
    (Game(1, "ann", "ann", 1, 1), "games[0].b", "cannot play itself"),
    (Game(1, "ann", "bob", 2, 2), "games[0].points_a", "2-0, 1-1 or 0-2"),
    (Game(1, "ann", None, 1, 0), "games[0].points_a", "a bye scores 2 to 0"),
    (Game(0, "ann", "bob", 2, 0), "games[0].round", "from 1"),
    (Game(2, "ann", "bob", 2, 0), "games", "round 1 has no games, but round 2 has"),
])
def test_bad_games_are_refused(game, field, message):
    with pytest.raises(InvalidInput) as refused:
        standings(FOUR, [game])
    assert refused.value.field == field and message in refused.value.message


def test_a_player_twice_in_a_round_is_refused():
    with pytest.raises(InvalidInput) as refused:
        standings(FOUR, [Game(1, "ann", "bob", 2, 0), Game(1, "cat", "ann", 1, 1)])
    assert refused.value.field == "games[1].b" and "'ann' plays twice in round 1" in refused.value.message
