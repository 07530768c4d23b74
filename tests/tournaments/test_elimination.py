"""Single elimination as given / when / then. Entrants s1, s2, ... are rated so that sN is seed N."""
from __future__ import annotations

import pytest

from domain.engine.errors import InvalidInput
from domain.tournaments.elimination import (EliminationRound, bracket_order, champion, first_round, next_round,
                                            seed_bracket)
from domain.tournaments.standings import Entrant


def seeded(n: int) -> list[Entrant]:
    return [Entrant(f"s{i}", 3000.0 - i) for i in range(1, n + 1)]


SEEDS_8 = tuple(f"s{i}" for i in range(1, 9))


def test_standard_seeding_keeps_the_top_seeds_apart():
    # each seed s of the half-size bracket is followed by its mirror size + 1 - s
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_eight_entrants_fill_the_bracket():
    # given 8 entrants; when
    opening = first_round(seeded(8))
    # then 1-8, 4-5 in the top half, 2-7, 3-6 in the bottom half; seeds 1 and 2 meet only in the final
    assert seed_bracket(seeded(8)) == ["s1", "s8", "s4", "s5", "s2", "s7", "s3", "s6"]
    assert opening == EliminationRound(round=1, slots=("s1", "s8", "s4", "s5", "s2", "s7", "s3", "s6"),
                                       pairs=(("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")),
                                       byes=(), seeds=SEEDS_8)


def test_six_entrants_give_the_byes_to_seeds_one_and_two():
    # given 6 entrants: a bracket of 8, slots 7 and 8 empty; when
    opening = first_round(seeded(6))
    # then seeds 1 and 2 face the empty slots 8 and 7
    assert seed_bracket(seeded(6)) == ["s1", None, "s4", "s5", "s2", None, "s3", "s6"]
    assert opening.pairs == (("s4", "s5"), ("s3", "s6")) and opening.byes == ("s1", "s2")


def test_rounds_run_to_a_champion():
    # given 6 entrants
    opening = first_round(seeded(6))
    # when s5 upsets s4 and s3 beats s6
    semis = next_round(opening, {("s4", "s5"): "s5", ("s3", "s6"): "s3"})
    # then the bye holders meet them: s1-s5, s2-s3
    assert semis is not None and semis.round == 2
    assert semis.slots == ("s1", "s5", "s2", "s3") and semis.pairs == (("s1", "s5"), ("s2", "s3"))
    assert semis.byes == () and champion(semis, {("s1", "s5"): "s5", ("s2", "s3"): "s2"}) is None
    # when s5 beats s1 and s2 beats s3
    final = next_round(semis, {("s1", "s5"): "s5", ("s2", "s3"): "s2"})
    # then the final lists the higher seed first: s2 (seed 2) before s5, though s5's slot is above
    assert final is not None and final.round == 3
    assert final.slots == ("s5", "s2") and final.pairs == (("s2", "s5"),)
    # when s5 wins the final: no round follows, and s5 is champion
    assert next_round(final, {("s2", "s5"): "s5"}) is None
    assert champion(final, {("s2", "s5"): "s5"}) == "s5"


def test_two_entrants_play_the_final_at_once():
    opening = first_round(seeded(2))
    assert opening.pairs == (("s1", "s2"),) and opening.byes == ()
    assert next_round(opening, {("s1", "s2"): "s2"}) is None and champion(opening, {("s1", "s2"): "s2"}) == "s2"


def test_three_entrants_give_seed_one_a_bye():
    opening = first_round(seeded(3))
    # a bracket of 4: 1 meets the empty slot 4, 2 meets 3
    assert opening.slots == ("s1", None, "s2", "s3") and opening.byes == ("s1",)
    final = next_round(opening, {("s2", "s3"): "s3"})
    assert final is not None and final.pairs == (("s1", "s3"),)


@pytest.mark.parametrize("winners, message", [
    ({("s4", "s5"): "s5"}, "no winner for ('s3', 's6') in round 1"),
    ({("s4", "s5"): "s5", ("s3", "s6"): "s1"}, "'s1' did not play in ('s3', 's6')"),
    ({("s4", "s5"): "s5", ("s6", "s3"): "s3"}, "round 1 has no game ('s6', 's3')"),
])
def test_winners_must_name_one_player_of_each_game(winners, message):
    with pytest.raises(InvalidInput) as refused:
        next_round(first_round(seeded(6)), winners)
    assert refused.value.field == "winners" and message in refused.value.message


def test_a_round_whose_pairs_do_not_match_its_slots_is_refused():
    forged = EliminationRound(round=1, slots=("s1", "s2"), pairs=(("s1", "s3"),), byes=(), seeds=("s1", "s2", "s3"))
    with pytest.raises(InvalidInput) as refused:
        next_round(forged, {("s1", "s3"): "s1"})
    assert refused.value.field == "previous" and "do not match its slots" in refused.value.message


@pytest.mark.parametrize("entrants, message", [
    (seeded(1), "at least 2 entrants"),
    ([Entrant("s1", 1.0), Entrant("s1", 2.0)], "duplicate entrant id 's1'"),
])
def test_bad_entrants_are_refused(entrants, message):
    with pytest.raises(InvalidInput) as refused:
        first_round(entrants)
    assert refused.value.field == "entrants" and message in refused.value.message
