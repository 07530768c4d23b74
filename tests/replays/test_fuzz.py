"""Randomised tampering (fixed seed) of 200 replays, deckduel and ring: every mutation is
detected, nothing raises, and the report names the exact first bad seq."""
from __future__ import annotations

import random

import pytest

from domain.engine.errors import ReplayError
from replays.format import Replay, dumps, loads
from replays.verify import verify
from tests.replays.helpers import clone, match, rechain, replay_of

DECKDUEL, RING = 150, 50
MATCHES = DECKDUEL + RING
PER_MATCH = 3
# Short ring battles (the time limit decides them) keep 50 of them quick to verify.
RING_SETUP = {"p1": {"deck": "ember_rush"}, "p2": {"deck": "iron_wall"}, "params": {"max_turns": 12}}


@pytest.fixture(scope="module")
def replays() -> list[Replay]:
    return [replay_of(match(i, seed="fuzz")) for i in range(DECKDUEL)] + \
        [replay_of(match(i, seed="fuzz", ruleset="ring", setup=RING_SETUP)) for i in range(RING)]


def test_every_fuzz_replay_verifies_ok_untouched(replays):
    for replay in replays:
        assert verify(loads(dumps(replay))).status == "ok"


def byte_mutation(raw: bytes, rng: random.Random) -> tuple[bytes, int]:
    """Replace one byte inside one event line (never the header, never a newline).

    Returns the mutated file and the seq of the mutated line.
    """
    lines = raw.split(b"\n")
    index = rng.randrange(1, len(lines) - 1)        # lines[-1] is the empty tail
    line = bytearray(lines[index])
    pos = rng.randrange(len(line))
    new = line[pos]
    while new == line[pos]:
        new = rng.randrange(32, 127)
    line[pos] = new
    lines[index] = bytes(line)
    return b"\n".join(lines), index


def test_random_byte_mutations_are_detected_at_the_mutated_seq(replays):
    rng = random.Random(20240601)
    unreadable = detected = 0
    for replay in replays:
        raw = dumps(replay)
        for _ in range(PER_MATCH):
            mutated, seq = byte_mutation(raw, rng)
            try:
                parsed = loads(mutated)
            except ReplayError:
                unreadable += 1  # the CLI reports this as FAIL too
                continue
            report = verify(parsed)
            assert report.status == "fail", (seq, report)
            assert report.seq == seq, (seq, report)
            detected += 1
    assert detected + unreadable == MATCHES * PER_MATCH
    assert detected > MATCHES  # most mutations keep valid JSON and reach verify


def structural(replay: Replay, rng: random.Random) -> tuple[str, Replay, int]:
    """A random drop, swap, move or duplicate; returns (kind, replay, expected first bad seq)."""
    bad = clone(replay)
    n = len(bad.events)
    kind = rng.choice(["drop", "swap", "move", "duplicate", "truncate"])
    if kind == "drop":
        k = rng.randrange(1, n + 1)
        del bad.events[k - 1]
        return kind, bad, k
    if kind == "swap":
        k = rng.randrange(1, n)
        bad.events[k - 1], bad.events[k] = bad.events[k], bad.events[k - 1]
        return kind, bad, k
    if kind == "move":
        i, j = sorted(rng.sample(range(n), 2))
        bad.events.insert(j, bad.events.pop(i))     # event i+1 now sits later
        return kind, bad, i + 1
    if kind == "duplicate":
        k = rng.randrange(1, n + 1)
        bad.events.insert(k, dict(bad.events[k - 1]))
        return kind, bad, k + 1
    k = rng.randrange(1, n)                         # keep the first k events
    del bad.events[k:]
    return kind, bad, k + 1 if k > 0 else 1


def test_random_drops_reorders_and_duplicates_fail_at_the_exact_seq(replays):
    rng = random.Random(777)
    kinds: dict[str, int] = {}
    for replay in replays:
        for _ in range(PER_MATCH):
            kind, bad, expected = structural(replay, rng)
            report = verify(bad)
            assert report.status == "fail", (kind, expected, report)
            if kind != "truncate":
                assert report.seq == expected, (kind, expected, report)
            else:  # a cut log ends before BattleEnded: reported just past the last event
                assert report.seq == len(bad.events) + 1, (kind, report)
            kinds[kind] = kinds.get(kind, 0) + 1
    assert set(kinds) == {"drop", "swap", "move", "duplicate", "truncate"}


def test_random_value_changes_in_parsed_events_fail_at_their_seq(replays):
    rng = random.Random(99)
    for replay in replays:
        bad = clone(replay)
        index = rng.randrange(len(bad.events))
        data = bad.events[index]["data"]
        key = rng.choice(sorted(data))
        old = data[key]
        data[key] = (old + 1) if isinstance(old, int) and not isinstance(old, bool) else \
            (not old) if isinstance(old, bool) else ["x"] if old is None else None
        report = verify(bad)
        assert (report.status, report.seq) == ("fail", index + 1), (bad.events[index]["type"], key, report)


def test_garbage_lines_never_raise(replays):
    rng = random.Random(5)
    samples = [b"", b"\n", b"{}", b"[]", b"null", b'{"format":"ringside-replay","version":1}',
               b'{"format":"ringside-replay","version":2}\n{}', b"\x1f\x8b\x08garbage"]
    raw = dumps(replays[0])
    for _ in range(20):
        cut = rng.randrange(len(raw))
        samples.append(raw[:cut])
    for body in samples:
        try:
            replay = loads(body)
        except ReplayError:
            continue
        assert verify(replay).status == "fail"


def test_forged_values_with_a_recomputed_chain_are_caught_by_re_simulation(replays):
    """A forger who also recomputes the chain: only re-simulation can tell, and it does,
    never before the forged event."""
    rng = random.Random(4242)
    for replay in replays[DECKDUEL - 20:]:
        bad = clone(replay)
        index = rng.randrange(1, len(bad.events) - 1)
        data = bad.events[index]["data"]
        ints = [k for k, v in sorted(data.items()) if isinstance(v, int) and not isinstance(v, bool)]
        if not ints:
            continue
        data[rng.choice(ints)] += 1
        rechain(bad.events, index)
        report = verify(bad)
        assert report.status == "fail" and report.seq >= index + 1, (bad.events[index]["type"], report)
