"""The figures of a balance report: win rates with their 95% Wilson score intervals, and the
spread of a sample (median, p10, p90, max).

A draw counts as half a win: a rate is (wins + draws / 2) / battles. The Wilson score interval
stays inside [0, 1] and keeps its width at a rate near 0 or 1 and over few battles, where the
normal approximation collapses to a point; it takes the half-win of a draw as it comes."""
from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054      # the standard normal's 97.5th percentile: a two-sided 95% interval
DIGITS = 4                   # a rate's digits in the report (a hundredth of a percent)


def wilson(points: float, battles: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of `points` successes in `battles` trials; (0, 1) for none."""
    if battles == 0:
        return 0.0, 1.0
    p, n, z2 = points / battles, battles, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(slots=True)
class Score:
    """The results of one side, seat, entry or bot over its battles."""
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, result: float) -> None:
        """Count a battle: 1 a win, 0.5 a draw, 0 a loss."""
        if result == 1:
            self.wins += 1
        elif result == 0:
            self.losses += 1
        else:
            self.draws += 1

    @property
    def battles(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    def as_json(self) -> dict[str, Any]:
        low, high = wilson(self.points, self.battles)
        rate = self.points / self.battles if self.battles else None
        return {"battles": self.battles, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "rate": None if rate is None else round(rate, DIGITS),
                "low": round(low, DIGITS), "high": round(high, DIGITS)}


def share(count: int, total: int) -> dict[str, Any]:
    """`count` of `total` as a share, with its Wilson interval."""
    low, high = wilson(count, total)
    return {"count": count, "share": round(count / total, DIGITS) if total else None,
            "low": round(low, DIGITS), "high": round(high, DIGITS)}


def spread(values: Sequence[int]) -> dict[str, float | int | None]:
    """The median, the 10th and 90th percentiles (nearest rank) and the largest value."""
    if not values:
        return {"median": None, "p10": None, "p90": None, "max": None}
    ordered = sorted(values)
    return {"median": statistics.median(ordered), "p10": nearest_rank(ordered, 10),
            "p90": nearest_rank(ordered, 90), "max": ordered[-1]}


def nearest_rank(ordered: Sequence[int], percent: int) -> int:
    """The smallest value with at least `percent`% of the sample at or below it."""
    return ordered[max(0, math.ceil(percent * len(ordered) / 100) - 1)]
