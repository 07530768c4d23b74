"""`replay verify` on clocked battles: it recomputes every clock from the recorded times.

Issue 36, "Clocks are events": verify fails a replay in which a command was accepted after its
seat's time ran out (beyond grace), a timeout was recorded before the time ran out, or a
consequence differs from the declared one; a credit is no longer than the gap between the
recorded times around it. Each forgery below re-chains the log, as a forger with the hash
function would, so only the re-simulation can catch it, at the forged batch's seq.
"""
from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.engine import battle as battle_module
from domain.engine.battle import BattleState, decide_batch
from domain.engine.clock import ClockSpec, advance, credited, expiry
from domain.engine.ruleset import get_ruleset
from domain.engine.timeouts import decide_timeout, timeout_due
from domain.engine.timing import ClockCredited, Clocked, TimedOut
from replays.format import Replay, build, dumps, loads
from replays.verify import verify
from tests.conformance.clocked import ClockedMatch, Tempo, play_clocked
from tests.replays.helpers import forge

DUEL = get_ruleset("deckduel")
# 60 s + 2 s, 1 s of grace, no first-move limit; the rules move for a late seat twice in a row,
# then it forfeits. Seats answer late one time in five, and an outage is credited every sixth batch.
SPEC = ClockSpec(bank_ms=60_000, increment_ms=2_000, grace_ms=1_000, on_timeout="auto", max_auto=2)
TEMPO = Tempo(slow=20, silent_after=24, outage_every=6)


@pytest.fixture(scope="module")
def game() -> tuple[ClockedMatch, Replay]:
    m = play_clocked(DUEL, SPEC, TEMPO, i=3601)
    return m, loads(dumps(build(m.state, m.records)))


def batches(m: ClockedMatch, kind: type) -> list[tuple[int, BattleState]]:
    """(the index of the batch's opening event, the state before it) for each batch that opens
    with `kind` (an action event, for `Clocked`: a command's batch)."""
    found, at = [], 0
    for batch, before, _ in m.batches(DUEL):
        opening = batch[0].event
        if before is not None and (isinstance(opening, kind) or (kind is Clocked and opening.COMMAND is not None)):
            found.append((at, before))
        at += len(batch)
    return found


def clocked_index(m: ClockedMatch, at: int) -> int:
    """The index of the `Clocked` that closes the command batch opening at `at`."""
    return next(i for i in range(at, len(m.records)) if isinstance(m.records[i].event, Clocked))


def test_a_clocked_battle_with_commands_automatic_moves_credits_and_a_forfeit_verifies(game):
    m, replay = game
    assert m.consequences() == {"auto": 7, "forfeit": 1}
    assert len(batches(m, ClockCredited)) == 4 and len(batches(m, Clocked)) > 10
    assert (m.state.outcome.winner, m.state.outcome.reason) == ("p1", "timeout")
    report = verify(replay)
    assert report.ok, report
    assert (report.head, report.winner) == (m.state.chain, "p1")


def test_an_edited_accept_time_fails_at_its_clocked_event(game):
    m, replay = game
    at, before = batches(m, Clocked)[3]
    k = clocked_index(m, at)
    accepted = m.records[k].event.at_ms
    assert accepted - 1 >= before.clock.at_ms        # still after the last recorded time
    _, report = forge(replay, k, at_ms=accepted - 1)
    assert (report.status, report.seq) == ("fail", k + 1), report
    assert report.reason == "re-simulation produced engine.Clocked with other data than the log has"


def test_an_accept_time_forged_with_its_clocks_fails_at_the_next_clock_fact(game):
    """Move an accept time 1 ms earlier and recompute that batch's clocks too: the next batch,
    re-simulated from those clocks, records other ones (1 ms more is charged to the next turn)."""
    m, replay = game
    at, before = batches(m, Clocked)[3]
    k = clocked_index(m, at)
    seat = m.records[at].event.acting_seat()
    assert forged_clocked(before, seat, m.records[k].event, 0) == m.records[k].event
    forged = forged_clocked(before, seat, m.records[k].event, -1)
    _, report = forge(replay, k, at_ms=forged.at_ms, seats=msgspec.to_builtins(forged.seats))
    facts = (Clocked, TimedOut, ClockCredited)
    nxt = next(i for i in range(k + 1, len(m.records)) if isinstance(m.records[i].event, facts))
    assert (report.status, report.seq) == ("fail", nxt + 1), report


def forged_clocked(before: BattleState, seat: str, recorded: Clocked, shift_ms: int) -> Clocked:
    """The `Clocked` the batch would have closed with, accepted `shift_ms` later: who is awaited
    after it, and whether a new turn began (a seat that ran before restarts at the accept
    time), are read from the recorded one."""
    clock, at_ms = before.clock, recorded.at_ms + shift_ms
    was = {s: c.since_ms for s, c in recorded.seats.items()}
    awaited = frozenset(s for s, since in was.items() if since is not None)
    new_turn = any(recorded.seats[s].since_ms == recorded.at_ms and clock.seats[s].since_ms is not None
                   for s in awaited)
    seats = advance(clock.spec, clock.seats, at_ms, actor=seat, awaited=awaited, new_turn=new_turn, ended=False)
    return Clocked(at_ms=at_ms, seats=seats)


