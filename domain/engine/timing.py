"""The clock's events, and the clock state a battle carries between batches.

A battle with no clock records none of these, so its log is what it always was. A clocked one:
- `ClockStarted` closes the create batch: the time control, the time the battle started and
  every seat's clock then (the awaited ones run);
- `Clocked` closes every command batch: the time the server accepted the command and every
  seat's clock after the batch;
- `TimedOut` opens a batch the server appends when a seat's time has run out: then come a
  forfeit or an abort (`BattleEnded`), or the rules' automatic move and its `Clocked`;
- `ClockCredited` is a batch of its own: after an outage no server could take commands in,
  every running clock is credited the outage before any timeout is decided.
Each event records the clocks it leaves, so every view reads them as of any seq, and
`replay verify` recomputes each one from the recorded times and the rules.
"""
from __future__ import annotations

from typing import ClassVar

import msgspec

from .clock import ClockSpec, Consequence, SeatClock, remaining
from .events import Event


class ClockState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A clocked battle's clocks as of its latest clock fact, recorded at `at_ms`."""
    spec: ClockSpec
    first_move_loses: bool
    at_ms: int
    seats: dict[str, SeatClock]


class ClockStarted(Event, frozen=True, kw_only=True):
    """The last event of a clocked battle's create batch."""
    TOPIC = "engine.ClockStarted"
    spec: ClockSpec
    first_move_loses: bool = False       # in a set: a seat that never moves loses instead of aborting
    at_ms: int
    seats: dict[str, SeatClock]


class Clocked(Event, frozen=True, kw_only=True):
    """The time a command was accepted, and the clocks its batch leaves (before any `BattleEnded`)."""
    TOPIC = "engine.Clocked"
    at_ms: int
    seats: dict[str, SeatClock]


class TimedOut(Event, frozen=True, kw_only=True):
    """A seat's time ran out; the server decided it at `at_ms`. Opens a batch of its own."""
    TOPIC = "engine.TimedOut"
    OPENS_BATCH: ClassVar[bool] = True
    seat: str
    at_ms: int
    consequence: Consequence


class ClockCredited(Event, frozen=True, kw_only=True):
    """No server could accept a command from `since_ms` to `at_ms` (the last heartbeat, and the
    time service resumed): every running clock is credited `credit_ms`, the whole gap."""
    TOPIC = "engine.ClockCredited"
    OPENS_BATCH: ClassVar[bool] = True
    since_ms: int
    at_ms: int
    credit_ms: int
    reason: str
    seats: dict[str, SeatClock]


CLOCK_EVENTS = (ClockStarted, Clocked, TimedOut, ClockCredited)


def fold_clock(clock: ClockState | None, event: Event) -> ClockState | None:
    """The clock state after one of the clock events."""
    if isinstance(event, ClockStarted):
        return ClockState(spec=event.spec, first_move_loses=event.first_move_loses, at_ms=event.at_ms,
                          seats=event.seats)
    if clock is None:
        return None
    if isinstance(event, (Clocked, ClockCredited)):
        return msgspec.structs.replace(clock, at_ms=event.at_ms, seats=event.seats)
    if isinstance(event, TimedOut):
        return msgspec.structs.replace(clock, at_ms=event.at_ms)
    return clock


def clock_view(clock: ClockState | None, over: bool) -> dict[str, object] | None:
    """The clocks as every viewer sees them (nothing here is hidden): the time of the last clock
    fact, and per seat its time left then, whether it runs, whether it has moved yet and its
    automatic moves in a row. A client ticks a running clock down from `at_ms` itself. The
    control is not repeated here, in every view of every batch: it never changes
    (`clock_control`). Every viewer of one state gets the same object (a state's views are
    rendered together): callers must not change it."""
    global _LAST
    if clock is None:
        return None
    last = _LAST
    if last is not None and last[0] is clock and last[1] == over:
        return last[2]
    shown = _clock_view(clock, over)
    _LAST = (clock, over, shown)
    return shown


_LAST: tuple[ClockState, bool, dict[str, object]] | None = None


def _clock_view(clock: ClockState, over: bool) -> dict[str, object]:
    seats = {}
    for seat, sc in clock.seats.items():
        running = sc.since_ms is not None and not over
        seats[seat] = {"remaining_ms": remaining(clock.spec, sc, clock.at_ms), "running": running,
                       "moved": sc.moved, "auto": sc.auto}
    return {"at_ms": clock.at_ms, "seats": seats}


def clock_control(clock: ClockState | None) -> dict[str, object] | None:
    """The battle's time control, fixed from its `ClockStarted` on; None for no clock."""
    return None if clock is None else msgspec.to_builtins(clock.spec)
