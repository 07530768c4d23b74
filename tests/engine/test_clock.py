"""The clock's rules as pure arithmetic (domain/engine/clock.py): time controls from JSON, whose
time runs and when it runs out, and what a timeout makes.

Issue 36, "Time controls per battle": a bank per seat, an increment after each of the seat's
turns (Fischer), a turn maximum, grace for a command in flight, a first-move limit, and on
timeout a forfeit or the rules' automatic move, `max_auto` of them in a row at most.
"""
from __future__ import annotations

import pytest

from domain.engine.clock import (DAY, MAX_MS, MINUTE, PRESETS, SECOND, ClockSpec, Due, SeatClock, advance,
                                 consequence, credited, due, expiry, next_expiry, parse_clock, remaining,
                                 starting_seats)
from domain.engine.errors import InvalidInput

T0 = 1_767_225_600_000          # 2026-01-01T00:00:00Z, in ms since the epoch
SPEC = ClockSpec(bank_ms=60_000, increment_ms=2_000, grace_ms=1_000)
FIRST = ClockSpec(bank_ms=60_000, increment_ms=2_000, grace_ms=1_000, first_move_ms=30_000)


def running(bank: int | None, since: int, *, moved: bool = True, auto: int = 0) -> SeatClock:
    return SeatClock(bank_ms=bank, since_ms=since, moved=moved, auto=auto)


def stopped(bank: int | None, *, moved: bool = True, auto: int = 0) -> SeatClock:
    return SeatClock(bank_ms=bank, since_ms=None, moved=moved, auto=auto)


# -- parse_clock: presets ----------------------------------------------------------------------

def test_no_clock_is_none():
    assert parse_clock(None) is None


def test_the_presets_are_the_issues_time_controls():
    # blitz 3 min + 2 s; rapid 10 min + 5 s; bank (Showdown's ladder): 150 s, +10 s a turn,
    # 150 s a turn at most; correspondence: no bank, a day a turn (and a minute of grace).
    assert parse_clock("blitz") == ClockSpec(bank_ms=180_000, increment_ms=2_000, turn_max_ms=None,
                                             grace_ms=1_000, first_move_ms=30_000, on_timeout="forfeit",
                                             max_auto=3)
    assert parse_clock("rapid") == ClockSpec(bank_ms=600_000, increment_ms=5_000, grace_ms=1_000,
                                             first_move_ms=60_000)
    assert parse_clock("bank") == ClockSpec(bank_ms=150_000, increment_ms=10_000, turn_max_ms=150_000,
                                            grace_ms=1_000, first_move_ms=60_000)
    assert parse_clock("correspondence") == ClockSpec(bank_ms=None, increment_ms=0, turn_max_ms=86_400_000,
                                                      grace_ms=60_000, first_move_ms=86_400_000)
    assert set(PRESETS) == {"blitz", "rapid", "bank", "correspondence"}
    assert (MINUTE, DAY) == (60 * SECOND, 24 * 60 * MINUTE)


def test_fields_override_the_preset_they_start_from():
    got = parse_clock({"preset": "blitz", "increment_ms": 0, "on_timeout": "auto", "max_auto": 5})
    assert got == ClockSpec(bank_ms=180_000, increment_ms=0, first_move_ms=30_000, on_timeout="auto", max_auto=5)
    # a preset's first-move limit may be lifted with null
    assert parse_clock({"preset": "rapid", "first_move_ms": None}).first_move_ms is None
    # and a bank-less preset may be given a bank
    assert parse_clock({"preset": "correspondence", "bank_ms": 1}).bank_ms == 1
    assert PRESETS["blitz"].increment_ms == 2_000, "the preset itself is untouched"


def test_fields_alone_take_the_defaults():
    # defaults: no increment, no turn maximum, 1 s of grace, no first-move limit, forfeit, 3 autos
    assert parse_clock({"bank_ms": 60_000}) == ClockSpec(
        bank_ms=60_000, increment_ms=0, turn_max_ms=None, grace_ms=1_000, first_move_ms=None,
        on_timeout="forfeit", max_auto=3)
    assert parse_clock({"bank_ms": None, "turn_max_ms": 5_000}) == ClockSpec(bank_ms=None, turn_max_ms=5_000)


