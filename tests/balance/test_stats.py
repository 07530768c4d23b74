"""The figures of a balance report: the Wilson score interval, a draw as half a win, shares and
spreads, checked against values worked by hand."""
from __future__ import annotations

import pytest

from domain.balance.stats import Score, share, spread, wilson


def test_the_wilson_interval_of_7_wins_in_10():
    # p = 7/10 = 0.7, n = 10, z = 1.959964 so z^2 = 3.841459:
    # centre = (p + z^2 / 2n) / (1 + z^2 / n) = (0.7 + 0.192073) / 1.384146 = 0.644493
    # half   = z / (1 + z^2 / n) * sqrt(p (1 - p) / n + z^2 / 4n^2)
    #        = 1.959964 / 1.384146 * sqrt(0.021 + 0.009604) = 1.416010 * 0.174939 = 0.247715
    # so the interval is 0.644493 -/+ 0.247715 = [0.396778, 0.892209].
    low, high = wilson(7, 10)
    assert low == pytest.approx(0.396778, abs=1e-6)
    assert high == pytest.approx(0.892209, abs=1e-6)


def test_the_interval_keeps_its_width_at_no_wins_and_stays_inside_0_and_1():
    # p = 0: centre = 0.192073 / 1.384146 = 0.138766 and half = 1.416010 * sqrt(0.009604) = 0.138766,
    # so the interval is [0, 0.277533], where the normal approximation would give [0, 0].
    assert wilson(0, 10) == (0.0, pytest.approx(0.277533, abs=1e-6))
    assert wilson(10, 10) == (pytest.approx(1 - 0.277533, abs=1e-6), pytest.approx(1.0))
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_draw_counts_half_a_win():
    score = Score()
    for result in (1, 1, 1, 1, 1, 1, 0.5, 0.5, 0, 0):
        score.add(result)
    # 6 wins and 2 draws of 10 are 7 points: the rate and interval of 7 wins in 10.
    assert score.as_json() == {"battles": 10, "wins": 6, "draws": 2, "losses": 2, "rate": 0.7,
                               "low": 0.3968, "high": 0.8922}


def test_a_score_with_no_battles_has_no_rate():
    assert Score().as_json() == {"battles": 0, "wins": 0, "draws": 0, "losses": 0, "rate": None,
                                 "low": 0.0, "high": 1.0}


def test_a_share_is_a_proportion_with_its_interval():
    assert share(7, 10) == {"count": 7, "share": 0.7, "low": 0.3968, "high": 0.8922}
    assert share(0, 0) == {"count": 0, "share": None, "low": 0.0, "high": 1.0}


def test_the_spread_takes_percentiles_by_nearest_rank():
    # 1..20: the median is (10 + 11) / 2; p10 is the 2nd value (10% of 20), p90 the 18th.
    assert spread(list(range(20, 0, -1))) == {"median": 10.5, "p10": 2, "p90": 18, "max": 20}
    # three values: p10 is the 1st (ceil 0.3), p90 the 3rd (ceil 2.7).
    assert spread([5, 1, 3]) == {"median": 3, "p10": 1, "p90": 5, "max": 5}
    assert spread([]) == {"median": None, "p10": None, "p90": None, "max": None}
