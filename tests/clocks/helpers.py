"""Shared parts of the clock tests: the injected wall clock (tests/clocktime.py), a battle with a
clock, the log read back."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from domain.battles import Battles
from domain.engine.events import OMNISCIENT
from domain.engine.clock import SeatClock
from domain.engine.timing import ClockCredited, TimedOut, clock_view
from domain.replay import build
from domain.timers import ClockKeeper
from replays.verify import verify
from tests.clocktime import T0, Clock  # noqa: F401  (the injected wall clock, imported from here too)

PLAYERS = {"p1": "alice", "p2": "bob"}
SEED = bytes(range(32))         # a fixed seed: the same rng draws at every run
# A minute each, a second of grace, no first-move limit: both seats owe a mulligan from T0,
# so both clocks run from T0 and p1's (the first seat) runs out first: at T0 + 61,000.
MINUTE = {"bank_ms": 60_000, "grace_ms": 1_000}


@contextmanager
def running(battles: Battles, **options: Any) -> Iterator[ClockKeeper]:
    """A started clock keeper, closed at the end of the block."""
    keeper = ClockKeeper(battles, **options)
    keeper.start()
    try:
        yield keeper
    finally:
        keeper.close()


def create(battles: Battles, clock: Any = None, ruleset: str = "deckduel") -> str:
    return battles.create(ruleset, PLAYERS, clock=clock or MINUTE, revealed=SEED).battle_id


def topics(battles: Battles, battle_id: str, after: int = 0) -> list[str]:
    return [rec.event.TOPIC for rec in battles.records(battle_id) if rec.seq > after]


def timeouts(battles: Battles, battle_id: str) -> list[TimedOut]:
    return [rec.event for rec in battles.records(battle_id) if isinstance(rec.event, TimedOut)]


def credits(battles: Battles, battle_id: str) -> list[ClockCredited]:
    return [rec.event for rec in battles.records(battle_id) if isinstance(rec.event, ClockCredited)]


def seat_clock(battles: Battles, battle_id: str, seat: str) -> SeatClock:
    clock = battles.load(battle_id).clock
    assert clock is not None
    return clock.seats[seat]


def seats_shown(battles: Battles, battle_id: str) -> dict[str, Any]:
    """Every seat's clock as the battle's view shows it now."""
    state = battles.load(battle_id)
    view = clock_view(state.clock, over=state.outcome is not None)
    assert view is not None
    return cast(dict[str, Any], view["seats"])


def verified(battles: Battles, battle_id: str) -> None:
    """`replay verify` re-simulates every batch, the clock's own included, from the log alone
    (the whole log, seed included, even of a battle still in play)."""
    report = verify(build(battles.load(battle_id), battles.records(battle_id), OMNISCIENT))
    assert report.ok, report.reason
