"""Timeouts, outage credits and accept times through the engine (domain/engine/timeouts.py and
`decide_batch`): a deckduel battle on a 60 s + 2 s clock with a second of grace, in virtual time.

Issue 36, "Clocks are events": a timeout is a batch of its own that opens with `TimedOut`; a
command after its seat's deadline plus grace is refused (`time_out`) and appends nothing; a
battle with no clock records no clock event and stays byte-identical.
"""
from __future__ import annotations

import dataclasses

import msgspec
import pytest

from domain.ai.match import seeded_bytes
from domain.battles import Battles
from domain.engine.battle import BattleEnded, BattleState, decide_batch, open_battle
from domain.engine.clock import ClockSpec, SeatClock
from domain.engine.errors import BattleOver, RuleViolation, TimeOut
from domain.engine.ruleset import get_ruleset
from domain.engine.timeouts import (ABORTED, NO_FIRST_MOVE, TIME_FORFEIT, credit_outage, decide_timeout,
                                    timeout_due)
from domain.engine.timing import CLOCK_EVENTS, ClockCredited, Clocked, ClockStarted, TimedOut

DUEL = get_ruleset("deckduel")
T0 = 1_767_225_600_000          # 2026-01-01T00:00:00Z
SPEC = ClockSpec(bank_ms=60_000, increment_ms=2_000, grace_ms=1_000)
KEEP = {"type": "mulligan", "cards": []}
PASS = {"type": "pass"}


def opened(spec: ClockSpec | None = SPEC, **clock: object) -> tuple[BattleState, list]:
    """A deckduel battle created at T0; both seats are awaited for the mulligan."""
    extra = {"clock": spec, "clock_at_ms": T0, **clock} if spec is not None else clock
    return open_battle(DUEL, battle_id="00000000-0000-4000-8000-000000000036", setup=DUEL.fresh_setup(),
                       players={"p1": "ann", "p2": "bob"}, revealed=seeded_bytes("timeouts", 2),
                       created_at="2026-01-01T00:00:00.000Z", **extra)


def mulliganed(spec: ClockSpec = SPEC) -> BattleState:
    """Given both mulligans kept, p1 at T0+5 s and p2 at T0+10 s: p1 is to move, running since
    T0+10 s with 60 - 5 + 2 = 57 s, so due at T0+67 s and refused from T0+68 s."""
    state, _ = opened(spec)
    state, _ = decide_batch(DUEL, state, "p1", KEEP, at_ms=T0 + 5_000)
    state, _ = decide_batch(DUEL, state, "p2", KEEP, at_ms=T0 + 10_000)
    assert DUEL.awaiting(state.game) == {"p1"}
    assert state.clock.seats == {"p1": SeatClock(bank_ms=57_000, since_ms=T0 + 10_000, moved=True),
                                 "p2": SeatClock(bank_ms=52_000, since_ms=None, moved=True)}
    return state


def topics(records) -> list[str]:
    return [r.event.TOPIC for r in records]


# -- the create batch and accept times -------------------------------------------------------------

def test_a_clocked_create_batch_closes_with_the_clock_started():
    state, records = opened()
    assert records[-1].event == ClockStarted(spec=SPEC, first_move_loses=False, at_ms=T0, seats={
        "p1": SeatClock(bank_ms=60_000, since_ms=T0), "p2": SeatClock(bank_ms=60_000, since_ms=T0)})
    assert timeout_due(state) == (T0 + 61_000, "p1")      # 60 s + 1 s of grace; p1 first on a tie


def test_a_command_batch_closes_with_its_accept_time_and_the_clocks_it_leaves():
    state, _ = opened()
    state, batch = decide_batch(DUEL, state, "p1", KEEP, at_ms=T0 + 5_000)
    assert topics(batch) == ["engine.ChoiceLocked", "engine.Clocked"]
    # p1 paid 5 s and got 2 s: 57 s; p2 still chooses, on its clock since T0
    assert batch[-1].event == Clocked(at_ms=T0 + 5_000, seats={
        "p1": SeatClock(bank_ms=57_000, since_ms=None, moved=True), "p2": SeatClock(bank_ms=60_000, since_ms=T0)})


