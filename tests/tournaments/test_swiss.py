"""Swiss pairing as given / when / then. Entrants p1, p2, ... are rated so that pN has initial
rank N; points are half-points (win 2, draw 1, loss 0, bye 2)."""
from __future__ import annotations

import hashlib

import pytest

from domain.engine.errors import InvalidInput
from domain.tournaments.standings import Entrant, Game, points_of
from domain.tournaments.swiss import Round, pair_round, rounds_needed


def field(n: int) -> list[Entrant]:
    return [Entrant(f"p{i}", 2000.0 - i) for i in range(1, n + 1)]


def draws(number: int, *pairs: tuple[str, str]) -> list[Game]:
    return [Game(number, a, b, 1, 1) for a, b in pairs]


def higher_seed_wins(number: int, a: str, b: str) -> Game:
    """pN beats pM when N < M."""
    return Game(number, a, b, 2, 0) if int(a[1:]) < int(b[1:]) else Game(number, a, b, 0, 2)


def play(entrants: list[Entrant], rounds: int, result=higher_seed_wins) -> tuple[list[Round], list[Game]]:
    """Pair and play `rounds` rounds, each game decided by `result`."""
    played: list[Round] = []
    games: list[Game] = []
    for number in range(1, rounds + 1):
        paired = pair_round(entrants, games, number)
        played.append(paired)
        games += [result(number, a, b) for a, b in paired.pairs]
        if paired.bye is not None:
            games.append(Game(number, paired.bye, None, 2, 0))
    return played, games


def test_round_one_is_top_half_against_bottom_half():
    # given 8 entrants and no games; when
    paired = pair_round(field(8), [], 1)
    # then S1 = p1..p4 meets S2 = p5..p8 in order
    assert paired == Round(1, (("p1", "p5"), ("p2", "p6"), ("p3", "p7"), ("p4", "p8")), None)


def test_a_repeat_is_avoided_by_a_transposition():
    # given round 1 where p1-p5 and p2-p6 drew, p3 and p4 won
    games = draws(1, ("p1", "p5"), ("p2", "p6")) + [Game(1, "p3", "p7", 2, 0), Game(1, "p4", "p8", 2, 0)]
    # when
    paired = pair_round(field(8), games, 2)
    # then groups: 2 points [p3, p4]; 1 point [p1, p2, p5, p6]; 0 points [p7, p8].
    # In the 1-point group S1 = p1, p2 and S2 = p5, p6: p1-p5 would repeat, so S2 transposes to p6, p5
    assert paired.pairs == (("p3", "p4"), ("p1", "p6"), ("p2", "p5"), ("p7", "p8"))


def test_a_repeat_is_avoided_by_an_exchange_between_the_halves():
    # given p1..p4 drew twice, p1 meeting both of S2 (p3, p4); p7 and p8 won twice
    games = (draws(1, ("p1", "p3"), ("p2", "p4")) + [Game(1, "p5", "p7", 0, 2), Game(1, "p6", "p8", 0, 2)]
             + draws(2, ("p1", "p4"), ("p2", "p3")) + [Game(2, "p5", "p8", 0, 2), Game(2, "p6", "p7", 0, 2)])
    # when
    paired = pair_round(field(8), games, 3)
    # then groups: 4 points [p7, p8]; 2 points [p1, p2, p3, p4]; 0 points [p5, p6].
    # No transposition of S2 = p3, p4 avoids a repeat for p1; exchanging p2 and p3 gives
    # S1 = p1, p3 and S2 = p2, p4: p1-p2 and p3-p4, and nobody floats
    assert paired.pairs == (("p7", "p8"), ("p1", "p2"), ("p3", "p4"), ("p5", "p6"))


def test_a_repeat_is_avoided_by_floating_a_group_down():
    # given round 1: p1-p4 drew, p2 and p3 won
    games = draws(1, ("p1", "p4")) + [Game(1, "p2", "p5", 2, 0), Game(1, "p3", "p6", 2, 0)]
    # when
    paired = pair_round(field(6), games, 2)
    # then groups: 2 points [p2, p3]; 1 point [p1, p4], who met; 0 points [p5, p6].
    # p1 and p4 float down: the bracket [p1, p4, p5, p6] pairs p1-p5 and p4-p6
    assert paired.pairs == (("p2", "p3"), ("p1", "p5"), ("p4", "p6"))


def test_an_odd_group_floats_its_lowest_player():
    # given round 1: p1, p2 and p6 won
    games = [Game(1, "p1", "p4", 2, 0), Game(1, "p2", "p5", 2, 0), Game(1, "p3", "p6", 0, 2)]
    # when
    paired = pair_round(field(6), games, 2)
    # then the 2-point group [p1, p2, p6] floats p6 into [p6, p3, p4, p5]: p6-p4 and p3-p5
    assert paired.pairs == (("p1", "p2"), ("p6", "p4"), ("p3", "p5"))


