"""Pairing waves: which waiting tickets one wave pairs into battles, as one pure function of the
waiting tickets and the wave's recorded time (`pair_wave`), so an audit re-derives every wave
from the queue's log. Nothing here reads a clock or draws a random number.

Ratings are on the openskill scale (a new player's mu is 25, the skill spread of one battle,
beta, 25/6); the queue records each player's mu when the ticket opened (`population.py` says
why mu and not the ordinal). Waits are in seconds, from `since_ms` to the wave's `at_ms`.

The method:
1. The tickets are sorted on the rating line by (rating, since_ms, ticket): a total order, so
   the order they are given in never matters.
2. Only neighbours on the line may pair. A neighbouring pair is *allowed* when
   - the rating difference is within the window of both tickets, a ticket's window being
     `window + widen_per_s * wait`: it grows without bound, so nobody waits forever for want
     of a close opponent;
   - it is not an immediate rematch (either one's last opponent in this queue is the other),
     unless both have waited at least `rematch_after_s`.
3. An allowed pair weighs `pair_value + wait_bonus_per_s * (wait_a + wait_b) - |rating_a - rating_b|`:
   every pair is worth having, a close one more, and one of long waiters more. The rules
   require `pair_value > window` and `2 * wait_bonus_per_s >= widen_per_s`, so every allowed
   pair weighs more than nothing (its difference is at most `window + widen_per_s * min(waits)`)
   and the wave never leaves an allowed pair out for want of worth.
4. A dynamic program over the line chooses the disjoint allowed pairs of greatest total
   weight: O(n) after the O(n log n) sort. Each weight is first rounded to a whole number of
   `QUANTUM`s, so totals are exact integers and equal choices tie exactly, whatever order the
   floats were summed in. Among choices of equal total weight the wave pairs the lower end of
   the line first: reading the line from the lowest rating up, at the first ticket where two
   best choices differ, the one that pairs it with its upper neighbour is taken.

Each returned pair is (the lower ticket on the line, the upper one), and the pairs come in
line order, lowest first.
"""
from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.engine.errors import InvalidInput, quote

MAX_TIME_MS = 2 ** 53       # bound on an instant (ms since the epoch): exact in any JSON number reader
QUANTUM = 2.0 ** -20        # weights compare in steps of about a millionth of a rating point
MAX_RATING = 1e9            # bound on |rating|: differences and weights stay finite and exact enough


class Waiting(msgspec.Struct, frozen=True, gc=False):
    """A ticket waiting at the wave: its id, its player, the player's rating when it opened,
    when it opened, and the player's opponent in their last battle in this queue, if any."""
    ticket: str
    player: str
    rating: float
    since_ms: int
    last_opponent: str | None = None


class WaveRules(msgspec.Struct, frozen=True, kw_only=True):
    """How a wave pairs, in rating points and seconds. The defaults suit openskill mu, in
    which a settled population of the simulation's spread (`population.py`) stands about 10
    points apart per standard deviation of true strength:
    - `window` 2.0: a fifth of that spread; a fresh ticket pairs only with a close rating;
    - `widen_per_s` 0.4: after 10 s a ticket accepts 6 points, after 20 s a whole spread;
    - `wait_bonus_per_s` 0.2: the least the widening allows (step 3 of the method): five
      seconds of waiting outweigh a rating point;
    - `rematch_after_s` 30.0: two players who just met wait half a minute for anyone else
      (they leave their battle together, so they often queue side by side);
    - `pair_value` 4.0: twice the window, so a wave pairs as many as it may rather than hold
      out for fewer, closer pairs.
    Simulated (seeds 1-5, bench/matchmaking.py): median wait 2.1-2.2 s, p90 wait 11 s, p90
    true-strength gap 0.74-0.80 sigma against targets of 10 s and 1.0 sigma. Widening at
    0.6-0.8 a second cut the p90 wait to 9-10 s but let the p90 gap reach 0.87 sigma: the
    gap is the target with less room, so the slower widening is kept."""
    window: float = 2.0
    widen_per_s: float = 0.4
    wait_bonus_per_s: float = 0.2
    rematch_after_s: float = 30.0
    pair_value: float = 4.0

    def __post_init__(self) -> None:
        for name in self.__struct_fields__:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_RATING:
                raise InvalidInput(f"rules.{name}", f"a number from 0 to {MAX_RATING:g}, not {quote(value)}")
        if not self.pair_value > self.window:
            raise InvalidInput("rules.pair_value", "must exceed the window, so that every allowed pair is worth having")
        if 2 * self.wait_bonus_per_s < self.widen_per_s:
            raise InvalidInput("rules.wait_bonus_per_s",
                               "must be at least half of widen_per_s, so that a widened pair is still worth having")


