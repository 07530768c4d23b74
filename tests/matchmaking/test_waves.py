"""Pairing waves (domain/matchmaking/waves.py): a pure function of the waiting tickets and the
wave's time. Neighbours on the rating line pair when within both tickets' widening windows and
not an immediate rematch; a dynamic program keeps the pairs of greatest total weight
(pair_value + wait bonus - rating gap), ties pairing the lower end of the line first."""
from __future__ import annotations

import itertools
import random

import pytest

from domain.engine.errors import InvalidInput
from domain.matchmaking.waves import DEFAULT_RULES, WaveRules, Waiting, default_rules, pair_wave

T0 = 1_767_225_600_000          # 2026-01-01T00:00:00Z, in ms since the epoch
# window 1 point, widening half a point a second, a quarter point of bonus a second per ticket.
RULES = WaveRules(window=1.0, widen_per_s=0.5, wait_bonus_per_s=0.25, rematch_after_s=30.0, pair_value=2.0)


def ticket(name: str, rating: float, since_ms: int = 0, last_opponent: str | None = None) -> Waiting:
    """Ticket `name` of player `name.upper()`."""
    return Waiting(name, name.upper(), rating, since_ms, last_opponent)


def test_two_close_tickets_pair_at_once():
    # given two fresh tickets 0.75 apart, within the 1-point window
    waiting = [ticket("b", 10.75), ticket("a", 10.0)]
    # when a wave runs the moment they open
    pairs = pair_wave(waiting, 0, RULES)
    # then they pair, the lower rating first
    assert pairs == [("a", "b")]


def test_a_far_pair_waits_until_both_windows_have_widened():
    # given tickets 2 points apart, both opened at 0: each window is 1 + 0.5 * wait, which
    # reaches 2 when the wait reaches (2 - 1) / 0.5 = 2 s
    waiting = [ticket("a", 10.0), ticket("b", 12.0)]
    # then at 1,999 ms the windows are 1 + 0.5 * 1.999 = 1.9995 < 2: refused; at 2,000 ms paired
    assert pair_wave(waiting, 1_999, RULES) == []
    assert pair_wave(waiting, 2_000, RULES) == [("a", "b")]


def test_the_fresher_tickets_window_decides():
    # given a opened at 0 and b at 1,000 ms, 2 points apart: b's window reaches 2 points after
    # b has waited 2 s, at 1,000 + 2,000 = 3,000 ms, though a's did at 2,000 ms
    waiting = [ticket("a", 10.0, 0), ticket("b", 12.0, 1_000)]
    assert pair_wave(waiting, 2_999, RULES) == []
    assert pair_wave(waiting, 3_000, RULES) == [("a", "b")]


def test_nobody_waits_forever_for_a_close_rating():
    # given two tickets 100 points apart under the defaults (window 2, widening 0.4 a second):
    # the windows reach 100 at (100 - 2) / 0.4 = 245 s
    waiting = [ticket("a", 0.0), ticket("b", 100.0)]
    assert pair_wave(waiting, 244_999, DEFAULT_RULES) == []
    assert pair_wave(waiting, 245_000, DEFAULT_RULES) == [("a", "b")]


def long_waiter_and_two_fresh(bonus: float) -> list[tuple[str, str]]:
    # old (10.0) waited 30 s; fresh (11.0) and newer (11.5) open at the wave. A window of 2 and no
    # widening allows both old-fresh (gap 1) and fresh-newer (gap 0.5); fresh can take only one.
    rules = WaveRules(window=2.0, widen_per_s=0.0, wait_bonus_per_s=bonus, rematch_after_s=30.0, pair_value=4.0)
    waiting = [ticket("old", 10.0, 0), ticket("fresh", 11.0, 30_000), ticket("newer", 11.5, 30_000)]
    return pair_wave(waiting, 30_000, rules)


def test_a_long_waiter_takes_the_partner_when_the_bonus_outweighs_the_closer_rating():
    # old-fresh weighs 4 + 0.02 * 30 - 1 = 3.6; fresh-newer 4 + 0 - 0.5 = 3.5: the long waiter wins
    assert long_waiter_and_two_fresh(0.02) == [("old", "fresh")]


def test_the_closer_rating_takes_the_partner_when_the_bonus_is_smaller():
    # old-fresh weighs 4 + 0.01 * 30 - 1 = 3.3; fresh-newer 3.5: the closer pair wins
    assert long_waiter_and_two_fresh(0.01) == [("fresh", "newer")]


def test_no_immediate_rematch_until_both_have_waited():
    # given a and b, each the other's last opponent, opened at T0 and T0 + 5 s
    waiting = [ticket("a", 10.0, T0, last_opponent="B"), ticket("b", 10.5, T0 + 5_000, last_opponent="A")]
    # then they are refused until b too has waited 30 s, at T0 + 5 s + 30 s = T0 + 35 s
    assert pair_wave(waiting, T0 + 34_999, RULES) == []
    assert pair_wave(waiting, T0 + 35_000, RULES) == [("a", "b")]


def test_one_sided_last_opponent_is_a_rematch_too():
    # given a's last opponent was b, while b has played someone else since
    waiting = [ticket("a", 10.0, last_opponent="B"), ticket("b", 10.5, last_opponent="Z")]
    assert pair_wave(waiting, 0, RULES) == []


def test_a_refused_rematch_leaves_the_partner_to_the_next_neighbour():
    # given a and b just met; c is 0.5 above b: b pairs with c, a waits
    waiting = [ticket("a", 10.0, last_opponent="B"), ticket("b", 10.5, last_opponent="A"), ticket("c", 11.0)]
    assert pair_wave(waiting, 0, RULES) == [("b", "c")]