def test_a_clocked_battle_needs_the_accept_time():
    state, _ = opened()
    with pytest.raises(ValueError, match="needs the time"):
        decide_batch(DUEL, state, "p1", KEEP)
    with pytest.raises(ValueError, match="needs the time"):
        open_battle(DUEL, battle_id="00000000-0000-4000-8000-000000000036", setup=DUEL.fresh_setup(),
                    players={"p1": "ann", "p2": "bob"}, revealed=b"x", created_at="2026-01-01T00:00:00.000Z",
                    clock=SPEC)


def test_a_command_one_ms_before_expiry_is_accepted():
    state = mulliganed()
    after, batch = decide_batch(DUEL, state, "p1", PASS, at_ms=T0 + 67_999)
    # 57 s - (67.999 - 10) s < 0 -> 0, + 2 s of increment
    assert batch[-1].event.seats["p1"] == SeatClock(bank_ms=2_000, since_ms=None, moved=True)
    assert after.clock.seats["p2"] == SeatClock(bank_ms=52_000, since_ms=T0 + 67_999, moved=True)


def test_a_command_at_deadline_plus_grace_is_refused_and_nothing_changes():
    state = mulliganed()
    before = msgspec.json.encode(state)
    with pytest.raises(TimeOut) as err:
        decide_batch(DUEL, state, "p1", PASS, at_ms=T0 + 68_000)
    assert err.value.code == "time_out"
    assert err.value.details == {"seat": "p1", "deadline_ms": T0 + 67_000}
    assert str(T0 + 67_000) in err.value.message and "1000 ms of grace" in err.value.message
    assert msgspec.json.encode(state) == before
    with pytest.raises(TimeOut):
        decide_batch(DUEL, state, "p1", PASS, at_ms=T0 + 10 ** 9)


def test_a_refused_command_appends_nothing_to_the_stored_battle(tmp_path):
    now = [T0]
    with Battles(f"sqlite:///{tmp_path / 'clock.db'}", now_ms=lambda: now[0]) as battles:
        made = battles.create("deckduel", {"p1": "ann", "p2": "bob"}, clock={"bank_ms": 60_000})
        now[0] = T0 + 61_000                 # p2's 60 s + 1 s of grace have passed
        stored = battles.records(made.battle_id)
        with pytest.raises(TimeOut):
            battles.submit(made.battle_id, "p2", KEEP)
        assert battles.records(made.battle_id) == stored
        now[0] = T0 + 60_999                 # p1, 1 ms before the same expiry, is still accepted
        assert battles.submit(made.battle_id, "p1", KEEP).seq == len(stored) + 2


def test_time_never_goes_back_within_a_battle():
    state = mulliganed()           # last recorded time T0+10 s
    with pytest.raises(RuleViolation, match="before the battle's last recorded time") as err:
        decide_batch(DUEL, state, "p1", PASS, at_ms=T0 + 9_999)
    assert not isinstance(err.value, TimeOut)
    with pytest.raises(RuleViolation, match="before the battle's last recorded time"):
        decide_timeout(DUEL, state, "p1", T0 + 9_999)
    with pytest.raises(RuleViolation, match="before the battle's last recorded time"):
        credit_outage(DUEL, state, T0 + 9_000, T0 + 9_500, "restart")


# -- decide_timeout -----------------------------------------------------------------------------------

def test_a_timeout_before_deadline_plus_grace_is_refused_and_one_at_it_accepted():
    state = mulliganed()
    with pytest.raises(RuleViolation, match="early"):
        decide_timeout(DUEL, state, "p1", T0 + 67_999)
    with pytest.raises(RuleViolation, match="early"):
        decide_timeout(DUEL, state, "p1", T0 + 67_000)        # the deadline itself is within grace
    _, batch = decide_timeout(DUEL, state, "p1", T0 + 68_000)
    assert batch[0].event == TimedOut(seat="p1", at_ms=T0 + 68_000, consequence="forfeit")