DEFAULT_RULES = WaveRules()


def default_rules() -> WaveRules:
    """The tuned defaults (`DEFAULT_RULES`)."""
    return DEFAULT_RULES


def pair_wave(waiting: Sequence[Waiting], at_ms: int, rules: WaveRules = DEFAULT_RULES) -> list[tuple[str, str]]:
    """The pairs of ticket ids the wave at `at_ms` makes of `waiting` (module docstring):
    each pair lower-rated ticket first, the pairs in rating order. InvalidInput names a
    duplicate ticket or player, or a rating or time out of range."""
    _check(waiting, at_ms)
    line = sorted(waiting, key=lambda w: (w.rating, w.since_ms, w.ticket))
    n = len(line)
    # weights[k]: the quantized weight of pairing line[k] with line[k + 1], or None if not allowed.
    weights = [_weight(line[k], line[k + 1], at_ms, rules) for k in range(n - 1)]
    # best[k]: the greatest total weight of the tickets from k up, filled from the top down.
    best = [0] * (n + 1)
    for k in range(n - 2, -1, -1):
        w = weights[k]
        best[k] = best[k + 1] if w is None else max(best[k + 1], w + best[k + 2])
    pairs: list[tuple[str, str]] = []
    k = 0
    while k < n - 1:
        w = weights[k]
        if w is not None and w + best[k + 2] >= best[k + 1]:    # a tie pairs the lower ticket
            pairs.append((line[k].ticket, line[k + 1].ticket))
            k += 2
        else:
            k += 1
    return pairs


def _weight(low: Waiting, high: Waiting, at_ms: int, rules: WaveRules) -> int | None:
    gap = high.rating - low.rating
    wait_low, wait_high = (at_ms - low.since_ms) / 1000, (at_ms - high.since_ms) / 1000
    shorter = min(wait_low, wait_high)
    if gap > rules.window + rules.widen_per_s * shorter:
        return None
    rematch = low.last_opponent == high.player or high.last_opponent == low.player
    if rematch and shorter < rules.rematch_after_s:
        return None
    return round((rules.pair_value + rules.wait_bonus_per_s * (wait_low + wait_high) - gap) / QUANTUM)


def _check(waiting: Sequence[Waiting], at_ms: int) -> None:
    if isinstance(at_ms, bool) or not isinstance(at_ms, int) or not 0 <= at_ms <= MAX_TIME_MS:
        raise InvalidInput("at_ms", f"an integer from 0 to {MAX_TIME_MS}, not {quote(at_ms)}")
    tickets: set[str] = set()
    players: set[str] = set()
    for i, w in enumerate(waiting):
        if w.ticket in tickets:
            raise InvalidInput(f"waiting[{i}].ticket", f"ticket {quote(w.ticket)} is listed twice")
        if w.player in players:
            raise InvalidInput(f"waiting[{i}].player", f"player {quote(w.player)} has two tickets waiting")
        tickets.add(w.ticket)
        players.add(w.player)
        rating = w.rating
        if isinstance(rating, bool) or not isinstance(rating, (int, float)) or not abs(rating) <= MAX_RATING:
            raise InvalidInput(f"waiting[{i}].rating",
                               f"a number from {-MAX_RATING:g} to {MAX_RATING:g}, not {quote(rating)}")
        since = w.since_ms
        if isinstance(since, bool) or not isinstance(since, int) or not 0 <= since <= at_ms:
            raise InvalidInput(f"waiting[{i}].since_ms",
                               f"an integer from 0 to the wave's at_ms {at_ms}, not {quote(since)}")
