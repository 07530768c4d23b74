from collections import Counter

import pytest

from domain.engine.rng import Rng, batch_cursor


def test_same_seed_and_cursor_give_the_same_draws():
    a, b = Rng(b"seed", 7), Rng(b"seed", 7)
    assert [a.int(1, 6) for _ in range(20)] == [b.int(1, 6) for _ in range(20)]


def test_each_draw_advances_the_cursor_and_resuming_continues_exactly():
    rng = Rng(b"seed")
    first = [rng.next64() for _ in range(3)]
    assert rng.cursor == 3
    resumed = Rng(b"seed", 1)
    assert [resumed.next64(), resumed.next64()] == first[1:]


def test_int_is_inclusive_and_roughly_uniform():
    rng = Rng(b"uniform")
    counts = Counter(rng.int(1, 6) for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in counts.values())


def test_rejection_sampling_rejects_the_biased_tail():
    class Fixed(Rng):
        def __init__(self, values):
            super().__init__(b"")
            self.values = list(values)

        def next64(self):
            return self.values.pop(0)

    # n = 3: 2**64 % 3 == 1, so the single value 2**64 - 1 lies in the biased tail.
    rng = Fixed([2**64 - 1, 4])
    assert rng.int(0, 2) == 4 % 3
    assert rng.values == []


def test_shuffle_returns_a_permutation_and_leaves_the_input_alone():
    deck = tuple(range(30))
    shuffled = Rng(b"deck").shuffle(deck)
    assert sorted(shuffled) == list(deck) and shuffled != deck and deck == tuple(range(30))


def test_chance_and_choice_and_bad_ranges():
    rng = Rng(b"c")
    assert rng.chance(1, 1) is True and rng.chance(0, 5) is False
    assert rng.choice(["only"]) == "only"
    with pytest.raises(ValueError):
        rng.int(3, 2)
    with pytest.raises(ValueError):
        rng.choice([])


def test_batch_cursors_never_overlap():
    assert batch_cursor(2) - batch_cursor(1) == 2**32


def test_draws_are_the_same_whether_the_seeded_hasher_is_kept_or_made_anew():
    from domain.engine import rng as rng_module
    rng_module._SEEDED.clear()
    fresh = [Rng(b"kept", 9).next64() for _ in range(2)]
    assert b"kept" in rng_module._SEEDED
    assert [Rng(b"kept", 9).next64(), Rng(bytearray(b"kept"), 9).next64()] == fresh
    assert Rng(b"other", 9).next64() != fresh[0]