def test_equal_weights_pair_the_lower_end_of_the_line_first():
    # given three evenly spaced ratings: in floats 100.2 - 100.1 = 0.10000000000000853 and
    # 100.3 - 100.2 = 0.09999999999999432, but weights are compared in steps of 2^-20, so both
    # pairs weigh 2 - 0.1 = 1.9 and the lower pair is taken
    waiting = [ticket("c", 100.3), ticket("a", 100.1), ticket("b", 100.2)]
    assert pair_wave(waiting, 0, RULES) == [("a", "b")]


def test_equal_ratings_order_by_since_then_ticket_in_any_input_order():
    # given four tickets at one rating: on the line by since_ms (d first), then ticket id (a, b, c)
    waiting = [ticket("a", 5.0, 100), ticket("b", 5.0, 100), ticket("c", 5.0, 100), ticket("d", 5.0, 0)]
    # then every order of input gives the line d, a, b, c and so the pairs (d, a), (b, c)
    results = {tuple(pair_wave(list(order), 1_000, RULES)) for order in itertools.permutations(waiting)}
    assert results == {(("d", "a"), ("b", "c"))}


def test_the_same_queue_in_any_order_pairs_the_same():
    # given 300 tickets of varied ratings and waits, some with last opponents
    rng = random.Random(11)
    waiting = [Waiting(f"t{i}", f"p{i}", rng.gauss(25.0, 8.0), rng.randrange(20_000),
                       f"p{rng.randrange(300)}" if rng.random() < 0.2 else None) for i in range(300)]
    expected = pair_wave(waiting, 20_000, DEFAULT_RULES)
    # when the same tickets come reversed and shuffled
    shuffled = list(waiting)
    random.Random(12).shuffle(shuffled)
    # then the pairs are the same, and some were made (the check is not vacuous)
    assert pair_wave(waiting[::-1], 20_000, DEFAULT_RULES) == expected
    assert pair_wave(shuffled, 20_000, DEFAULT_RULES) == expected
    assert len(expected) > 100


def test_ten_thousand_evenly_spaced_tickets_pair_in_order():
    # given 10,000 fresh tickets 0.01 apart: every neighbouring pair is allowed and weighs
    # 4 - 0.01 under the defaults, so the best wave pairs all of them, from the bottom up
    waiting = [Waiting(f"t{i}", f"p{i}", i / 100, 0) for i in range(10_000)]
    assert pair_wave(waiting, 0, DEFAULT_RULES) == [(f"t{i}", f"t{i + 1}") for i in range(0, 10_000, 2)]


def test_ten_thousand_scattered_tickets_pair_each_at_most_once_and_leave_no_allowed_pair():
    # given 10,000 tickets spread as a settled population, waits up to a minute
    rng = random.Random(5)
    waiting = [Waiting(f"t{i}", f"p{i}", rng.gauss(25.0, 10.0), rng.randrange(60_001)) for i in range(10_000)]
    by_id = {w.ticket: w for w in waiting}
    # when one wave runs
    pairs = pair_wave(waiting, 60_000, DEFAULT_RULES)
    # then no ticket is in two pairs, each pair is ordered on the line, and no two unpaired
    # tickets that neighbour on the line could have paired (every allowed pair is worth having)
    paired = [t for pair in pairs for t in pair]
    assert len(paired) == len(set(paired))
    assert all(by_id[low].rating <= by_id[high].rating for low, high in pairs)
    line = sorted(waiting, key=lambda w: (w.rating, w.since_ms, w.ticket))
    left = set(by_id) - set(paired)
    for low, high in zip(line, line[1:]):
        if low.ticket in left and high.ticket in left:
            assert pair_wave([low, high], 60_000, DEFAULT_RULES) == []


def test_default_rules_are_the_tuned_constant():
    assert default_rules() is DEFAULT_RULES
    assert DEFAULT_RULES == WaveRules(window=2.0, widen_per_s=0.4, wait_bonus_per_s=0.2, rematch_after_s=30.0,
                                      pair_value=4.0)


@pytest.mark.parametrize("waiting, at_ms, field", [
    ([ticket("a", 1.0), Waiting("a", "OTHER", 2.0, 0)], 0, "waiting[1].ticket"),
    ([ticket("a", 1.0), Waiting("b", "A", 2.0, 0)], 0, "waiting[1].player"),
    ([ticket("a", float("nan"))], 0, "waiting[0].rating"),
    ([ticket("a", 2e9)], 0, "waiting[0].rating"),
    ([ticket("a", 1.0, since_ms=1_001)], 1_000, "waiting[0].since_ms"),
    ([ticket("a", 1.0, since_ms=-1)], 1_000, "waiting[0].since_ms"),
    ([], -1, "at_ms"),
    ([], True, "at_ms"),
    ([], 2 ** 53 + 1, "at_ms"),
])
def test_bad_input_is_refused_naming_the_field(waiting: list[Waiting], at_ms: int, field: str):
    with pytest.raises(InvalidInput) as caught:
        pair_wave(waiting, at_ms, RULES)
    assert caught.value.field == field


@pytest.mark.parametrize("fields, field", [
    ({"window": -1.0}, "rules.window"),
    ({"widen_per_s": float("inf")}, "rules.widen_per_s"),
    ({"pair_value": 2.0}, "rules.pair_value"),              # not more than the window of 2
    ({"wait_bonus_per_s": 0.19}, "rules.wait_bonus_per_s"),  # 2 * 0.19 = 0.38 < widening 0.4
])
def test_rules_that_could_strand_a_ticket_are_refused(fields: dict[str, float], field: str):
    with pytest.raises(InvalidInput) as caught:
        WaveRules(**fields)
    assert caught.value.field == field
