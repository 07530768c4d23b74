"""The clock keeper on one worker, on injected time: it appends each timeout once the deadline
and its grace have passed and not before, plays the automatic moves on, follows commits that
move a deadline, lets ended battles go, and credits an outage (measured from the stored
heartbeat) before it decides any timeout. Every battle that ends verifies (a live one's seed is not revealed yet)."""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from domain.battles import Battles
from domain.engine.errors import TimeOut
from domain.engine.ruleset import Outcome
from domain.engine.timing import ClockStarted, TimedOut
from domain.heartbeat import OUTAGE_MS
from domain.timers import OUTAGE, ClockKeeper
from tests.storage.helpers import play_out

from .helpers import T0, Clock, create, credits, running, seat_clock, seats_shown, timeouts, topics, verified

QUIET = 3600.0      # the keeper's own log reads are left to the test


def until(check: Callable[[], bool], what: str, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


@pytest.fixture
def battles(sqlite_url: str, clock: Clock) -> Iterator[Battles]:
    with Battles(sqlite_url, now_ms=clock) as battles:
        battles.committer.start()
        yield battles


def test_a_timeout_is_appended_once_the_deadline_and_grace_have_passed_and_not_before(battles: Battles,
                                                                                     clock: Clock) -> None:
    with running(battles, sweep_seconds=QUIET) as keeper:
        # given a battle whose clocks (a minute, a second of grace) run from T0
        bid = create(battles)
        created = battles.load(bid).seq
        assert keeper.deadline(bid) == T0 + 61_000          # 60,000 bank + 1,000 grace
        # when the time is a millisecond short of it, then nothing is appended
        clock.advance(60_999)
        keeper.run_due()
        assert topics(battles, bid, after=created) == []
        # when it has come, then p1 (the first seat of the two due) times out and forfeits
        clock.advance(1)
        keeper.run_due()
        assert topics(battles, bid, after=created) == ["engine.TimedOut", "engine.BattleEnded"]
        assert timeouts(battles, bid) == [TimedOut(seat="p1", at_ms=T0 + 61_000, consequence="forfeit")]
        assert battles.load(bid).outcome == Outcome(winner="p2", reason="timeout")
        # and the ended battle has left the keeper
        assert (len(keeper), keeper.deadline(bid), keeper.timeouts) == (0, None, 1)
    verified(battles, bid)


def test_the_keepers_own_thread_decides_when_poked_after_the_time_moved_on(battles: Battles, clock: Clock) -> None:
    with running(battles, sweep_seconds=QUIET) as keeper:
        bid = create(battles)
        clock.advance(61_000)
        keeper.poke()
        until(lambda: len(timeouts(battles, bid)) == 1, "the keeper's thread to append the timeout")
    verified(battles, bid)


def test_the_keepers_thread_wakes_at_a_real_deadline(sqlite_url: str) -> None:
    # given a battle on the wall clock whose seats have 300 ms and no grace
    with Battles(sqlite_url) as battles:
        battles.committer.start()
        with running(battles, sweep_seconds=QUIET):
            bid = create(battles, {"bank_ms": 300, "grace_ms": 0})
            # then, untouched, the thread times p1 out at the deadline (well within 2 s), not before
            until(lambda: len(timeouts(battles, bid)) == 1, "a timeout on the wall clock", seconds=2.0)
        [started] = [rec.event for rec in battles.records(bid) if isinstance(rec.event, ClockStarted)]
        assert timeouts(battles, bid)[0].at_ms >= started.at_ms + 300


def test_a_late_command_is_refused_and_appends_nothing_then_the_keeper_appends_the_timeout(battles: Battles,
                                                                                           clock: Clock) -> None:
    # The refusal is the battle's own clock, so no keeper runs until it is checked: a keeper's
    # thread, woken by the battle's creation, could otherwise time the battle out first.
    bid = create(battles)
    before = battles.load(bid).seq
    clock.advance(61_000)
    # when p2's command arrives at its deadline plus grace
    with pytest.raises(TimeOut) as refused:
        battles.submit(bid, "p2", battles.legal(bid, "p2")[0])
    # then it is refused as time_out, and nothing is appended
    assert refused.value.code == "time_out"
    assert battles.load(bid).seq == before
    # and the keeper appends the timeout as a batch of its own (its thread or this call)
    with running(battles, sweep_seconds=QUIET) as keeper:
        keeper.run_due()
        until(lambda: len(timeouts(battles, bid)) == 1, "the keeper to append the timeout")
        assert topics(battles, bid, after=before) == ["engine.TimedOut", "engine.BattleEnded"]
    verified(battles, bid)


def test_automatic_moves_play_on_until_a_seat_has_had_max_auto_in_a_row(battles: Battles, clock: Clock) -> None:
    auto = {"bank_ms": 10_000, "grace_ms": 500, "on_timeout": "auto", "max_auto": 2}
    with running(battles, sweep_seconds=QUIET) as keeper:
        bid = create(battles, auto)
        # when both mulligan clocks have run out (10,000 + 500 grace)
        clock.advance(10_500)
        keeper.run_due()
        # then the rules keep each hand for its seat, and the battle goes on
        assert timeouts(battles, bid) == [TimedOut(seat="p1", at_ms=T0 + 10_500, consequence="auto"),
                                          TimedOut(seat="p2", at_ms=T0 + 10_500, consequence="auto")]
        assert battles.load(bid).outcome is None
        assert seat_clock(battles, bid, "p1").auto == 1
        # when nobody moves: every turn has an empty bank now, so it runs out after its grace
        for _ in range(20):
            clock.advance(500)
            keeper.run_due()
            if battles.load(bid).outcome is not None:
                break
        # then the seat timed out a third time forfeits: twice `auto` in a row, then forfeit
        found = timeouts(battles, bid)
        loser = found[-1].seat
        assert [t.consequence for t in found if t.seat == loser] == ["auto", "auto", "forfeit"]
        assert all(t.consequence == "auto" for t in found[:-1])
        assert battles.load(bid).outcome == Outcome(winner="p2" if loser == "p1" else "p1", reason="timeout")
    verified(battles, bid)


@pytest.mark.parametrize("alone", [False, True])
def test_a_commit_that_moves_the_deadline_reschedules_the_battle(battles: Battles, clock: Clock, alone: bool) -> None:
    fischer = {"bank_ms": 60_000, "increment_ms": 5_000, "grace_ms": 1_000}
    with running(battles, sweep_seconds=QUIET, alone=alone) as keeper:
        bid = create(battles, fischer)
        assert keeper.deadline(bid) == T0 + 61_000
        # when both seats mulligan at T0 + 20 s, the turn ends for both
        clock.advance(20_000)
        for seat in ("p1", "p2"):
            battles.submit(bid, seat, battles.legal(bid, seat)[0])
        # then the awaited seat's deadline moved: 20,000 + (60,000 - 20,000 + 5,000 increment) + 1,000 grace
        assert keeper.deadline(bid) == T0 + 66_000
        after_moves = battles.load(bid).seq
        clock.advance(41_000)           # the old deadline passes with nothing to do
        keeper.run_due()
        assert battles.load(bid).seq == after_moves
        clock.advance(5_000)            # the new one does not
        keeper.run_due()
        assert topics(battles, bid, after=after_moves) == ["engine.TimedOut", "engine.BattleEnded"]
        assert timeouts(battles, bid)[0].at_ms == T0 + 66_000
    verified(battles, bid)


def test_a_battle_played_to_its_end_leaves_the_keeper_and_its_deadline_passes_quietly(battles: Battles,
                                                                                      clock: Clock) -> None:
    with running(battles, sweep_seconds=QUIET) as keeper:
        bid = create(battles)
        other = create(battles)
        # when one battle is played to its end (no time passes), the other not
        play_out(battles, bid, random.Random(3))
        # then only the other is held, and when both deadlines pass only the other times out
        assert (len(keeper), keeper.deadline(bid), keeper.deadline(other)) == (1, None, T0 + 61_000)
        clock.advance(3_600_000)
        keeper.run_due()
        assert timeouts(battles, bid) == [] and len(timeouts(battles, other)) == 1
        assert len(keeper) == 0
    verified(battles, bid)
    verified(battles, other)


def moved_elsewhere(keeper: ClockKeeper, elsewhere: Battles, clock: Clock, spec: Any = None) -> str:
    """A battle another process creates (which the keeper reads from the log: its deadline
    T0 + 61 s) and in which both seats keep their hands at T0 + 20 s; the keeper reads the log again."""
    elsewhere.committer.start()
    bid = create(elsewhere, spec)
    keeper.discover()
    assert keeper.deadline(bid) == T0 + 61_000
    clock.advance(20_000)
    for seat in ("p1", "p2"):
        elsewhere.submit(bid, seat, elsewhere.legal(bid, seat)[0])
    keeper.discover()
    return bid


def test_a_battle_another_process_clocks_is_held_from_the_log(sqlite_url: str, battles: Battles, clock: Clock) -> None:
    with running(battles, sweep_seconds=QUIET) as keeper, Battles(sqlite_url, now_ms=clock) as elsewhere:
        # given a battle created and moved by another process, when this worker reads the log
        bid = moved_elsewhere(keeper, elsewhere, clock)
        # then it holds the deadline the other's commands left
        assert keeper.deadline(bid) == T0 + 61_000      # no increment: the bank runs on from T0 + 20 s
        clock.advance(41_000)
        keeper.run_due()
        assert len(timeouts(battles, bid)) == 1 and keeper.timeouts == 1


def test_a_worker_alone_checks_a_deadline_it_read_long_ago_against_the_battle_when_it_comes_due(
        sqlite_url: str, battles: Battles, clock: Clock) -> None:
    fischer = {"bank_ms": 60_000, "increment_ms": 5_000, "grace_ms": 1_000}
    with running(battles, sweep_seconds=QUIET, alone=True) as keeper, \
            Battles(sqlite_url, now_ms=clock) as elsewhere:
        # given a battle another process starts (an import, say) and moves on: its deadline is now
        # 20,000 + (60,000 - 20,000 + 5,000) + 1,000 grace
        bid = moved_elsewhere(keeper, elsewhere, clock, fischer)
        assert keeper.deadline(bid) == T0 + 61_000      # clock events are not read again alone
        # then the stale deadline appends nothing: the battle is loaded and held afresh
        clock.advance(41_000)
        keeper.run_due()
        assert timeouts(battles, bid) == [] and keeper.deadline(bid) == T0 + 66_000
        clock.advance(5_000)
        keeper.run_due()
        assert [t.at_ms for t in timeouts(battles, bid)] == [T0 + 66_000]


def test_a_battle_left_due_while_no_worker_ran_times_out_at_start_without_credit(battles: Battles,
                                                                                  clock: Clock) -> None:
    # given a fresh store (no worker ever beat in it) and a battle left two minutes past due
    bid = create(battles)
    clock.advance(120_000)
    # when a worker starts, then no outage is credited (none is known) and the timeout follows
    with running(battles, sweep_seconds=QUIET) as keeper:
        keeper.run_due()
        assert keeper.outage is None and credits(battles, bid) == []
        assert timeouts(battles, bid) == [TimedOut(seat="p1", at_ms=T0 + 120_000, consequence="forfeit")]
    verified(battles, bid)


def test_an_outage_is_credited_to_the_running_clocks_before_any_timeout(battles: Battles, clock: Clock) -> None:
    # given a battle created while a worker ran, whose last beat was at T0
    with running(battles, sweep_seconds=QUIET):
        bid = create(battles)
    # when no worker is up for two minutes (twice the bank), then one starts
    clock.advance(120_000)
    with running(battles, sweep_seconds=QUIET) as keeper:
        keeper.run_due()
        # then the whole gap is credited, from the last beat to the restart, and nobody timed out
        assert keeper.outage == (T0, T0 + 120_000)
        [credit] = credits(battles, bid)
        assert (credit.since_ms, credit.at_ms, credit.credit_ms, credit.reason) == (T0, T0 + 120_000, 120_000, OUTAGE)
        assert timeouts(battles, bid) == []
        # p1 still has its whole minute, running from the restart
        assert seats_shown(battles, bid)["p1"] == {"remaining_ms": 60_000, "running": True, "moved": False, "auto": 0}
        assert battles.load(bid).clock.seats["p1"].since_ms == T0 + 120_000
        assert keeper.deadline(bid) == T0 + 181_000     # 120,000 + 60,000 + 1,000 grace
        # when that minute runs out, then the timeout comes after the credit
        clock.advance(61_000)
        keeper.run_due()
        assert topics(battles, bid)[-3:] == ["engine.ClockCredited", "engine.TimedOut", "engine.BattleEnded"]
    verified(battles, bid)


@pytest.mark.parametrize("down_ms, credited", [(OUTAGE_MS, False), (OUTAGE_MS + 1, True)])
def test_only_a_heartbeat_older_than_the_threshold_is_an_outage(battles: Battles, clock: Clock, down_ms: int,
                                                                credited: bool) -> None:
    with running(battles, sweep_seconds=QUIET):
        bid = create(battles)
    clock.advance(down_ms)          # OUTAGE_MS = 3 beats of a second: a restart quicker than that is not one
    with running(battles, sweep_seconds=QUIET) as keeper:
        assert (keeper.outage is not None, len(credits(battles, bid))) == (credited, int(credited))