@pytest.mark.parametrize("raw,field", [
    (5, "clock"), ([], "clock"), (True, "clock"), ("bullet", "clock"), ("", "clock"),
    ({"preset": "bullet"}, "clock.preset"), ({"preset": 3}, "clock.preset"),
    ({"preset": None}, "clock.preset"),
])
def test_a_clock_that_is_no_preset_and_no_object_is_refused(raw, field):
    with pytest.raises(InvalidInput) as err:
        parse_clock(raw)
    assert err.value.field == field
    assert "blitz, rapid, bank, correspondence" in err.value.message


def test_lone_surrogates_as_preset_names_give_a_clean_error():
    for raw, field in (("\ud800", "clock"), ({"preset": "bl\udfffitz"}, "clock.preset"),
                       ({"bank_ms": 1, "\udc80x": 1}, "clock.\\udc80x")):
        with pytest.raises(InvalidInput) as err:
            parse_clock(raw)
        assert err.value.field == field
        err.value.message.encode("utf-8")           # no lone surrogate reaches the message
        err.value.field.encode("utf-8")


# -- parse_clock: every bad field names clock.<field> -------------------------------------------

BAD_VALUES = {
    # the three that may be null start at 1 ms; increment and grace may be 0
    "bank_ms": (0, -1, True, False, 1.5, 60_000.0, "60000", [], {}, MAX_MS + 1, 10 ** 30),
    "increment_ms": (-1, None, True, 2.0, "2000", MAX_MS + 1),
    "turn_max_ms": (0, -5, True, 1.0, MAX_MS + 1),
    "grace_ms": (-1, None, False, 0.5, MAX_MS + 1),
    "first_move_ms": (0, True, 3e4, MAX_MS + 1),
    "max_auto": (0, 101, -1, None, True, 3.0, "3"),
    "on_timeout": ("draw", "FORFEIT", None, 1, True, [], {}),
}


@pytest.mark.parametrize("name,value", [(n, v) for n, values in BAD_VALUES.items() for v in values])
def test_every_bad_field_is_refused_naming_it(name, value):
    raw = {"bank_ms": 60_000, name: value}
    with pytest.raises(InvalidInput) as err:
        parse_clock(raw)
    assert err.value.field == f"clock.{name}"
    assert err.value.code == "invalid"
    assert err.value.message.startswith(f"clock.{name}: ")


@pytest.mark.parametrize("name,value", [
    ("bank_ms", 1), ("bank_ms", MAX_MS), ("increment_ms", 0), ("increment_ms", MAX_MS), ("turn_max_ms", 1),
    ("grace_ms", 0), ("first_move_ms", MAX_MS), ("max_auto", 1), ("max_auto", 100), ("on_timeout", "auto"),
])
def test_the_ends_of_every_range_are_accepted(name, value):
    assert getattr(parse_clock({"bank_ms": 60_000, name: value}), name) == value


def test_integers_past_10_to_the_12_are_refused_in_every_time_field():
    for name in ("bank_ms", "increment_ms", "turn_max_ms", "grace_ms", "first_move_ms"):
        assert getattr(parse_clock({"bank_ms": 1, "turn_max_ms": 1, name: 10 ** 12}), name) == 10 ** 12
        with pytest.raises(InvalidInput) as err:
            parse_clock({"bank_ms": 1, name: 10 ** 12 + 1})
        assert err.value.field == f"clock.{name}"
        assert "from" in err.value.message and "1000000000000" in err.value.message


def test_unknown_fields_are_named_and_clipped():
    with pytest.raises(InvalidInput) as err:
        parse_clock({"bank_ms": 1, "bonus_ms": 5})
    assert err.value.field == "clock.bonus_ms"
    with pytest.raises(InvalidInput) as err:
        parse_clock({"bank_ms": 1, "x" * 5000: 5})
    assert err.value.field == "clock." + "x" * 40       # the name cut to 40 characters


