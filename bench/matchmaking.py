"""Matchmaking benchmark: one pairing wave over a large queue, the waits and gaps of a simulated
queue population, and Swiss pairing, each beside its target.

    python bench/matchmaking.py [--json] [--repeats 5] [--only wave|waits|swiss ...]

- `wave`: the median over `--repeats` of one `pair_wave` over 10,000 waiting tickets (ratings
  N(25, 10) in openskill mu, as a settled population spreads; waits from 0 to 60 s; one player
  in ten has a last opponent among the others), beside a baseline measured in the same run on
  the same tickets: sorting them alone, on the wave's key;
- `waits` (and `gap`): `domain.matchmaking.population.simulate` with its defaults: the median
  and p90 wait of a ticket, and the p90 gap between paired players' true strengths in sigmas;
- `swiss`: a 1,024-player Swiss of 7 rounds in which the higher rating always wins: the
  median time to pair a round (`pairing_ms`) and the slowest round (`max_ms`).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.matchmaking.population import simulate  # noqa: E402
from domain.matchmaking.waves import Waiting, pair_wave  # noqa: E402

PARTS = ("wave", "waits", "swiss")
TARGETS = {"wave_ms": 200, "waits_p50_s": 10, "gap_p90_sigma": 1.0, "swiss_pairing_ms": 500}   # all "at most"


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def queue(tickets: int, seed: int = 0) -> list[Waiting]:
    """`tickets` waiting tickets at 60 s, spread as a settled population's ratings."""
    rng = random.Random(seed)
    out = []
    for i in range(tickets):
        last = f"p{rng.randrange(tickets)}" if rng.random() < 0.1 else None
        out.append(Waiting(f"t{i}", f"p{i}", rng.gauss(25.0, 10.0), rng.randrange(60_001), last))
    return out


def wave(tickets: int, repeats: int) -> dict[str, float]:
    waiting = queue(tickets)
    pairs = pair_wave(waiting, 60_000)
    return {"tickets": tickets, "pairs": len(pairs), "ms": median_ms(lambda: pair_wave(waiting, 60_000), repeats),
            "baseline_sort_ms": median_ms(lambda: sorted(waiting, key=lambda w: (w.rating, w.since_ms, w.ticket)),
                                          repeats)}


def swiss(players: int, rounds: int) -> dict[str, float]:
    from domain.tournaments.standings import Entrant, Game
    from domain.tournaments.swiss import pair_round

    rng = random.Random(0)
    entrants = [Entrant(f"p{i:04d}", rng.gauss(1500.0, 200.0)) for i in range(players)]
    rating = {e.id: e.rating for e in entrants}
    games: list[Any] = []
    times = []
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        paired = pair_round(entrants, games, number)
        times.append((time.perf_counter() - started) * 1000)
        for a, b in paired.pairs:
            a_wins = (rating[a], b) > (rating[b], a)     # the higher rating wins; equal ratings: the lower id
            games.append(Game(number, a, b, 2 if a_wins else 0, 0 if a_wins else 2))
        if paired.bye is not None:
            games.append(Game(number, paired.bye, None, 2, 0))
    return {"players": players, "rounds": rounds, "pairing_ms": statistics.median(times), "max_ms": max(times)}


def run(parts: tuple[str, ...], repeats: int) -> dict[str, dict[str, float]]:
    results: dict[str, dict[str, float]] = {}
    if "wave" in parts:
        results["wave"] = wave(10_000, repeats)
    if "waits" in parts:
        report = simulate()
        results["waits"] = {"p50_s": report.wait_p50_s, "p90_s": report.wait_p90_s, "max_s": report.wait_max_s,
                            "tickets": report.measured_tickets}
        results["gap"] = {"p50_sigma": report.gap_p50_sigma, "p90_sigma": report.gap_p90_sigma,
                          "pairs": report.measured_pairs}
    if "swiss" in parts:
        results["swiss"] = swiss(1024, 7)
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", action="append", choices=PARTS, help="measure only this part (repeatable)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = run(tuple(args.only or PARTS), args.repeats)
    if args.json:
        print(orjson.dumps(results).decode())
        return
    print(f"matchmaking: wave times are medians of {args.repeats} runs, one core")
    for part, figures in results.items():
        for name, value in figures.items():
            key = f"{part}_{name}"
            target = TARGETS.get(key)
            verdict = "" if target is None else f"  target <= {target:,}  {'met' if value <= target else 'MISSED'}"
            shown = f"{value:>12,}" if isinstance(value, int) else f"{value:>12,.2f}"
            print(f"  {key:<24} {shown}{verdict}")


if __name__ == "__main__":
    main()