def test_only_a_running_clock_times_out():
    state = mulliganed()
    for seat in ("p2", "p9"):                 # p2 waits on p1; p9 is no seat
        with pytest.raises(RuleViolation, match="not running"):
            decide_timeout(DUEL, state, seat, T0 + 10 ** 9)
    unclocked, _ = opened(None)
    with pytest.raises(RuleViolation, match="no clock"):
        decide_timeout(DUEL, unclocked, "p1", T0 + 10 ** 9)
    assert timeout_due(unclocked) is None


def test_forfeit_names_the_other_side_and_ends_the_battle():
    state = mulliganed()
    after, batch = decide_timeout(DUEL, state, "p1", T0 + 68_000)
    assert topics(batch) == ["engine.TimedOut", "engine.BattleEnded"]
    assert batch[1].event == BattleEnded(winner="p2", reason=TIME_FORFEIT, seed=state.created.seed)
    assert TIME_FORFEIT == "timeout"
    assert (after.outcome.winner, after.outcome.reason) == ("p2", "timeout")
    assert after.clock.at_ms == T0 + 68_000 and timeout_due(after) is None
    with pytest.raises(BattleOver):
        decide_timeout(DUEL, after, "p1", T0 + 10 ** 9)


def test_no_first_move_aborts_unrated_outside_a_set():
    # first_move_ms 30 s: p1 never keeps its hand; p2 does at T0+5 s; p1 times out at
    # T0 + 30 s + 1 s of grace, and nobody wins
    spec = ClockSpec(bank_ms=60_000, grace_ms=1_000, first_move_ms=30_000)
    state, _ = opened(spec)
    state, _ = decide_batch(DUEL, state, "p2", KEEP, at_ms=T0 + 5_000)
    assert timeout_due(state) == (T0 + 31_000, "p1")
    after, batch = decide_timeout(DUEL, state, "p1", T0 + 31_000)
    assert [r.event for r in batch] == [
        TimedOut(seat="p1", at_ms=T0 + 31_000, consequence="abort"),
        BattleEnded(winner=None, reason="aborted_no_first_move", seed=state.created.seed)]
    assert ABORTED == "aborted_no_first_move" and after.outcome.winner is None


def test_in_a_set_no_first_move_loses_instead():
    spec = ClockSpec(bank_ms=60_000, grace_ms=1_000, first_move_ms=30_000)
    state, records = opened(spec, first_move_loses=True)
    assert records[-1].event.first_move_loses is True
    state, _ = decide_batch(DUEL, state, "p2", KEEP, at_ms=T0 + 5_000)
    _, batch = decide_timeout(DUEL, state, "p1", T0 + 31_000)
    assert batch[0].event.consequence == "forfeit"
    assert batch[1].event == BattleEnded(winner="p2", reason=NO_FIRST_MOVE, seed=state.created.seed)


def test_auto_plays_the_default_command_then_closes_with_the_clocks():
    spec = ClockSpec(bank_ms=60_000, increment_ms=2_000, grace_ms=1_000, on_timeout="auto")
    state = mulliganed(spec)
    after, batch = decide_timeout(DUEL, state, "p1", T0 + 68_000)
    assert topics(batch) == ["engine.TimedOut", "deckduel.Passed", "engine.Clocked"]
    assert batch[0].event == TimedOut(seat="p1", at_ms=T0 + 68_000, consequence="auto")
    assert DUEL.codec.wire(DUEL.default_command(state.game, "p1")) == PASS
    assert batch[1].event.command_wire() == PASS and batch[1].event.acting_seat() == "p1"
    # p1: max(0, 57 - 58) + 2 = 2 s, one automatic move in a row; p2's turn starts at T0+68 s
    assert batch[2].event == Clocked(at_ms=T0 + 68_000, seats={
        "p1": SeatClock(bank_ms=2_000, since_ms=None, moved=True, auto=1),
        "p2": SeatClock(bank_ms=52_000, since_ms=T0 + 68_000, moved=True, auto=0)})
    assert after.outcome is None and DUEL.awaiting(after.game) == {"p2"}
    # the same, decided by a plain command at that time, would have been refused
    with pytest.raises(TimeOut):
        decide_batch(DUEL, state, "p1", PASS, at_ms=T0 + 68_000)