def test_a_clock_needs_a_bank_or_null_for_none():
    for raw in ({}, {"increment_ms": 5}, {"turn_max_ms": 5_000}):
        with pytest.raises(InvalidInput) as err:
            parse_clock(raw)
        assert err.value.field == "clock.bank_ms"


def test_a_bankless_clock_needs_a_turn_maximum():
    for raw in ({"bank_ms": None}, {"preset": "correspondence", "turn_max_ms": None},
                {"bank_ms": None, "increment_ms": 5_000}):
        with pytest.raises(InvalidInput) as err:
            parse_clock(raw)
        assert err.value.field == "clock.turn_max_ms"


# -- starting, due, expiry, remaining ---------------------------------------------------------

def test_the_awaited_seats_start_running_at_creation():
    assert starting_seats(SPEC, ("p1", "p2"), frozenset({"p2"}), T0) == {
        "p1": SeatClock(bank_ms=60_000, since_ms=None, moved=False, auto=0),
        "p2": SeatClock(bank_ms=60_000, since_ms=T0, moved=False, auto=0)}


def test_a_stopped_clock_has_no_deadline_and_keeps_its_bank():
    assert due(SPEC, stopped(42_000)) is None and expiry(SPEC, stopped(42_000)) is None
    assert remaining(SPEC, stopped(42_000), T0) == 42_000
    # no bank: a whole turn maximum is left (correspondence: a day)
    assert remaining(PRESETS["correspondence"], stopped(None), T0) == 86_400_000


def test_the_deadline_is_the_bank_running_out_and_grace_follows_it():
    # given 50 s of bank running since T0+10 s: due at T0 + 10 s + 50 s = T0+60 s; refused from
    # T0+60 s + 1 s of grace = T0+61 s
    clock = running(50_000, T0 + 10_000)
    assert due(SPEC, clock) == Due(T0 + 60_000, "time")
    assert expiry(SPEC, clock) == T0 + 61_000
    # at T0+25 s: 60 s - 25 s = 35 s left; past the deadline nothing is left, never less
    assert remaining(SPEC, clock, T0 + 25_000) == 35_000
    assert remaining(SPEC, clock, T0 + 60_500) == 0


def test_the_turn_maximum_caps_a_large_bank():
    # bank 150 s, turn max 150 s, since T0: due at the earlier of T0+150 s and T0+150 s; with 400 s of
    # bank the turn maximum still ends the turn at T0+150 s
    bank = PRESETS["bank"]
    assert due(bank, running(150_000, T0)) == Due(T0 + 150_000, "time")
    assert due(bank, running(400_000, T0)) == Due(T0 + 150_000, "time")
    assert due(bank, running(20_000, T0)) == Due(T0 + 20_000, "time")


def test_with_no_bank_only_the_turn_maximum_counts():
    # correspondence: a day a turn, a minute of grace: expiry T0 + 86,400,000 + 60,000
    corr = PRESETS["correspondence"]
    assert due(corr, running(None, T0)) == Due(T0 + 86_400_000, "time")
    assert expiry(corr, running(None, T0)) == T0 + 86_460_000
    assert remaining(corr, running(None, T0), T0 + 400_000) == 86_000_000


def test_before_its_first_move_a_seat_has_the_first_move_limit_instead():
    # first_move_ms 30 s: due at T0+30 s however large the bank; once moved, the bank counts
    assert due(FIRST, running(60_000, T0, moved=False)) == Due(T0 + 30_000, "first_move")
    assert expiry(FIRST, running(60_000, T0, moved=False)) == T0 + 31_000
    assert remaining(FIRST, running(60_000, T0, moved=False), T0 + 12_000) == 18_000
    assert due(FIRST, running(60_000, T0, moved=True)) == Due(T0 + 60_000, "time")
    # with no first-move limit a seat that never moved runs on its bank
    assert due(SPEC, running(60_000, T0, moved=False)) == Due(T0 + 60_000, "time")


