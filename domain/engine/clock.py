"""Clocks: time controls, and the pure arithmetic of whose time runs and when it runs out.

Wall-clock time is an input (DESIGN.md). The server takes the time once when it accepts a
command, as integer milliseconds since the Unix epoch, and the batch records it; nothing
here reads a clock. A seat's clock runs while the rules await it:
- its *turn* begins when it becomes awaited and ends when a batch leaves it not awaited, or
  changes the ruleset's declared `turn(state)` (then, if still awaited, a new turn begins);
- at the end of a turn the time it took comes off the seat's bank, and the increment is added
  (Fischer); the wait before a seat's first move is free when the clock has a first-move limit;
- a running seat's deadline is the earliest of its bank running out, the turn maximum, and
  (before its first move) the first-move limit. A command is accepted until the deadline plus
  grace; from then on only a timeout may be recorded for the seat.

The events that carry these facts live in `domain.engine.timing`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from .errors import InvalidInput, quote

OnTimeout = Literal["forfeit", "auto"]
Consequence = Literal["forfeit", "auto", "abort"]
MAX_MS = 10 ** 12           # about 31 years: every time value fits any JSON number reader
SECOND = 1000
MINUTE = 60 * SECOND
DAY = 24 * 60 * MINUTE


class ClockSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A time control. `bank_ms` None: no bank, only `turn_max_ms` limits each turn."""
    bank_ms: int | None
    increment_ms: int = 0
    turn_max_ms: int | None = None
    grace_ms: int = SECOND
    first_move_ms: int | None = None
    on_timeout: OnTimeout = "forfeit"
    max_auto: int = 3


# Presets (README "Clocks"): grace is a second of tolerance for a command already in flight;
# a seat that never makes its first move within the first-move limit aborts the battle.
PRESETS: dict[str, ClockSpec] = {
    "blitz": ClockSpec(bank_ms=3 * MINUTE, increment_ms=2 * SECOND, first_move_ms=30 * SECOND),
    "rapid": ClockSpec(bank_ms=10 * MINUTE, increment_ms=5 * SECOND, first_move_ms=60 * SECOND),
    "bank": ClockSpec(bank_ms=150 * SECOND, increment_ms=10 * SECOND, turn_max_ms=150 * SECOND,
                      first_move_ms=60 * SECOND),
    "correspondence": ClockSpec(bank_ms=None, turn_max_ms=DAY, grace_ms=MINUTE, first_move_ms=DAY),
}
FIELDS = tuple(ClockSpec.__struct_fields__)


class SeatClock(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One seat's clock after a batch: its bank as of the start of its current turn (or now,
    when stopped), since when it runs (None: stopped), whether the seat has moved yet, and
    how many automatic moves in a row the rules have played for it."""
    bank_ms: int | None
    since_ms: int | None = None
    moved: bool = False
    auto: int = 0


Seats = dict[str, SeatClock]


class Due(msgspec.Struct, frozen=True, gc=False):
    """When a running seat's time runs out (`at_ms`, before grace), and why: `first_move`
    (it never moved) or `time` (bank or turn maximum)."""
    at_ms: int
    kind: Literal["first_move", "time"]


def parse_clock(raw: object) -> ClockSpec | None:
    """A battle's clock from JSON: None (no clock), a preset's name, or an object of fields,
    optionally starting from `preset`. InvalidInput names the bad field."""
    if raw is None:
        return None
    if isinstance(raw, str):
        return _preset(raw)
    if not isinstance(raw, Mapping):
        raise InvalidInput("clock", f"a preset ({', '.join(PRESETS)}) or an object of {', '.join(FIELDS)}")
    fields = dict(raw)
    base = msgspec.to_builtins(_preset(fields.pop("preset"), "clock.preset")) if "preset" in fields else {}
    for name, value in fields.items():
        if name not in FIELDS:
            raise InvalidInput(f"clock.{clip_name(name)}", f"unknown clock field; expected preset, {', '.join(FIELDS)}")
        base[name] = _checked(name, value)
    if "bank_ms" not in base:
        raise InvalidInput("clock.bank_ms", "required (null for no bank, with turn_max_ms)")
    spec = ClockSpec(**base)
    if spec.bank_ms is None and spec.turn_max_ms is None:
        raise InvalidInput("clock.turn_max_ms", "a clock with no bank needs a turn maximum")
    return spec


def clip_name(name: object) -> str:
    """A field name fit to quote in an error: JSON keys are text; anything else by its type."""
    text = name if isinstance(name, str) else type(name).__name__
    return text[:40].encode("utf-8", "backslashreplace").decode("utf-8")


def _preset(name: object, field: str = "clock") -> ClockSpec:
    if not isinstance(name, str) or name not in PRESETS:
        raise InvalidInput(field, f"unknown preset {quote(name)}; presets: {', '.join(PRESETS)}")
    return PRESETS[name]


def _checked(name: str, value: object) -> Any:
    if name == "on_timeout":
        if value not in ("forfeit", "auto"):
            raise InvalidInput("clock.on_timeout", f"forfeit or auto, not {quote(value)}")
        return value
    nullable = name in ("bank_ms", "turn_max_ms", "first_move_ms")
    if value is None and nullable:
        return None
    low, high = (1, 100) if name == "max_auto" else (0 if name in ("increment_ms", "grace_ms") else 1, MAX_MS)
    if type(value) is not int or not low <= value <= high:
        also = " or null" if nullable else ""
        raise InvalidInput(f"clock.{name}", f"an integer from {low} to {high}{also}")
    return value


def starting_seats(spec: ClockSpec, seats: tuple[str, ...], awaited: frozenset[str], at_ms: int) -> Seats:
    """Every seat's clock as a battle starts at `at_ms`: the awaited ones run."""
    return {seat: SeatClock(bank_ms=spec.bank_ms, since_ms=at_ms if seat in awaited else None)
            for seat in seats}


