"""Swiss pairing, Dutch style: a pure function of the entrants and the recorded games.

Players are ranked for pairing by points, then initial rank (not by the standings'
tie-breaks: those shift every round, and the Dutch system pairs on rating order). A pair
lists the higher-ranked player first: it takes the first seat.

- The bye (odd count) goes first: to the lowest-ranked player among those with the fewest byes
  so far, so nobody has two byes while someone has none. It scores 2 half-points.
- Score groups are paired from the highest. A bracket is a score group plus the players
  floated into it, ranked; its top half plays its bottom half (S1[i] against S2[i]).
- No pair may repeat a game. A bracket first tries the transpositions of S2, then single
  exchanges between S1 and S2 (FIDE's order: the smallest difference of bracket numbers,
  then the lowest S1 player), all within a fixed amount of work, `PAIRING_BUDGET`. The
  first repeat-free transposition is found as a bipartite matching, not by trying them one
  by one, so a large bracket never backtracks through a combinatorial number of them.
- A bracket that fails floats players down to the next one: an odd bracket floats its
  lowest player whose absence lets the rest pair (trying from the bottom up), else the
  lowest 2 more players at a time, else all of them.
- The last bracket cannot float: it also tries any pairing of its players, and when it
  fails it merges with the bracket before it, again and again, up to the whole field.
- Only when no pairing of the whole field avoids every repeat (or none is found within the
  budget) are repeats allowed: the fewest found, trying 1, 2, ... allowed repeats in turn
  (exact for small fields; once a search runs out of budget the allowance doubles instead).

Round 1 is the same procedure with everyone on 0 points: pure Dutch on initial order.
"""
from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import msgspec

from domain.engine.errors import InvalidInput, quote

from .standings import Entrant, Game, check_games, initial_ranks, points_of

# The work one bracket may do before it gives up (and floats): about a unit per opponent
# considered, and one per player each time a search rebuilds its lists (an exchange, a level of
# `any`, a step of an augmenting path). It bounds the time of a round whatever the history.
PAIRING_BUDGET = 20_000

Pair = tuple[int, int]     # players as their 0-based initial rank


class Round(msgspec.Struct, frozen=True):
    """One Swiss round's pairings: each pair higher-ranked first, best pair first."""
    round: int
    pairs: tuple[tuple[str, str], ...]
    bye: str | None


def rounds_needed(n: int) -> int:
    """ceil(log2(n)): enough rounds for a sole winner among n entrants, a sensible default."""
    if type(n) is not int or n < 2:
        raise InvalidInput("entrants", f"a tournament needs at least 2 entrants, not {quote(n)}")
    return (n - 1).bit_length()


def pair_round(entrants: Sequence[Entrant], games: Sequence[Game], round: int) -> Round:
    """The pairings of `round`, which must be the round after the last one in `games`."""
    ranks = initial_ranks(entrants)
    last = check_games(games, ranks)
    if type(round) is not int or round < 1:
        raise InvalidInput("round", f"a round is an integer from 1, not {quote(round)}")
    if round != last + 1:
        raise InvalidInput("round", f"the games run to round {last}, so the next round is {last + 1}, not {round}")
    ids = list(ranks)                              # index = initial rank
    points = [0] * len(ids)
    for player, score in points_of(games).items():
        points[ranks[player]] = score
    played: list[set[int]] = [set() for _ in ids]
    byes = Counter[int]()
    for game in games:
        if game.b is None:
            byes[ranks[game.a]] += 1
        else:
            played[ranks[game.a]].add(ranks[game.b])
            played[ranks[game.b]].add(ranks[game.a])
    order = sorted(range(len(ids)), key=lambda p: (-points[p], p))
    bye = None
    if len(order) % 2:
        fewest = min(byes[p] for p in order)
        bye = next(p for p in reversed(order) if byes[p] == fewest)
        order.remove(bye)
    named = _seated(_Pairing(points, played).field(order), points)
    return Round(round=round, pairs=tuple((ids[a], ids[b]) for a, b in named),
                 bye=None if bye is None else ids[bye])


def _seated(pairs: list[Pair], points: list[int]) -> list[Pair]:
    """Each pair higher-ranked first, the pairs in the order of their first players."""
    def rank(p: int) -> tuple[int, int]:
        return -points[p], p
    seated = [(a, b) if rank(a) < rank(b) else (b, a) for a, b in pairs]
    return sorted(seated, key=lambda pair: rank(pair[0]))


class _Budget:
    """Work left for one bracket: shared by all its attempts, so it bounds them all."""
    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