def test_next_expiry_is_the_earliest_running_seat():
    seats = {"p1": running(30_000, T0), "p2": running(20_000, T0 + 5_000), "p3": stopped(1)}
    # p1: T0+30 s+1 s = T0+31 s; p2: T0+5 s+20 s+1 s = T0+26 s; p3 stopped
    assert next_expiry(SPEC, seats) == (T0 + 26_000, "p2")
    # a tie goes to the first seat by name
    assert next_expiry(SPEC, {"p2": running(1_000, T0), "p1": running(1_000, T0)}) == (T0 + 2_000, "p1")
    assert next_expiry(SPEC, {"p1": stopped(5), "p2": stopped(5)}) is None


# -- advance: whose turn ends, what it costs -----------------------------------------------------

def test_a_turn_ends_when_the_seat_stops_being_awaited():
    # given p1 running since T0+1 s with 60 s, p2 stopped with 60 s; when p1 moves at T0+11 s and
    # leaves p2 awaited: p1 pays 11 s - 1 s = 10 s and gets the 2 s increment: 60 - 10 + 2 = 52 s;
    # p2's turn starts then
    seats = {"p1": running(60_000, T0 + 1_000), "p2": stopped(60_000)}
    after = advance(SPEC, seats, T0 + 11_000, actor="p1", awaited=frozenset({"p2"}), new_turn=False, ended=False)
    assert after == {"p1": SeatClock(bank_ms=52_000, since_ms=None, moved=True, auto=0),
                     "p2": SeatClock(bank_ms=60_000, since_ms=T0 + 11_000, moved=True, auto=0)}


def test_a_seat_still_awaited_in_the_same_turn_keeps_running_and_pays_at_the_end():
    # given p1 running since T0 with 60 s; when it moves at T0+4 s and is still awaited in the
    # same declared turn, nothing is charged yet and the clock runs on from T0
    seats = {"p1": running(60_000, T0), "p2": stopped(60_000)}
    mid = advance(SPEC, seats, T0 + 4_000, actor="p1", awaited=frozenset({"p1"}), new_turn=False, ended=False)
    assert mid["p1"] == running(60_000, T0) and mid["p2"] == stopped(60_000)
    # then at T0+9 s its turn ends: the whole turn, 9 s, comes off once: 60 - 9 + 2 = 53 s
    end = advance(SPEC, mid, T0 + 9_000, actor="p1", awaited=frozenset({"p2"}), new_turn=False, ended=False)
    assert end["p1"] == stopped(53_000) and end["p2"] == running(60_000, T0 + 9_000)


def test_a_new_declared_turn_ends_the_turn_of_a_seat_still_awaited():
    # given p1 running since T0 with 60 s; when at T0+5 s the declared turn changes and p1 is
    # awaited again: 60 - 5 + 2 = 57 s, and a new turn runs from T0+5 s
    seats = {"p1": running(60_000, T0), "p2": stopped(60_000)}
    after = advance(SPEC, seats, T0 + 5_000, actor="p1", awaited=frozenset({"p1"}), new_turn=True, ended=False)
    assert after["p1"] == running(57_000, T0 + 5_000)


def test_a_seat_waiting_on_another_runs_on_untouched():
    # simultaneous choices: both run since T0; p1 chooses at T0+7 s, p2 is still awaited:
    # p1 pays 7 s (60 - 7 + 2 = 55 s), p2 keeps running from T0 with its whole bank
    seats = {"p1": running(60_000, T0), "p2": running(60_000, T0)}
    after = advance(SPEC, seats, T0 + 7_000, actor="p1", awaited=frozenset({"p2"}), new_turn=False, ended=False)
    assert after == {"p1": stopped(55_000), "p2": running(60_000, T0)}


def test_no_increment_when_the_battle_ends_and_every_clock_stops():
    # p1 ends the battle at T0+10 s: 60 - 10 = 50 s, no increment; p2's running clock pays too
    # (60 - (10 - 4) = 54 s) and stops
    seats = {"p1": running(60_000, T0), "p2": running(60_000, T0 + 4_000)}
    after = advance(SPEC, seats, T0 + 10_000, actor="p1", awaited=frozenset(), new_turn=False, ended=True)
    assert after == {"p1": stopped(50_000), "p2": stopped(54_000)}


