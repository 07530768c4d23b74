"""Single elimination: a seeded bracket, and each round's games from the one before.

The bracket has 2^k slots for n entrants (2^(k-1) < n <= 2^k), in standard seeding: seed s
meets seed 2^k + 1 - s in the first round (1 plays 16, 8 plays 9, ...), and the top two seeds
can meet only in the final. Seeds follow the initial order (rating, then id). A slot past the
last seed is a bye: it falls to the top seeds, who advance without a game. After the first
round no slot is empty.

A round is an `EliminationRound`: its slots in bracket order (slots 2i and 2i+1 meet), the
games to play (the higher seed first: it takes the first seat) and the byes. A drawn set is
decided by a tiebreak battle before its winner is given here.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from domain.engine.errors import InvalidInput, quote

from .standings import Entrant, initial_ranks


class EliminationRound(msgspec.Struct, frozen=True, kw_only=True):
    """One round of a bracket. `slots` is what the round is made of; `pairs` and `byes`
    follow from it, and `seeds` (the initial order) carries the bracket's seeding along."""
    round: int                                  # 1-based
    slots: tuple[str | None, ...]               # slots 2i and 2i+1 meet; None: a bye
    pairs: tuple[tuple[str, str], ...]          # the games, in bracket order, higher seed first
    byes: tuple[str, ...]                       # who advances without a game (round 1 only)
    seeds: tuple[str, ...]                      # entrant ids, seed 1 first


def bracket_order(size: int) -> list[int]:
    """The 1-based seeds of a bracket of `size` (a power of 2) slots, in slot order."""
    order = [1]
    while len(order) < size:
        # Each seed s of the smaller bracket now meets its mirror 2·len + 1 - s.
        order = [seed for s in order for seed in (s, 2 * len(order) + 1 - s)]
    return order


def seed_bracket(entrants: Sequence[Entrant]) -> list[str | None]:
    """The bracket's first-round slots: entrant ids by seed position, None for a bye."""
    seeds = list(initial_ranks(entrants))
    size = 1 << (len(seeds) - 1).bit_length()
    return [seeds[s - 1] if s <= len(seeds) else None for s in bracket_order(size)]


def first_round(entrants: Sequence[Entrant]) -> EliminationRound:
    """Round 1: the seeded bracket's games, and its byes."""
    return _round(1, tuple(seed_bracket(entrants)), tuple(initial_ranks(entrants)))


def next_round(previous: EliminationRound, winners: Mapping[tuple[str, str], str]) -> EliminationRound | None:
    """The round after `previous`, given the winner of each of its pairs (keyed exactly as in
    `previous.pairs`); None when `previous` was the final and the champion is decided."""
    _check(previous, winners)
    if len(previous.slots) == 2:
        return None
    advancing = tuple(_advancing(previous, winners, i) for i in range(0, len(previous.slots), 2))
    return _round(previous.round + 1, advancing, previous.seeds)


def champion(final: EliminationRound, winners: Mapping[tuple[str, str], str]) -> str | None:
    """The winner of the bracket if `final` is its last round, else None."""
    _check(final, winners)
    if len(final.slots) != 2:
        return None
    return _advancing(final, winners, 0)


def _round(number: int, slots: tuple[str | None, ...], seeds: tuple[str, ...]) -> EliminationRound:
    seed = {player: s for s, player in enumerate(seeds)}
    pairs: list[tuple[str, str]] = []
    byes: list[str] = []
    for top, bottom in zip(slots[::2], slots[1::2]):
        if top is None or bottom is None:
            byes.extend(p for p in (top, bottom) if p is not None)
        else:
            pairs.append((top, bottom) if seed[top] < seed[bottom] else (bottom, top))
    return EliminationRound(round=number, slots=slots, pairs=tuple(pairs), byes=tuple(byes), seeds=seeds)


def _advancing(played: EliminationRound, winners: Mapping[tuple[str, str], str], i: int) -> str:
    """Who goes on from slots i and i+1: the one with a bye, or the pair's winner."""
    top, bottom = played.slots[i], played.slots[i + 1]
    if top is None or bottom is None:
        player = top if bottom is None else bottom
        assert player is not None, "checked: no two byes meet"
        return player
    seed = played.seeds.index
    return winners[(top, bottom) if seed(top) < seed(bottom) else (bottom, top)]


def _check(played: EliminationRound, winners: Mapping[tuple[str, str], str]) -> None:
    """InvalidInput ("previous") for a round that is not one of a bracket; ("winners") unless
    there is exactly one winner, one of the two, for each of its pairs."""
    size, seeds = len(played.slots), played.seeds
    if type(played.round) is not int or played.round < 1:
        raise InvalidInput("previous", f"a round is an integer from 1, not {quote(played.round)}")
    if size < 2 or size & (size - 1) or len(set(seeds)) != len(seeds):
        raise InvalidInput("previous", "not a round of a bracket: it needs a power of 2 of slots and distinct seeds")
    named = [p for p in played.slots if p is not None]
    if len(set(named)) != len(named) or not set(named) <= set(seeds) \
            or any(a is None and b is None for a, b in zip(played.slots[::2], played.slots[1::2])):
        raise InvalidInput("previous", "not a round of a bracket: its slots repeat a player, name one "
                           "not seeded, or pair two byes")
    if _round(played.round, played.slots, seeds) != played:
        raise InvalidInput("previous", "not a round of a bracket: its pairs or byes do not match its slots")
    for key, winner in winners.items():
        if key not in played.pairs:
            raise InvalidInput("winners", f"round {played.round} has no game {quote(key)}")
        if winner not in key:
            raise InvalidInput("winners", f"{quote(winner)} did not play in {quote(key)}")
    missing = [pair for pair in played.pairs if pair not in winners]
    if missing:
        raise InvalidInput("winners", f"no winner for {quote(missing[0])} in round {played.round}")