def test_a_side_of_several_seats_is_played_for_until_all_reached_max_auto():
    """battleboard, heroes h1 and h2 against the foes' gm, on `forfeit` with max_auto 1: a hero
    seat's timeout is an automatic move while the other hero has none in a row; once both have
    had one, the next hero timeout loses the battle for the heroes."""
    board = get_ruleset("battleboard")
    spec = ClockSpec(bank_ms=60_000, grace_ms=1_000, max_auto=1)
    state, _ = open_battle(board, battle_id="00000000-0000-4000-8000-000000000037", setup=board.fresh_setup(),
                           players={"h1": "ann", "h2": "bob", "gm": "cat"}, revealed=seeded_bytes("side", 1),
                           created_at="2026-01-01T00:00:00.000Z", clock=spec, clock_at_ms=T0)
    seen, t = [], T0
    while state.outcome is None and len(seen) < 40:
        awaited = sorted(board.awaiting(state.game))
        if awaited == ["gm"] or not all(state.clock.seats[s].moved for s in awaited):
            t = state.clock.at_ms + 1_000          # the gm, and every first move, answer at once
            seat = awaited[0]
            state, _ = decide_batch(board, state, seat, board.codec.wire(board.default_command(state.game, seat)),
                                    at_ms=t)
            continue
        at, seat = timeout_due(state)
        state, batch = decide_timeout(board, state, seat, at)
        seen.append((seat, batch[0].event.consequence))
    # h2 placed a second after h1 (57 s left to 58 s), so it runs out first: auto (h2 1 in a
    # row, h1 0); then h1: auto (both 1); then h1 again: every hero seat has had max_auto, so
    # the side loses
    assert seen == [("h2", "auto"), ("h1", "auto"), ("h1", "forfeit")]
    assert (state.outcome.winner, state.outcome.reason) == ("foes", "timeout")


# -- credit_outage --------------------------------------------------------------------------------------

def test_an_outage_credit_is_a_batch_of_its_own_that_moves_running_clocks():
    state = mulliganed()           # last recorded T0+10 s; p1 runs since T0+10 s, due T0+67 s
    after, batch = credit_outage(DUEL, state, T0 + 20_000, T0 + 50_000, "restart")
    # 50 - 20 = 30 s credited: p1 runs since T0+40 s, so it is now refused only from T0+98 s
    assert [r.event for r in batch] == [ClockCredited(
        since_ms=T0 + 20_000, at_ms=T0 + 50_000, credit_ms=30_000, reason="restart",
        seats={"p1": SeatClock(bank_ms=57_000, since_ms=T0 + 40_000, moved=True),
               "p2": SeatClock(bank_ms=52_000, since_ms=None, moved=True)})]
    assert batch[0].seq == state.seq + 1 and after.game == state.game
    assert after.clock.at_ms == T0 + 50_000 and timeout_due(after) == (T0 + 98_000, "p1")
    with pytest.raises(RuleViolation, match="early"):
        decide_timeout(DUEL, after, "p1", T0 + 97_999)