def test_a_command_forged_past_its_seats_expiry_fails_at_its_batch(game):
    """Move an accept time to the seat's expiry (its deadline plus grace) and recompute the
    batch's clocks consistently: the command came too late."""
    m, replay = game
    at, before = batches(m, Clocked)[5]
    seat, k = m.records[at].event.acting_seat(), clocked_index(m, at)
    late = expiry(before.clock.spec, before.clock.seats[seat])
    assert forged_clocked(before, seat, m.records[k].event, 0) == m.records[k].event
    forged = forged_clocked(before, seat, m.records[k].event, late - m.records[k].event.at_ms)
    assert forged.at_ms == late
    _, report = forge(replay, k, at_ms=forged.at_ms, seats=msgspec.to_builtins(forged.seats))
    assert (report.status, report.seq) == ("fail", at + 1), report
    assert report.reason.startswith("the command was accepted after its seat's time ran out: ")
    assert f"{seat}'s time ran out at {late - 1_000}" in report.reason


def test_a_command_accepted_late_by_an_engine_without_the_check_fails_at_its_batch(monkeypatch):
    """A log written by a server that skipped the time check, consistent in every other way:
    p1 keeps its hand at T0+5 s; p2 at T0+61 s, its 60 s and 1 s of grace spent; p1 then times out."""
    t0 = 1_767_225_600_000
    state, records = battle_module.open_battle(
        DUEL, battle_id="00000000-0000-4000-8000-000000003602", setup=DUEL.fresh_setup(),
        players={"p1": "ann", "p2": "bob"}, revealed=b"late", created_at="2026-01-01T00:00:00.000Z",
        clock=ClockSpec(bank_ms=60_000, grace_ms=1_000), clock_at_ms=t0)
    state, batch = decide_batch(DUEL, state, "p1", {"type": "mulligan", "cards": []}, at_ms=t0 + 5_000)
    records += batch
    late_at = len(records)
    with monkeypatch.context() as patched:
        patched.setattr(battle_module, "check_time", lambda *args: None)
        state, batch = decide_batch(DUEL, state, "p2", {"type": "mulligan", "cards": []}, at_ms=t0 + 61_000)
    records += batch
    expires, seat = timeout_due(state)
    state, batch = decide_timeout(DUEL, state, seat, expires)
    records += batch
    report = verify(loads(dumps(build(state, records))))
    assert (report.status, report.seq) == ("fail", late_at + 1), report
    assert report.reason.startswith("the command was accepted after its seat's time ran out: p2's time ran out at ")


def test_a_timeout_moved_before_its_deadline_fails_at_its_seq(game):
    m, replay = game
    for at, before in batches(m, TimedOut):
        timed = m.records[at].event
        early = expiry(before.clock.spec, before.clock.seats[timed.seat]) - 1
        assert before.clock.at_ms <= early < timed.at_ms
        _, report = forge(replay, at, at_ms=early)
        assert (report.status, report.seq) == ("fail", at + 1), report
        assert report.reason.startswith("the engine.TimedOut is not due here: ")
        assert f"a timeout at {early} is early" in report.reason


@pytest.mark.parametrize("which,to", [(0, "forfeit"), (0, "abort"), (-1, "auto"), (-1, "abort")])
def test_a_changed_consequence_fails_at_its_timeout(game, which, to):
    m, replay = game
    at, _ = batches(m, TimedOut)[which]
    was = m.records[at].event.consequence
    assert was == ("auto" if which == 0 else "forfeit")
    _, report = forge(replay, at, consequence=to)
    assert (report.status, report.seq) == ("fail", at + 1), report
    assert report.reason == f"the timeout's consequence is {to}; the clock makes it {was}"


def test_a_credit_longer_than_the_gap_before_it_fails_at_its_seq(game):
    """Start the outage 5 s before the last recorded time, with the credit and the clocks it
    leaves recomputed to match: the outage would cover time a server was recording."""
    m, replay = game
    at, before = batches(m, ClockCredited)[1]
    credit: ClockCredited = m.records[at].event
    since = before.clock.at_ms - 5_000
    longer = credit.at_ms - since
    assert longer == credit.credit_ms + (credit.since_ms - before.clock.at_ms) + 5_000
    _, report = forge(replay, at, since_ms=since, credit_ms=longer,
                      seats=msgspec.to_builtins(credited(before.clock.seats, longer)))
    assert (report.status, report.seq) == ("fail", at + 1), report
    assert report.reason == (f"the engine.ClockCredited is not due here: an outage from {since} to {credit.at_ms} "
                             f"must lie after the last recorded time {before.clock.at_ms}")


@pytest.mark.parametrize("field,delta", [("credit_ms", 1), ("at_ms", 1)])
def test_a_credit_that_disagrees_with_its_own_times_fails_at_its_seq(game, field: str, delta: Any):
    m, replay = game
    at, _ = batches(m, ClockCredited)[0]
    _, report = forge(replay, at, **{field: getattr(m.records[at].event, field) + delta})
    assert (report.status, report.seq) == ("fail", at + 1), report
    assert report.reason == "re-simulation produced engine.ClockCredited with other data than the log has"