def test_byes_go_to_the_lowest_ranked_player_without_one():
    # given 5 entrants, the higher seed winning every game; when three rounds are played
    rounds, _ = play(field(5), 3)
    # then
    # r1: everyone on 0, p5 is lowest: bye p5; p1-p3, p2-p4 (p1, p2 win)
    # r2: ranked p1 2, p2 2, p5 2, p3 0, p4 0: bye p4; [p1, p2, p5] floats p5: p1-p2, p5-p3 (p1, p3 win)
    # r3: ranked p1 4, p2 2, p3 2, p4 2, p5 2; p5 and p4 had byes: bye p3; p1 floats: p1-p4, p2-p5
    assert rounds == [
        Round(1, (("p1", "p3"), ("p2", "p4")), "p5"),
        Round(2, (("p1", "p2"), ("p5", "p3")), "p4"),
        Round(3, (("p1", "p4"), ("p2", "p5")), "p3"),
    ]


def test_a_second_bye_only_once_everyone_has_had_one_and_forced_repeats_are_allowed():
    # given 3 entrants; when four rounds are played
    rounds, _ = play(field(3), 4)
    # then byes p3, p2, p1 in turn; in round 4 all have one, so the lowest ranked (p3, on
    # 2 points against p1's 6 and p2's 4) has the second, and p1-p2 meet again: no other pair is left
    assert rounds == [
        Round(1, (("p1", "p2"),), "p3"),
        Round(2, (("p1", "p3"),), "p2"),
        Round(3, (("p2", "p3"),), "p1"),
        Round(4, (("p1", "p2"),), "p3"),
    ]


def test_when_repeats_are_unavoidable_the_fewest_are_made():
    # given six players who have met across two triangles ({p1,p2,p3} × {p4,p5,p6}), all draws
    rounds = [("p1", "p4"), ("p2", "p5"), ("p3", "p6"), ("p1", "p5"), ("p2", "p6"), ("p3", "p4"),
              ("p1", "p6"), ("p2", "p4"), ("p3", "p5")]
    games = [Game(1 + i // 3, a, b, 1, 1) for i, (a, b) in enumerate(rounds)]
    # when
    paired = pair_round(field(6), games, 4)
    # then each triangle has an odd number of players, so one pair must cross: one repeat, not three.
    # In Dutch preference p1 takes p4 (a repeat), then p2 takes p3 and p5 takes p6
    assert paired.pairs == (("p1", "p4"), ("p2", "p3"), ("p5", "p6"))


def test_the_input_order_of_entrants_and_games_does_not_matter():
    entrants = field(12)
    rounds, games = play(entrants, 3)
    again = pair_round(list(reversed(entrants)), list(reversed(games)), 4)
    assert again == pair_round(entrants, games, 4) and again.round == 4


@pytest.mark.parametrize("n", [64, 63])
def test_a_simulated_swiss_pairs_everyone_once_a_round_without_repeats(n):
    # given n entrants and results by hash (win, draw or loss); when six rounds are played
    def by_hash(number: int, a: str, b: str) -> Game:
        outcome = hashlib.sha256(f"{number}:{a}:{b}".encode()).digest()[0] % 3
        return Game(number, a, b, *((2, 0), (1, 1), (0, 2))[outcome])

    rounds, games = play(field(n), 6, by_hash)
    # then every player is in exactly one pair or the bye each round, no pair meets twice,
    # nobody has two byes, and each pair's first player is ranked higher by (points, initial rank)
    met: set[frozenset[str]] = set()
    for paired in rounds:
        seated = [p for pair in paired.pairs for p in pair] + ([paired.bye] if paired.bye else [])
        assert sorted(seated) == sorted(e.id for e in field(n))
        met |= {frozenset(pair) for pair in paired.pairs}
        before = points_of([g for g in games if g.round < paired.round])
        for a, b in paired.pairs:
            assert (-before.get(a, 0), int(a[1:])) < (-before.get(b, 0), int(b[1:]))
    assert len(met) == sum(len(paired.pairs) for paired in rounds)      # 6 rounds × n // 2 pairs, all distinct
    byes = [paired.bye for paired in rounds if paired.bye is not None]
    assert len(byes) == (6 if n % 2 else 0) and len(set(byes)) == len(byes)


def test_rounds_needed_is_the_ceiling_of_log2():
    # 2 → 1, 3 and 4 → 2, 5 to 8 → 3, 9 → 4, 1024 → 10, 1025 → 11
    assert [rounds_needed(n) for n in (2, 3, 4, 5, 8, 9, 1024, 1025)] == [1, 2, 2, 3, 3, 4, 10, 11]
    with pytest.raises(InvalidInput):
        rounds_needed(1)


@pytest.mark.parametrize("entrants, games, number, field_name, message", [
    ([Entrant("p1", 1.0)], [], 1, "entrants", "at least 2 entrants"),
    ([Entrant("p1", 1.0), Entrant("p1", 2.0)], [], 1, "entrants", "duplicate entrant id 'p1'"),
    (field(4), [], 0, "round", "from 1"),
    (field(4), [], 2, "round", "the next round is 1, not 2"),
    (field(4), draws(1, ("p1", "p3"), ("p2", "p4")), 1, "round", "the next round is 2, not 1"),
    (field(4), draws(1, ("p1", "p9")), 2, "games[0].b", "'p9' is not an entrant"),
])
def test_bad_input_is_refused(entrants, games, number, field_name, message):
    with pytest.raises(InvalidInput) as refused:
        pair_round(entrants, games, number)
    assert refused.value.field == field_name and message in refused.value.message
