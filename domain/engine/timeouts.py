"""The batches the server appends for a battle's clock: a timeout, and an outage's credit.

Both are pure functions of a state and recorded times, as `decide_batch` is of a command, so
the server and `replay verify` run the very same code: verify re-simulates a timeout and
fails one recorded before the seat's time ran out, or with a consequence other than the one
the clock declares.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .battle import BattleEnded, BattleState, apply_decision, close_batch, clocked, extend, fold, record
from .clock import consequence, credited, due, next_expiry
from .decision import Decision
from .errors import BattleOver, RuleViolation
from .events import Recorded
from .rng import Rng, batch_cursor
from .ruleset import Ruleset
from .timing import ClockCredited, Clocked, ClockStarted, ClockState, TimedOut

# The reasons a clock ends a battle with (`BattleEnded.reason`).
TIME_FORFEIT = "timeout"
NO_FIRST_MOVE = "no_first_move"      # in a set: the seat that never moved loses
ABORTED = "aborted_no_first_move"    # outside a set: nobody wins, and the battle is unrated
MAX_AUTOMATIC_MOVES = 64            # a bound on one timeout's moves, should a part never end


def running_clock(state: BattleState, at_ms: int) -> ClockState:
    if state.outcome is not None:
        raise BattleOver("the battle is over", seq=state.seq)
    if state.clock is None:
        raise RuleViolation("the battle has no clock")
    if at_ms < state.clock.at_ms:
        raise RuleViolation(f"the time {at_ms} is before the battle's last recorded time {state.clock.at_ms}")
    return state.clock


def decide_timeout(ruleset: Ruleset[Any], state: BattleState, seat: str,
                   at_ms: int) -> tuple[BattleState, list[Recorded]]:
    """The batch recording that `seat`'s time ran out, decided at `at_ms`: `TimedOut`, then a
    forfeit or abort (`BattleEnded`), or the rules' default command for the seat and its clock."""
    clock = running_clock(state, at_ms)
    seat_clock = clock.seats.get(seat)
    found = due(clock.spec, seat_clock) if seat_clock is not None else None
    if found is None:
        raise RuleViolation(f"{seat}'s clock is not running")
    if at_ms < found.at_ms + clock.spec.grace_ms:
        raise RuleViolation(f"{seat}'s time runs out at {found.at_ms} with {clock.spec.grace_ms} ms of grace; "
                            f"a timeout at {at_ms} is early")
    side = state.table.side_of(seat)
    side_seats = dict(state.table.sides)[side]
    what = consequence(clock.spec, clock.seats, seat, side_seats, found.kind, clock.first_move_loses,
                       ruleset.default_command is not None)
    if what == "auto":
        try:
            return _automatic(ruleset, state, seat, at_ms)
        except RuleViolation:       # rules whose default is not legal here must not hold the battle up
            what = "forfeit"
    first = record(state.chain, state.seq + 1, TimedOut(seat=seat, at_ms=at_ms, consequence=what))
    state, out = fold(ruleset, state, first), [first]
    others = [s for s in state.table.side_ids if s != side]
    if what == "abort":
        winner, reason = None, ABORTED
    else:
        winner = others[0] if len(others) == 1 else None
        reason = TIME_FORFEIT if found.kind == "time" else NO_FIRST_MOVE
    ended = record(state.chain, state.seq + 1, BattleEnded(winner=winner, reason=reason, seed=state.created.seed or ""))
    return fold(ruleset, state, ended), [*out, ended]


def _automatic(ruleset: Ruleset[Any], state: BattleState, seat: str, at_ms: int) -> tuple[BattleState, list[Recorded]]:
    first = record(state.chain, state.seq + 1, TimedOut(seat=seat, at_ms=at_ms, consequence="auto"))
    state, out = fold(ruleset, state, first), [first]
    return close_batch(ruleset, automatic_moves(ruleset, state, seat, out), out,
                       clocked(ruleset, state, seat, at_ms, automatic=True))


def automatic_moves(ruleset: Ruleset[Any], state: BattleState, seat: str, out: list[Recorded]) -> BattleState:
    """The rules' default command for `seat`, again while the seat is still awaited in the same
    turn (a plan of several parts, one per command): its part of the turn ends. Each move draws
    from the RNG at its own seq, as a command would."""
    assert ruleset.default_command is not None
    turn = ruleset.turn(state.game)
    for _ in range(MAX_AUTOMATIC_MOVES):
        command = ruleset.default_command(state.game, seat)
        decision = ruleset.decide(state.game, seat, command, Rng(state.seed, batch_cursor(state.seq + 1)))
        state = apply_decision(ruleset, state, out, decision)
        if ruleset.outcome(state.game) is not None or ruleset.turn(state.game) != turn \
                or seat not in ruleset.awaiting(state.game):
            break
    return state


def credit_outage(ruleset: Ruleset[Any], state: BattleState, since_ms: int, at_ms: int,
                  reason: str) -> tuple[BattleState, list[Recorded]]:
    """The batch crediting every running clock with an outage from `since_ms` (the last time a
    server was known to take commands) to `at_ms`. The outage cannot start before the battle's
    last recorded time: a credit is never longer than the gap around it."""
    clock = running_clock(state, at_ms)
    if not clock.at_ms <= since_ms <= at_ms:
        raise RuleViolation(f"an outage from {since_ms} to {at_ms} must lie after the last recorded time {clock.at_ms}")
    credit = at_ms - since_ms
    event = ClockCredited(since_ms=since_ms, at_ms=at_ms, credit_ms=credit, reason=reason,
                          seats=credited(clock.seats, credit))
    return extend(ruleset, state, [], Decision((event,)))


def timeout_due(state: BattleState) -> tuple[int, str] | None:
    """(the time a timeout may first be recorded, for which seat) for a live clocked battle."""
    if state.outcome is not None or state.clock is None:
        return None
    return next_expiry(state.clock.spec, state.clock.seats)


def started_clock(records: Sequence[Recorded]) -> ClockStarted | None:
    """The clock a create batch started (None: an unclocked battle)."""
    for rec in records[1:]:
        if isinstance(rec.event, ClockStarted):
            return rec.event
        if rec.event.starts_batch():
            break
    return None


def recorded_time(records: Sequence[Recorded], at: int) -> int | None:
    """The accept time of the command batch that starts at `records[at]` (its `Clocked`)."""
    for rec in records[at + 1:]:
        if isinstance(rec.event, Clocked):
            return rec.event.at_ms
        if rec.event.starts_batch():
            break
    return None