def test_the_bank_never_goes_below_zero():
    # 5 s of bank since T0, a command accepted within grace at T0+5.5 s: max(0, 5 - 5.5) + 2 = 2 s
    seats = {"p1": running(5_000, T0), "p2": stopped(60_000)}
    after = advance(SPEC, seats, T0 + 5_500, actor="p1", awaited=frozenset({"p2"}), new_turn=False, ended=False)
    assert after["p1"] == stopped(2_000)
    # with no increment it stays at 0, never -500
    bare = ClockSpec(bank_ms=5_000)
    assert advance(bare, seats, T0 + 5_500, actor="p1", awaited=frozenset({"p2"}), new_turn=False,
                   ended=False)["p1"] == stopped(0)


def test_without_a_bank_a_turn_costs_nothing_and_restarts_the_turn_maximum():
    corr = PRESETS["correspondence"]
    seats = {"p1": running(None, T0), "p2": stopped(None)}
    after = advance(corr, seats, T0 + 3_600_000, actor="p1", awaited=frozenset({"p2"}), new_turn=False, ended=False)
    assert after == {"p1": stopped(None), "p2": running(None, T0 + 3_600_000)}


def test_the_wait_before_a_first_move_is_free_when_there_is_a_first_move_limit():
    # first_move_ms set: p1 waited 25 s for its first move; its bank stays 60 s (no charge, no
    # increment) and it has moved; still awaited, its bank starts running from the move
    seats = {"p1": running(60_000, T0, moved=False), "p2": stopped(60_000, moved=False)}
    after = advance(FIRST, seats, T0 + 25_000, actor="p1", awaited=frozenset({"p2"}), new_turn=False, ended=False)
    assert after["p1"] == stopped(60_000, moved=True)
    assert after["p2"] == running(60_000, T0 + 25_000, moved=False)
    again = advance(FIRST, seats, T0 + 25_000, actor="p1", awaited=frozenset({"p1"}), new_turn=False, ended=False)
    assert again["p1"] == running(60_000, T0 + 25_000, moved=True)
    # with no first-move limit the same wait is paid: 60 - 25 + 2 = 37 s
    paid = advance(SPEC, seats, T0 + 25_000, actor="p1", awaited=frozenset({"p2"}), new_turn=False, ended=False)
    assert paid["p1"] == stopped(37_000, moved=True)


def test_an_automatic_move_ends_the_turn_and_counts_the_streak():
    # p1 (3 s of bank since T0) timed out at its expiry T0 + 3 s + 1 s = T0+4 s; the rules move for
    # it: max(0, 3 - 4) + 2 = 2 s; its streak goes 1 -> 2; it has still not moved by itself
    seats = {"p1": running(3_000, T0, moved=False, auto=1), "p2": stopped(60_000, auto=2)}
    after = advance(SPEC, seats, T0 + 4_000, actor="p1", awaited=frozenset({"p2"}), new_turn=False,
                    ended=False, automatic=True)
    assert after == {"p1": stopped(2_000, moved=False, auto=2), "p2": running(60_000, T0 + 4_000, auto=2)}
    # still awaited after the automatic move (its part of a turn): a fresh turn from T0+4 s
    again = advance(SPEC, seats, T0 + 4_000, actor="p1", awaited=frozenset({"p1", "p2"}), new_turn=False,
                    ended=False, automatic=True)
    assert again["p1"] == running(2_000, T0 + 4_000, moved=False, auto=2)


def test_a_move_of_the_seats_own_ends_its_streak_and_only_its_own():
    seats = {"p1": running(60_000, T0, auto=2), "p2": stopped(60_000, auto=1)}
    after = advance(SPEC, seats, T0 + 1_000, actor="p1", awaited=frozenset({"p2"}), new_turn=False, ended=False)
    assert (after["p1"].auto, after["p2"].auto) == (0, 1)


