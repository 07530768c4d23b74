"""A simulated queue population in simulated time, to tune and check the wave rules.

`simulate` plays a population of players with hidden true strengths through one queue:
- true strengths are drawn from N(0, sigma), in logits: a player `d` stronger wins with
  probability 1 / (1 + e^-d) (Bradley-Terry), so at the default sigma of 1.0 one spread
  apart wins 73% of battles, two spreads 88%;
- tickets arrive as a Poisson stream of `arrival_per_s`; each arrival is a player neither
  queued nor playing, drawn uniformly. An arrival that finds nobody free is lost (counted):
  the default population is busy, as 2 arrivals a second would need 240 players in battles
  of 2 minutes, so about a fifth are lost and a wave finds some 8 tickets waiting (12 at p90);
- a wave runs every `wave_s` seconds, and early as soon as `min_wave` tickets wait (the
  regular waves keep their times; an early wave is for a burst: the default population's
  queue seldom reaches 32);
- a paired battle lasts a whole number of milliseconds drawn uniformly from `battle_s`, its
  winner drawn by the true strengths; at its end openskill (Plackett-Luce) rates both, and
  both are free again.

The ticket's rating is the player's openskill mu, not the leaderboard's ordinal
(mu - 3 sigma): the ordinal is a cautious rank for a table, while a wave asks who would play
a close battle, which is the best estimate of strength, mu.

Ratings start equal and settle as battles are played; the measures count only what happens
after `warm_up_s` (a simulated hour by default: about 28 battles for each player, by which
time the mean openskill sigma has fallen from 8.3 to 4.3 and mu places a player within about
0.4 sigma of their true strength; ratings go on settling after it, to 0.24 sigma by the
third hour, so the measures are if anything pessimistic): the wait of every ticket opened
since (a ticket still waiting at the end counts with its wait so far, a lower bound), and
the gap between the true strengths of every pair made since, in units of sigma.
Percentiles are nearest-rank. Every draw comes from one `random.Random(seed)`, in the order
of simulated events, so a seed gives the same report on every run.
"""
from __future__ import annotations

import heapq
import math
import random
from collections.abc import Sequence

import msgspec
from openskill.models import PlackettLuce, PlackettLuceRating

from domain.engine.errors import InvalidInput

from .waves import DEFAULT_RULES, WaveRules, Waiting, pair_wave

SECOND = 1000
_END, _ARRIVAL, _WAVE = 0, 1, 2     # at the same millisecond: battles end, then tickets open, then a wave


class PopulationReport(msgspec.Struct, frozen=True, kw_only=True):
    """What a simulated run measured after its warm-up (waits in seconds, gaps in sigmas)."""
    players: int
    sigma: float
    seed: int
    duration_s: float
    warm_up_s: float
    battles: int            # battles started over the whole run
    waves: int              # waves run over the whole run
    lost_arrivals: int      # arrivals that found every player queued or playing
    measured_tickets: int   # tickets opened after the warm-up
    measured_pairs: int     # pairs made after the warm-up
    still_waiting: int      # tickets waiting at the end
    wait_p50_s: float
    wait_p90_s: float
    wait_max_s: float
    gap_p50_sigma: float
    gap_p90_sigma: float


class _Run:
    """The mutable state of one simulation: players, queue, ratings, and the event heap."""

    def __init__(self, players: int, sigma: float, seed: int, battle_s: tuple[float, float]) -> None:
        self.rng = random.Random(seed)
        self.strength = [self.rng.gauss(0.0, sigma) for _ in range(players)]
        self.model = PlackettLuce()
        self.ratings: list[PlackettLuceRating] = [self.model.rating(name=str(p)) for p in range(players)]
        self.free = list(range(players))
        self.queue: dict[str, Waiting] = {}
        self.last: dict[int, int] = {}
        self.events: list[tuple[int, int, int, tuple[int, ...]]] = []
        self.order = 0
        self.tickets = 0
        self.battles = self.waves = self.lost = 0
        self.battle_ms = (round(battle_s[0] * SECOND), round(battle_s[1] * SECOND))

    def push(self, at_ms: int, kind: int, data: tuple[int, ...] = ()) -> None:
        self.order += 1
        heapq.heappush(self.events, (at_ms, kind, self.order, data))

    def open_ticket(self, at_ms: int) -> str | None:
        if not self.free:
            self.lost += 1
            return None
        i = self.rng.randrange(len(self.free))
        self.free[i], self.free[-1] = self.free[-1], self.free[i]
        player = self.free.pop()
        self.tickets += 1
        ticket = f"t{self.tickets}"
        last = self.last.get(player)
        self.queue[ticket] = Waiting(ticket, str(player), self.ratings[player].mu, at_ms,
                                     None if last is None else str(last))
        return ticket

    def wave(self, at_ms: int, rules: WaveRules) -> list[tuple[Waiting, Waiting]]:
        self.waves += 1
        made = []
        for low, high in pair_wave(list(self.queue.values()), at_ms, rules):
            a, b = self.queue.pop(low), self.queue.pop(high)
            made.append((a, b))
            pa, pb = int(a.player), int(b.player)
            d = self.strength[pa] - self.strength[pb]
            a_wins = self.rng.random() < 1 / (1 + math.exp(-d))
            self.battles += 1
            self.push(at_ms + self.rng.randint(*self.battle_ms), _END, (pa, pb, int(a_wins)))
        return made

    def end(self, a: int, b: int, a_wins: int) -> None:
        ranks = [0.0, 1.0] if a_wins else [1.0, 0.0]
        [[self.ratings[a]], [self.ratings[b]]] = self.model.rate([[self.ratings[a]], [self.ratings[b]]], ranks=ranks)
        self.last[a], self.last[b] = b, a
        self.free += [a, b]