@dataclass(slots=True)
class _Frame:
    """One level of the search for any pairing: who is left, the candidates for the first of
    them in order of preference, the one being tried, and the repeats made above."""
    rest: list[int]
    order: list[int]
    at: int
    repeats: int


class _Pairing:
    """The pairing of one round; players are ints, ranked by (-points, initial rank)."""

    def __init__(self, points: list[int], played: list[set[int]]) -> None:
        self.points = points
        self.played = played

    def rank(self, player: int) -> tuple[int, int]:
        return -self.points[player], player

    def field(self, order: list[int]) -> list[Pair]:
        """The pairs of the ranked players `order` (an even number of them)."""
        groups = [list(group) for _, group in itertools.groupby(order, key=self.points.__getitem__)]
        done: list[tuple[list[int], list[Pair]]] = []     # each bracket's players and pairs
        carry: list[int] = []
        for group in groups[:-1]:
            bracket = carry + group
            pairs, carry = self.bracket(bracket)
            done.append((bracket, pairs))
        bracket = carry + groups[-1]
        while (found := self.complete(bracket)) is None:
            if not done:
                return self.fewest_repeats(order)
            # Undo the bracket above and pair its players together with this one's.
            above, _ = done.pop()
            bracket = sorted(set(above) | set(bracket), key=self.rank)
        return [pair for _, pairs in done for pair in pairs] + found

    def bracket(self, players: list[int]) -> tuple[list[Pair], list[int]]:
        """(pairs, the players floated down) for a bracket that is not the last."""
        budget = _Budget(PAIRING_BUDGET)
        size, odd = len(players), len(players) % 2
        if odd:
            for k in range(size - 1, -1, -1):
                found = self.split(players[:k] + players[k + 1:], budget)
                if found is not None:
                    return found, [players[k]]
                if budget.left < 0:
                    return [], players
        for floated in range(3 if odd else 0, size, 2):
            found = self.split(players[:size - floated], budget)
            if found is not None:
                return found, players[size - floated:]
            if budget.left < 0:
                break
        return [], players

    def complete(self, players: list[int]) -> list[Pair] | None:
        """A pairing of all `players` with no repeat (None: none found within the budget)."""
        budget = _Budget(PAIRING_BUDGET)
        found = self.split(players, budget)
        if found is None and budget.left >= 0:
            found = self.any(players, budget, allowed=0)
        return found

    def fewest_repeats(self, order: list[int]) -> list[Pair]:
        """The whole field's pairing with the fewest repeats found, allowing 1, 2, ... in turn.
        A search that proves an allowance too small moves to the next; one that runs out of
        budget proves nothing, so the allowance doubles. Once every pair may repeat, the first
        candidate always fits, and the budget covers that path (about n²/4 units): it ends."""
        allowed = 1
        while True:
            budget = _Budget(PAIRING_BUDGET + len(order) ** 2)
            found = self.any(order, budget, allowed)
            if found is not None:
                return found
            allowed = allowed + 1 if budget.left >= 0 else allowed * 2

    def split(self, players: list[int], budget: _Budget) -> list[Pair] | None:
        """Top half against bottom half: the transpositions of S2, then single exchanges."""
        half = len(players) // 2
        s1, s2 = players[:half], players[half:]
        found = self.dutch(s1, s2, budget)
        exchanges = _exchanges(half, len(s2))
        while found is None and budget.left >= 0 and (swap := next(exchanges, None)) is not None:
            i, j = swap
            budget.left -= len(players)
            found = self.dutch(sorted(s1[:i] + s1[i + 1:] + [s2[j]], key=self.rank),
                               sorted(s2[:j] + s2[j + 1:] + [s1[i]], key=self.rank), budget)
        return found

    def dutch(self, s1: list[int], s2: list[int], budget: _Budget) -> list[Pair] | None:
        """The first transposition of S2, in the Dutch system's (lexicographic) order, that
        repeats no game; None if there is none or the budget runs out."""
        return _Transpositions(s1, s2, self.played, budget).first()

    def any(self, players: list[int], budget: _Budget, allowed: int) -> list[Pair] | None:
        """Any pairing of `players` with at most `allowed` repeats: the first player left
        tries the others in Dutch preference order (see `_preference`), backtracking."""
        stack = [_Frame(players, _preference(players), -1, 0)]
        while stack:
            frame = stack[-1]
            if not frame.rest:
                return [(f.rest[0], f.order[f.at]) for f in stack[:-1]]
            seen = self.played[frame.rest[0]]
            nxt = frame.at + 1
            while nxt < len(frame.order) and frame.repeats + (frame.order[nxt] in seen) > allowed:
                nxt += 1
            budget.left -= nxt - frame.at
            if budget.left < 0:
                return None
            frame.at = nxt
            if nxt == len(frame.order):
                stack.pop()
                continue
            mate = frame.order[nxt]
            rest = [p for p in frame.rest[1:] if p != mate]
            budget.left -= len(rest)
            stack.append(_Frame(rest, _preference(rest), -1, frame.repeats + (mate in seen)))
        return None


