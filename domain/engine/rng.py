"""Counter-based deterministic RNG: every draw is blake2b(seed || cursor).

There is no hidden generator state: `Rng(seed, cursor)` always yields the same draws, so
a battle can continue from any recorded point. Ranges use rejection sampling so that no
outcome is favoured.
"""
from __future__ import annotations

import builtins
from collections.abc import Sequence
from hashlib import blake2b
from typing import TypeVar

T = TypeVar("T")
_SPAN = 1 << 64


class Rng:
    __slots__ = ("seed", "cursor", "_seeded")

    def __init__(self, seed: bytes, cursor: int = 0):
        self.seed = seed
        self.cursor = cursor
        self._seeded: blake2b | None = None     # a hasher already fed the seed, made on the first draw

    def next64(self) -> int:
        # blake2b(seed || cursor), from a copy of a hasher that has taken in the seed: the
        # same digest, without hashing the seed and parsing the keyword arguments each draw.
        seeded = self._seeded
        if seeded is None:
            seeded = self._seeded = _seeded(self.seed)
        digest = seeded.copy()
        digest.update(self.cursor.to_bytes(16, "big"))
        self.cursor += 1
        return int.from_bytes(digest.digest(), "big")

    def int(self, lo: int, hi: int) -> int:
        """A uniform integer in [lo, hi], both ends included."""
        if hi < lo:
            raise ValueError(f"empty range [{lo}, {hi}]")
        n = hi - lo + 1
        limit = _SPAN - _SPAN % n
        while True:
            x = self.next64()
            if x < limit:
                return lo + x % n

    # `int` here would name the method above, so the builtin is spelled out
    def chance(self, num: builtins.int, den: builtins.int) -> bool:
        """True with probability num/den, exactly."""
        return self.int(0, den - 1) < num

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise ValueError("choice from an empty sequence")
        return seq[self.int(0, len(seq) - 1)]

    def shuffle(self, seq: Sequence[T]) -> tuple[T, ...]:
        """A Fisher-Yates shuffle; returns a new tuple, the input is untouched."""
        items = list(seq)
        for i in range(len(items) - 1, 0, -1):
            j = self.int(0, i)
            items[i], items[j] = items[j], items[i]
        return tuple(items)


# seed -> a hasher that has taken it in. A battle's batches all draw from its one seed, each
# through a new `Rng`; copying (the only use) leaves a hasher as it was, in any thread.
_SEEDED: dict[bytes, "blake2b"] = {}


def _seeded(seed: bytes) -> "blake2b":
    found = _SEEDED.get(seed) if type(seed) is bytes else None
    if found is None:
        found = blake2b(seed, digest_size=8)
        if type(seed) is bytes:
            if len(_SEEDED) >= 4096:
                _SEEDED.clear()
            _SEEDED[seed] = found
    return found


def batch_cursor(first_seq: int) -> int:
    """The cursor a command batch starts from: derived from the batch's first seq.

    Every batch gets its own 2**32-wide counter window, so the cursor is recorded by the
    seq itself and re-simulation resumes exactly, with no extra field in any event.
    """
    return first_seq << 32