def test_an_outage_must_lie_between_the_last_recorded_time_and_now():
    state = mulliganed()           # last recorded T0+10 s
    with pytest.raises(RuleViolation, match="must lie after the last recorded time"):
        credit_outage(DUEL, state, T0 + 9_999, T0 + 20_000, "restart")       # longer than the gap
    with pytest.raises(RuleViolation, match="must lie after the last recorded time"):
        credit_outage(DUEL, state, T0 + 20_001, T0 + 20_000, "restart")      # ends before it starts
    _, whole = credit_outage(DUEL, state, T0 + 10_000, T0 + 20_000, "restart")   # the whole gap: 10 s
    assert whole[0].event.credit_ms == 10_000


# -- no clock: nothing changes ----------------------------------------------------------------------------

def test_an_unclocked_battle_records_no_clock_event_byte_for_byte():
    """The same battle created and played without any clock argument, and with clock=None and
    accept times given: the very same records, chains included, and no clock event."""
    plain, plain_records = open_battle(DUEL, battle_id="00000000-0000-4000-8000-000000000036",
                                       setup=DUEL.fresh_setup(), players={"p1": "ann", "p2": "bob"},
                                       revealed=seeded_bytes("timeouts", 2), created_at="2026-01-01T00:00:00.000Z")
    given, given_records = opened(None, clock=None, clock_at_ms=T0, first_move_loses=True)
    t = T0
    for _ in range(12):
        if plain.outcome is not None:
            break
        seat = sorted(DUEL.awaiting(plain.game))[0]
        command = DUEL.codec.wire(DUEL.legal_commands(plain.game, seat)[0])
        plain, batch = decide_batch(DUEL, plain, seat, command)
        plain_records += batch
        t += 10 ** 9                      # any time at all: an unclocked battle ignores it
        given, batch = decide_batch(DUEL, given, seat, command, at_ms=t)
        given_records += batch
    assert len(plain_records) > 20 and given.clock is None
    assert [(r.seq, r.event, r.chain) for r in given_records] == [(r.seq, r.event, r.chain) for r in plain_records]
    assert not [r for r in given_records if isinstance(r.event, CLOCK_EVENTS)]


# -- one seat's expired clock holds every command until its timeout --------------------------------

def test_a_command_while_another_seat_has_run_out_is_refused_until_that_timeout():
    # Given both seats choosing their mulligan since T0, p1 with 120 s and p2 with 60 s:
    # p2 expires at T0 + 61 s (60 s + 1 s of grace), p1 at T0 + 121 s
    state, _ = opened()
    seats = {"p1": SeatClock(bank_ms=120_000, since_ms=T0), "p2": SeatClock(bank_ms=60_000, since_ms=T0)}
    state = msgspec.structs.replace(state, clock=msgspec.structs.replace(state.clock, seats=seats))
    # When p1, well within its own time, keeps at T0 + 61 s
    with pytest.raises(TimeOut) as held:
        decide_batch(DUEL, state, "p1", KEEP, at_ms=T0 + 61_000)
    # Then it is refused naming p2, whose timeout must come first; a ms earlier it is accepted
    assert held.value.details == {"seat": "p2", "deadline_ms": T0 + 60_000}
    after, _ = decide_batch(DUEL, state, "p1", KEEP, at_ms=T0 + 60_999)
    assert after.clock.seats["p1"].since_ms is None


def test_a_default_command_the_rules_refuse_forfeits_rather_than_holding_the_battle():
    # Given rules whose default command is never legal, and a clock that plays on with `auto`
    def refused(game, seat):
        return DUEL.codec.parse({"type": "mulligan", "cards": ["no-such-card"]})
    rules = dataclasses.replace(DUEL, default_command=refused)
    state, _ = opened(ClockSpec(bank_ms=60_000, grace_ms=1_000, on_timeout="auto"))
    # When p1's time runs out (60 s + 1 s of grace)
    state, batch = decide_timeout(rules, state, "p1", T0 + 61_000)
    # Then the timeout forfeits: p2 wins on time
    assert batch[0].event == TimedOut(seat="p1", at_ms=T0 + 61_000, consequence="forfeit")
    assert state.outcome.winner == "p2" and state.outcome.reason == TIME_FORFEIT