def test_a_first_move_limit_does_not_make_an_automatic_move_free():
    # the first-move exemption is for the seat's own first move only: an automatic move of a seat
    # that has moved pays as usual: 10 - 11 -> 0, + 2 = 2 s
    seats = {"p1": running(10_000, T0, moved=True), "p2": stopped(60_000)}
    after = advance(FIRST, seats, T0 + 11_000, actor="p1", awaited=frozenset({"p2"}), new_turn=False,
                    ended=False, automatic=True)
    assert after["p1"] == stopped(2_000, moved=True, auto=1)


# -- credited ----------------------------------------------------------------------------------

def test_an_outage_credit_starts_every_running_clock_that_much_later():
    # 45 s of outage: p1 running since T0 now runs since T0+45 s; p2 stopped is untouched; banks stay
    seats = {"p1": running(60_000, T0, moved=False), "p2": stopped(30_000)}
    assert credited(seats, 45_000) == {"p1": running(60_000, T0 + 45_000, moved=False), "p2": stopped(30_000)}
    # and so its deadline moves by the same 45 s: T0 + 60 s + 45 s
    assert due(SPEC, credited(seats, 45_000)["p1"]) == Due(T0 + 105_000, "time")
    assert credited(seats, 0) == seats


# -- consequence ---------------------------------------------------------------------------------

AUTO = ClockSpec(bank_ms=60_000, on_timeout="auto", max_auto=3)


def test_no_first_move_aborts_the_battle_or_loses_it_in_a_set():
    seats = {"p1": running(60_000, T0, moved=False), "p2": stopped(60_000)}
    for spec in (FIRST, AUTO):
        assert consequence(spec, seats, "p1", ("p1",), "first_move", False, True) == "abort"
        assert consequence(spec, seats, "p1", ("p1",), "first_move", True, True) == "forfeit"
    # a side of several seats too: a seat that never moved aborts rather than being played for
    assert consequence(FIRST, seats, "p1", ("p1", "p2"), "first_move", False, True) == "abort"


def test_forfeit_is_the_consequence_for_a_seat_alone_on_its_side():
    seats = {"p1": running(60_000, T0), "p2": stopped(60_000)}
    assert consequence(SPEC, seats, "p1", ("p1",), "time", False, True) == "forfeit"


def test_auto_up_to_max_auto_in_a_row_then_forfeit():
    # max_auto 3: with 0, 1, 2 automatic moves in a row the rules move again; after the third, forfeit
    for streak, expected in ((0, "auto"), (1, "auto"), (2, "auto"), (3, "forfeit"), (7, "forfeit")):
        seats = {"p1": running(60_000, T0, auto=streak), "p2": stopped(60_000)}
        assert consequence(AUTO, seats, "p1", ("p1",), "time", False, True) == expected, streak


def test_rules_with_no_default_command_forfeit():
    seats = {"h1": running(60_000, T0), "h2": stopped(60_000)}
    assert consequence(AUTO, seats, "h1", ("h1",), "time", False, False) == "forfeit"
    assert consequence(SPEC, seats, "h1", ("h1", "h2"), "time", False, False) == "forfeit"


def test_a_side_of_several_seats_gets_auto_until_every_seat_reached_max_auto():
    # even under `forfeit`, a seat of a side of several is played for; the side loses on time
    # only once all its seats have had max_auto (3) automatic moves in a row
    side = ("h1", "h2", "h3")
    for streaks, expected in (((0, 0, 0), "auto"), ((3, 3, 0), "auto"), ((5, 2, 3), "auto"),
                              ((3, 3, 3), "forfeit"), ((4, 3, 9), "forfeit")):
        seats = {s: running(60_000, T0, auto=n) for s, n in zip(side, streaks)}
        seats["gm"] = stopped(60_000)
        for spec in (SPEC, AUTO):
            assert consequence(spec, seats, "h1", side, "time", False, True) == expected, (streaks, spec)