def due(spec: ClockSpec, clock: SeatClock) -> Due | None:
    """When the seat's time runs out (None while its clock is stopped)."""
    since = clock.since_ms
    if since is None:
        return None
    if not clock.moved and spec.first_move_ms is not None:
        return Due(since + spec.first_move_ms, "first_move")
    limits = [since + limit for limit in (clock.bank_ms, spec.turn_max_ms) if limit is not None]
    return Due(min(limits), "time")


def expiry(spec: ClockSpec, clock: SeatClock) -> int | None:
    """The first time a command from the seat is refused and its timeout may be recorded."""
    found = due(spec, clock)
    return None if found is None else found.at_ms + spec.grace_ms


def next_expiry(spec: ClockSpec, seats: Mapping[str, SeatClock]) -> tuple[int, str] | None:
    """(the earliest expiry among the running seats, that seat), or None if none runs."""
    found = [(at, seat) for seat, clock in seats.items() if (at := expiry(spec, clock)) is not None]
    return min(found) if found else None


def advance(spec: ClockSpec, seats: Mapping[str, SeatClock], at_ms: int, *, actor: str | None,
            awaited: frozenset[str], new_turn: bool, ended: bool, automatic: bool = False) -> Seats:
    """The clocks after a batch accepted at `at_ms`, in which `actor` moved (the rules for it,
    if `automatic`), leaving `awaited` awaited; `new_turn` if the declared turn changed. A
    stopped clock keeps its bank; a turn that ends takes its time off the bank, and adds the
    increment unless the battle ended."""
    out: Seats = {}
    for seat, clock in seats.items():
        bank, since = clock.bank_ms, clock.since_ms
        acted = seat == actor
        first = acted and not automatic and not clock.moved and spec.first_move_ms is not None
        # A seat's first move starts its bank; an automatic move starts its next turn afresh.
        if since is not None and (ended or new_turn or seat not in awaited or first or (acted and automatic)):
            if bank is not None and (clock.moved or spec.first_move_ms is None):
                bank = max(0, bank - (at_ms - since)) + (0 if ended else spec.increment_ms)
            since = None
        if since is None and seat in awaited and not ended:
            since = at_ms
        auto = (clock.auto + 1 if automatic else 0) if acted else clock.auto
        moved = clock.moved or (acted and not automatic)
        same = bank == clock.bank_ms and since == clock.since_ms and moved == clock.moved and auto == clock.auto
        out[seat] = clock if same else SeatClock(bank_ms=bank, since_ms=since, moved=moved, auto=auto)
    return out


def credited(seats: Mapping[str, SeatClock], credit_ms: int) -> Seats:
    """The clocks after an outage of `credit_ms`: every running clock starts that much later."""
    return {seat: clock if clock.since_ms is None else msgspec.structs.replace(clock, since_ms=clock.since_ms + credit_ms)
            for seat, clock in seats.items()}


def consequence(spec: ClockSpec, seats: Mapping[str, SeatClock], seat: str, side_seats: tuple[str, ...],
                kind: str, first_move_loses: bool, can_auto: bool) -> Consequence:
    """What a timeout of `seat` makes. Before its first move: the battle aborts (a loss in a
    set). Otherwise a side of several seats always gets the automatic move until every one of
    its seats has had `max_auto` in a row; a side of one seat forfeits, or with `auto` gets
    the automatic move until it has had `max_auto` in a row. Rules with no default command
    forfeit."""
    if kind == "first_move":
        return "forfeit" if first_move_loses else "abort"
    if not can_auto or (spec.on_timeout == "forfeit" and len(side_seats) == 1):
        return "forfeit"
    if all(seats[s].auto >= spec.max_auto for s in side_seats):
        return "forfeit"
    return "auto"


def remaining(spec: ClockSpec, clock: SeatClock, at_ms: int) -> int | None:
    """The seat's time left at `at_ms` (before grace): its bank, or the turn maximum when it
    has none, less the time its current turn has run."""
    found = due(spec, clock)
    if found is None:
        return clock.bank_ms if clock.bank_ms is not None else spec.turn_max_ms
    return max(0, found.at_ms - at_ms)