def simulate(players: int = 200, sigma: float = 1.0, arrival_per_s: float = 2.0, wave_s: float = 2.0,
             min_wave: int = 32, duration_s: float = 3 * 3600.0, warm_up_s: float = 3600.0, seed: int = 1,
             rules: WaveRules = DEFAULT_RULES, battle_s: tuple[float, float] = (60.0, 180.0)) -> PopulationReport:
    """Run the population (module docstring) for `duration_s` simulated seconds and report
    what happened after `warm_up_s`."""
    _check(players, sigma, arrival_per_s, wave_s, min_wave, duration_s, warm_up_s, battle_s)
    run = _Run(players, sigma, seed, battle_s)
    end_ms, warm_ms, wave_ms = round(duration_s * SECOND), round(warm_up_s * SECOND), round(wave_s * SECOND)
    waits: list[float] = []
    gaps: list[float] = []
    run.push(0, _ARRIVAL)
    run.push(wave_ms, _WAVE)
    while run.events and run.events[0][0] <= end_ms:
        at_ms, kind, _, data = heapq.heappop(run.events)
        if kind == _END:
            run.end(*data)
            continue
        if kind == _ARRIVAL:
            run.push(at_ms + round(run.rng.expovariate(arrival_per_s) * SECOND), _ARRIVAL)
            if run.open_ticket(at_ms) is None or len(run.queue) < min_wave:
                continue
        else:
            run.push(at_ms + wave_ms, _WAVE)
        for a, b in run.wave(at_ms, rules):
            waits += [(at_ms - w.since_ms) / SECOND for w in (a, b) if w.since_ms >= warm_ms]
            if at_ms >= warm_ms:
                gaps.append(abs(run.strength[int(a.player)] - run.strength[int(b.player)]) / sigma)
    waits += [(end_ms - w.since_ms) / SECOND for w in run.queue.values() if w.since_ms >= warm_ms]
    return PopulationReport(
        players=players, sigma=sigma, seed=seed, duration_s=duration_s, warm_up_s=warm_up_s,
        battles=run.battles, waves=run.waves, lost_arrivals=run.lost, measured_tickets=len(waits),
        measured_pairs=len(gaps), still_waiting=len(run.queue),
        wait_p50_s=percentile(waits, 0.5), wait_p90_s=percentile(waits, 0.9), wait_max_s=max(waits, default=0.0),
        gap_p50_sigma=percentile(gaps, 0.5), gap_p90_sigma=percentile(gaps, 0.9))


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile: the smallest value at least `fraction` of them do not
    exceed (0.0 of none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def _check(players: int, sigma: float, arrival_per_s: float, wave_s: float, min_wave: int,
           duration_s: float, warm_up_s: float, battle_s: tuple[float, float]) -> None:
    if players < 2:
        raise InvalidInput("players", "at least 2")
    if not 0 < sigma < math.inf:
        raise InvalidInput("sigma", f"a positive number, not {sigma}")
    # Times are whole milliseconds: a wave every 0 ms, or arrivals mostly 0 ms apart, never end.
    if not 0 < arrival_per_s <= 1000:
        raise InvalidInput("arrival_per_s", f"a number above 0 and at most 1000, not {arrival_per_s}")
    if not 0.001 <= wave_s < math.inf:
        raise InvalidInput("wave_s", f"a number of seconds from 0.001, not {wave_s}")
    if min_wave < 2:
        raise InvalidInput("min_wave", "at least 2")
    if not 0 <= warm_up_s < duration_s < math.inf:
        raise InvalidInput("warm_up_s", "from 0 to less than duration_s")
    if not 0 < battle_s[0] <= battle_s[1] < math.inf:
        raise InvalidInput("battle_s", "a range of positive seconds, shortest first")