def _preference(players: list[int]) -> list[int]:
    """Whom the first of `players` would rather meet: the bottom half in order (as Dutch
    pairs it), then the rest of the top half from its bottom up."""
    half = len(players) // 2
    return players[half:] + players[half - 1:0:-1]


def _exchanges(half: int, lower: int) -> Iterator[tuple[int, int]]:
    """(i in S1, j in S2) to swap, in FIDE's order for one exchange: the smallest difference of
    bracket numbers (S1[i] is i+1, S2[j] is half+j+1) first, then the lowest S1 player first.
    Lazy: a bracket that pairs with a transposition never builds the list."""
    for difference in range(1, half + lower):
        for i in range(half - 1, -1, -1):
            j = difference - half + i
            if 0 <= j < lower:
                yield i, j


class _Transpositions:
    """S1 against S2 as a bipartite matching: S1[0] takes the first S2 player that still leaves
    the others a repeat-free pairing, then S1[1], and so on. That is the first transposition
    a backtracking search would meet, found without the backtracking: whether a choice leaves
    a pairing is an augmenting-path question, so the work is polynomial, not exponential."""

    def __init__(self, s1: list[int], s2: list[int], played: list[set[int]], budget: _Budget) -> None:
        self.s1, self.s2, self.played, self.budget = s1, s2, played, budget
        self.mate: dict[int, int] = {}          # S1 player -> its S2 partner
        self.owner: dict[int, int] = {}         # S2 player -> its S1 partner

    def first(self) -> list[Pair] | None:
        """The pairs (S1[i], its partner), or None: no repeat-free transposition, or out of budget."""
        if not self.start():
            return None
        free = list(self.s2)                    # S2 players not yet taken for good, in order
        fixed: set[int] = set()
        for x in self.s1:
            seen = self.played[x]
            for y in free:
                if y not in seen and (y == self.mate[x] or self.reroute(x, y, fixed)):
                    break
                if self.budget.left < 0:
                    return None
            free.remove(self.mate[x])
            fixed.add(x)
        return [(x, self.mate[x]) for x in self.s1]

    def start(self) -> bool:
        """Any repeat-free matching of all of S1: greedy in order, then augmenting paths."""
        free = list(self.s2)
        for x in self.s1:
            seen = self.played[x]
            y = next((y for y in free if y not in seen), None)
            self.budget.left -= 1 + len(seen)
            if y is not None:
                free.remove(y)
                self.mate[x], self.owner[y] = y, x
        return all(x in self.mate or self.augment(x, set()) for x in self.s1)

    def reroute(self, x: int, y: int, fixed: set[int]) -> bool:
        """Give `y` to `x` if the players not fixed can still all be matched; else change nothing."""
        other, left = self.owner[y], self.mate[x]
        self.mate[x], self.owner[y] = y, x
        del self.mate[other], self.owner[left]
        if self.augment(other, fixed | {x}):
            return True
        self.mate[x], self.owner[left], self.mate[other], self.owner[y] = left, x, y, other
        return False

    def augment(self, start: int, blocked: set[int]) -> bool:
        """Match the unmatched `start` along an alternating path that leaves `blocked` alone."""
        reached: dict[int, int] = {}            # S2 player -> the S1 player it was reached from
        queue, visited = [start], {start}
        for u in queue:
            self.budget.left -= len(self.s2)
            if self.budget.left < 0:
                return False
            seen = self.played[u]
            for y in self.s2:
                if y in reached or y in seen or self.owner.get(y) in blocked:
                    continue
                reached[y] = u
                holder = self.owner.get(y)
                if holder is None:
                    self.flip(start, y, reached)
                    return True
                if holder not in visited:
                    visited.add(holder)
                    queue.append(holder)
        return False

    def flip(self, start: int, y: int, reached: dict[int, int]) -> None:
        """Swap the matched and unmatched edges along the path that ends at the free `y`."""
        while True:
            u = reached[y]
            before = self.mate.get(u)
            self.mate[u], self.owner[y] = y, u
            if u == start or before is None:
                return
            y = before
