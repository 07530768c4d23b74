"""Clocked bot battles in virtual time, for the clock's conformance, leak and verify tests.

A random bot sits on every seat, and the server's part is played as the server plays it: a
seat's command is accepted at the virtual time the seat answers, unless some running clock
(grace included) ran out first, and then that timeout is appended at the very expiry; now and
then an outage is credited. `Tempo` says how the seats answer: a chance that a move comes too
late, seats that never answer, and a batch from which nobody answers, so that every battle
ends, on time if not by the rules. No test waits for anything: time is a number here.
"""
from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.ai import get_policy
from domain.ai.match import bot_choice, house_players, seeded_bytes
from domain.engine.battle import BattleState, decide_batch, fold, open_battle, seat_table
from domain.engine.bots import Bot
from domain.engine.clock import ClockSpec, expiry, parse_clock, remaining
from domain.engine.events import Recorded
from domain.engine.rng import Rng
from domain.engine.ruleset import Ruleset
from domain.engine.timeouts import credit_outage, decide_timeout, timeout_due
from domain.engine.timing import TimedOut, clock_view

START_MS = 1_767_225_600_000         # 2026-01-01T00:00:00Z
CREATED_AT = "2026-01-01T00:00:00.000Z"
MAX_BATCHES = 5_000
MAX_OUTAGE_MS = 10 * 60 * 1000


@dataclass(frozen=True)
class Tempo:
    """How the seats answer. `slow`: the chance in percent that an awaited seat lets its move
    run out; `mute`: seats that never answer (they never make a first move); from batch
    `silent_after` on nobody answers; an outage is credited before every `outage_every`-th
    batch (0: never)."""
    slow: int = 0
    mute: frozenset[str] = frozenset()
    silent_after: int = 60
    outage_every: int = 0


@dataclass
class ClockedMatch:
    state: BattleState
    records: list[Recorded]
    sizes: list[int] = field(default_factory=list)      # each batch's length, the create batch first

    def timeouts(self) -> list[TimedOut]:
        return [r.event for r in self.records if isinstance(r.event, TimedOut)]

    def consequences(self) -> Counter[str]:
        return Counter(t.consequence for t in self.timeouts())

    def batches(self, ruleset: Ruleset[Any]) -> Iterator[tuple[list[Recorded], BattleState | None, BattleState]]:
        """Every batch, with the state before it (None before the create batch) and after it,
        re-folded from the records as every reader folds them."""
        before, at = None, 0
        for size in self.sizes:
            batch, after = self.records[at:at + size], before
            for rec in batch:
                after = fold(ruleset, after, rec)
            assert after is not None
            yield batch, before, after
            before, at = after, at + size


def play_clocked(ruleset: Ruleset[Any], clock: ClockSpec | Mapping[str, Any] | str, tempo: Tempo, *, i: int,
                 setup: Mapping[str, Any] | None = None, first_move_loses: bool = False) -> ClockedMatch:
    """Battle number `i` on this clock, played to its end."""
    spec = clock if isinstance(clock, ClockSpec) else parse_clock(clock)
    setup = ruleset.fresh_setup() if setup is None else setup
    bots = {seat: get_policy("random", ruleset.id) for seat in seat_table(ruleset, setup).seats}
    state, records = open_battle(ruleset, battle_id=f"00000000-0000-4000-8000-{i:012d}", setup=setup,
                                 players=house_players(bots), revealed=seeded_bytes("clocked", i),
                                 created_at=CREATED_AT, clock=spec, clock_at_ms=START_MS,
                                 first_move_loses=first_move_loses)
    match = ClockedMatch(state, records, [len(records)])
    rng = Rng(seeded_bytes("clocked-tempo", i))
    while match.state.outcome is None:
        if len(match.sizes) > MAX_BATCHES:
            raise RuntimeError(f"{ruleset.id}: no result after {MAX_BATCHES} batches")
        match.state, batch = next_batch(ruleset, match.state, bots, tempo, rng, len(match.sizes))
        match.records.extend(batch)
        match.sizes.append(len(batch))
    return match


def next_batch(ruleset: Ruleset[Any], state: BattleState, bots: Mapping[str, Bot], tempo: Tempo, rng: Rng,
               n: int) -> tuple[BattleState, list[Recorded]]:
    """The `n`-th batch: an outage's credit, a seat's command, or the first timeout due."""
    clock = state.clock
    assert clock is not None
    now = clock.at_ms
    if tempo.outage_every and n % tempo.outage_every == 0:
        # the last heartbeat was at the last recorded time, before any clock ran out
        return credit_outage(ruleset, state, now, now + rng.int(1, MAX_OUTAGE_MS), "restart")
    awaited = sorted(ruleset.awaiting(state.game))
    answering = [s for s in awaited
                 if s not in tempo.mute and n <= tempo.silent_after and not rng.chance(tempo.slow, 100)]
    due = timeout_due(state)
    assert due is not None, f"nobody's clock runs at seq {state.seq}, awaiting {awaited}"
    if answering:
        # a quick answer: at most a quarter of the least time any awaited seat has left
        left = min(remaining(clock.spec, clock.seats[s], now) or 0 for s in awaited)
        at = now + rng.int(1, max(1, left // 4))
        if at < due[0]:
            seat = rng.choice(answering)
            choice = bot_choice(bots[seat], ruleset, state.game, seat, ruleset.legal_commands(state.game, seat), rng)
            return decide_batch(ruleset, state, seat, choice, at_ms=at)
    return decide_timeout(ruleset, state, due[1], due[0])


def clock_problems(ruleset: Ruleset[Any], state: BattleState) -> list[str]:
    """What is wrong with the clocks a batch left: a negative bank or time left, a running seat
    the rules do not await or an awaited one whose clock stands, a clock started after the last
    recorded time, or a live seat already past its expiry at it."""
    clock = state.clock
    if clock is None:
        return ["no clock"]
    over = state.outcome is not None
    awaited = frozenset() if over else ruleset.awaiting(state.game)
    view = clock_view(clock, over)
    assert view is not None
    problems = []
    for seat, sc in clock.seats.items():
        shown = view["seats"][seat]       # type: ignore[index]
        if (sc.bank_ms is not None and sc.bank_ms < 0) or shown["remaining_ms"] < 0:
            problems.append(f"{seat}'s clock is negative: {sc}, {shown}")
        if shown["running"] != (seat in awaited) or (not over and (sc.since_ms is not None) != (seat in awaited)):
            problems.append(f"{seat} {'is' if seat in awaited else 'is not'} awaited, its clock: {sc}")
        if sc.since_ms is not None and sc.since_ms > clock.at_ms:
            problems.append(f"{seat}'s clock starts after the last recorded time {clock.at_ms}: {sc}")
        ends = expiry(clock.spec, sc)
        if not over and ends is not None and ends < clock.at_ms:
            problems.append(f"{seat} is past its expiry {ends} at {clock.at_ms}")
    return problems


def contract_for(ruleset_id: str) -> Any:
    """An instance of the ruleset's conformance contract (tests/conformance/test_<id>.py), for
    its `perturb_hidden`, `seat_setups` and viewers. Found by import, so no test class is
    bound here for pytest to collect a second time."""
    module = importlib.import_module(f"tests.conformance.test_{ruleset_id}")
    found = [c for c in vars(module).values() if isinstance(c, type) and c.__module__ == module.__name__
             and getattr(c, "ruleset_id", None) == ruleset_id]
    assert len(found) == 1, f"tests/conformance/test_{ruleset_id}.py declares no single contract class"
    return found[0]()
