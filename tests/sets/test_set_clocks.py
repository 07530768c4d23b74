"""A set's clock: every battle of the set runs it, a seat that never makes its first move loses
that battle (outside a set it would abort), a timeout loses the battle with `forfeit` and has
the rules play on with `auto`. The set records its clock in its own log (`SetCreated`'s public
setup), so its page, audit and simulation know it; a set without one plays as it always did.

Time is injected (`Battles(now_ms=...)`): no test waits for a deadline."""
from __future__ import annotations

import msgspec
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Settings, bootstrap
from domain.ai import get_policy
from domain.battles import Battles
from domain.engine.clock import PRESETS
from domain.engine.errors import InvalidInput, SetupError
from domain.engine.events import decode_event
from domain.engine.timeouts import NO_FIRST_MOVE, TIME_FORFEIT, timeout_due
from domain.engine.timing import TimedOut
from domain.sets import SetCreated, Sets, set_clock
from replays.audit import audit_set, same_clock
from tests.api.helpers import PLAYERS
from tests.clocktime import T0, Clock

BLITZ = msgspec.to_builtins(PRESETS["blitz"])


@pytest.fixture
def sets(sqlite_url, clock):
    with Battles(sqlite_url, now_ms=clock) as battles:
        yield Sets(battles)


def mulligans(sets: Sets, battle_id: str) -> None:
    """Both seats keep their hands: each has made its first move."""
    for seat in ("p1", "p2"):
        sets.battles.submit(battle_id, seat, {"type": "mulligan", "cards": []})


def time_out(sets: Sets, battle_id: str, clock: Clock) -> tuple[str, list]:
    """Move the clock to the first moment a timeout may be recorded, and record it as the
    server does: (the seat that timed out, the batch)."""
    state = sets.battles.load(battle_id)
    due = timeout_due(state)
    assert due is not None, "no clock is running"
    clock.ms = due[0]
    done = sets.battles.timeout_later(battle_id, due[1], state.seq).result()
    return due[1], [rec.event for rec in done.records]


def test_the_set_records_its_clock_and_every_battle_runs_it(sets, clock):
    # given a set created with the blitz preset
    made = sets.create("deckduel", PLAYERS, games=3, mode="all", clock="blitz")
    # then the set's own log records the clock's fields in its public setup
    created = sets.records(made.set_id)[0].event
    assert isinstance(created, SetCreated) and created.public_setup["clock"] == BLITZ
    assert set_clock(created) == PRESETS["blitz"]
    assert sets.get(made.set_id)["clock"] == BLITZ
    # and the first battle runs it from its creation, where a seat that never moves loses
    battle = sets.battles.load(made.battle_id)
    assert battle.clock is not None and battle.clock.spec == PRESETS["blitz"]
    assert battle.clock.first_move_loses and battle.clock.at_ms == T0
    # and the battle's setup (what the set's audit compares) holds no clock
    assert "clock" not in battle.created.setup


def test_a_seat_that_never_moves_loses_that_battle_and_the_next_runs_the_clock(sets, clock):
    # given a blitz set in which nobody makes a first move
    made = sets.create("deckduel", PLAYERS, games=3, mode="all", clock="blitz")
    # when the first-move limit and grace have passed: 30 s + 1 s after the start
    seat, batch = time_out(sets, made.battle_id, clock)
    assert clock.ms == T0 + 30_000 + 1_000
    # then p1 (first of the two tied seats) loses the battle instead of aborting it
    assert seat == "p1"
    assert batch[0] == TimedOut(seat="p1", at_ms=T0 + 31_000, consequence="forfeit")
    outcome = sets.battles.load(made.battle_id).outcome
    assert (outcome.winner, outcome.reason) == ("p2", NO_FIRST_MOVE)
    # and the set records p2's win and starts the next battle, clocked from that moment
    found = sets.get(made.set_id)
    assert [(b["index"], b["winner"]) for b in found["battles"][:1]] == [(0, "p2")]
    second = sets.battles.load(found["current_battle"])
    assert second.clock.spec == PRESETS["blitz"] and second.clock.at_ms == T0 + 31_000


def test_with_forfeit_a_timeout_loses_that_battle(sets, clock):
    # given a blitz set whose seats have both made their first move (the mulligan)
    made = sets.create("deckduel", PLAYERS, games=3, mode="all", clock="blitz")
    mulligans(sets, made.battle_id)
    # when the seat to move walks away: its 180 s bank and 1 s of grace run out
    seat, batch = time_out(sets, made.battle_id, clock)
    assert clock.ms == T0 + 180_000 + 1_000
    # then it loses that battle on time, and the set counts the other seat's win
    other = "p1" if seat == "p2" else "p2"
    assert batch[0].consequence == "forfeit"
    outcome = sets.battles.load(made.battle_id).outcome
    assert (outcome.winner, outcome.reason) == (other, TIME_FORFEIT)
    assert sets.get(made.set_id)["battles"][0]["winner"] == other


def test_with_auto_the_rules_play_on(sets, clock):
    # given a set whose clock plays the rules' default command on a timeout
    made = sets.create("deckduel", PLAYERS, games=3, mode="all", clock={"preset": "blitz", "on_timeout": "auto"})
    mulligans(sets, made.battle_id)
    # when the seat to move walks away
    seat, batch = time_out(sets, made.battle_id, clock)
    # then the rules move for it, and the same battle goes on: the set has no result yet
    assert batch[0] == TimedOut(seat=seat, at_ms=T0 + 181_000, consequence="auto")
    battle = sets.battles.load(made.battle_id)
    assert battle.outcome is None and battle.clock.seats[seat].auto == 1
    found = sets.get(made.set_id)
    assert found["current_battle"] == made.battle_id and found["battles"][0]["winner"] is None


def test_a_set_decided_on_time_audits(sets, clock):
    # given a best-of-3 blitz set in which p1 never makes a first move
    made = sets.create("deckduel", PLAYERS, games=3, mode="best_of", clock="blitz")
    battle_id = made.battle_id
    for _ in range(2):
        time_out(sets, battle_id, clock)
        battle_id = sets.get(made.set_id)["current_battle"] or battle_id
    # then p2 has won it 2-0, and the audit re-simulates each timeout and finds the set whole
    audit = audit_set(sets.battles, sets, made.set_id)
    assert (audit["status"], audit["score"], audit["winner"]) == ("ok", {"p1": 0, "p2": 2}, "p2")
    assert [(row["status"], row["winner"]) for row in audit["battles"]] == [("ok", "p2"), ("ok", "p2")]


def test_a_simulated_set_runs_its_clock_in_virtual_time(sets):
    # given random bots, p2 thinking 40 s over each move: past blitz's 30 s first-move limit
    bots = {seat: get_policy("random", "deckduel") for seat in PLAYERS}
    done = sets.simulate("deckduel", bots, games=3, mode="best_of", seed="7", clock="blitz",
                         think_ms={"p1": 1000, "p2": 40_000})
    # then p2 loses every battle for never having moved (at 30 s + 1 s of grace), 2-0
    assert sets.get(done.set_id)["score"] == {"p1": 2, "p2": 0}
    for battle in done.battles:
        state = sets.battles.load(battle.battle_id)
        assert state.clock.spec == PRESETS["blitz"] and state.clock.first_move_loses
        assert (state.outcome.winner, state.outcome.reason) == ("p1", NO_FIRST_MOVE)
        assert state.clock.at_ms == 31_000        # virtual time starts at 0
    assert audit_set(sets.battles, sets, done.set_id)["status"] == "ok"


def test_a_set_without_a_clock_records_none_and_plays_unclocked(sets):
    made = sets.create("deckduel", PLAYERS, games=1)
    created = sets.records(made.set_id)[0].event
    assert "clock" not in created.public_setup and set_clock(created) is None
    assert sets.battles.load(made.battle_id).clock is None
    assert sets.get(made.set_id)["clock"] is None


def test_a_set_created_before_clocks_decodes_without_one():
    # given a SetCreated as stored before sets had clocks: its public setup has no clock
    data = {"set_id": "7c1b2a4e-0b8e-4d7a-9a51-2a3f4b5c6d7e", "ruleset": "deckduel", "ruleset_version": "1.0.0",
            "content_hash": "af841f9413e4fca71a5fc14f4a50f4c6", "players": PLAYERS, "games": 3, "mode": "all",
            "public_setup": {"p1": {"character": "brawler"}}, "setup": None, "seat_token_hashes": None,
            "created_at": "2026-01-01T00:00:00.000Z", "private": False}
    created = decode_event("sets.SetCreated", data)
    # then it decodes as it always did, and its battles run no clock
    assert isinstance(created, SetCreated) and msgspec.to_builtins(created) == data
    assert set_clock(created) is None


def test_a_bad_clock_or_a_clock_in_the_setup_is_refused(sets):
    with pytest.raises(InvalidInput, match=r"^clock\.on_timeout: forfeit or auto"):
        sets.create("deckduel", PLAYERS, clock={"preset": "blitz", "on_timeout": "never"})
    with pytest.raises(InvalidInput, match=r"^clock: unknown preset 'bullet'"):
        sets.create("deckduel", PLAYERS, clock="bullet")
    with pytest.raises(SetupError, match=r"^setup\.clock: a set's clock is its own field"):
        sets.create("deckduel", PLAYERS, {"clock": "blitz"})


def test_post_sets_takes_a_clock(sqlite_url, clock):
    services = bootstrap(Settings(database_url=sqlite_url), now_ms=clock)
    with TestClient(create_app(services=services)) as client:
        made = client.post("/sets", json={"ruleset": "deckduel", "players": PLAYERS, "games": 3, "clock": "rapid"})
        assert made.status_code == 201, made.text
        body = made.json()
        assert client.get(f"/sets/{body['set_id']}").json()["clock"] == msgspec.to_builtins(PRESETS["rapid"])
        view = client.get(f"/battles/{body['battle_id']}").json()
        assert view["clock_spec"] == msgspec.to_builtins(PRESETS["rapid"])
        # a bad field is 422 naming it
        bad = client.post("/sets", json={"ruleset": "deckduel", "players": PLAYERS, "clock": {"bank_ms": 0}})
        assert bad.status_code == 422
        assert bad.json()["error"]["details"]["field"] == "clock.bank_ms"


@pytest.mark.parametrize("clock_given, loses, same", [
    ("blitz", True, True),              # the set's clock, on which a seat that never moves loses
    ("blitz", False, False),            # the set's clock, but an abort for a seat that never moves
    ("rapid", True, False),             # another clock
    (None, False, False),               # no clock at all
])
def test_the_audit_holds_each_battle_to_the_sets_clock(sets, clock_given, loses, same):
    # given a battle created as a blitz set's battle would be, or otherwise
    made = sets.battles.create("deckduel", PLAYERS, clock=clock_given, first_move_loses=loses)
    records = sets.battles.records(made.battle_id)
    # then only the set's own clock and first-move rule pass; a set without a clock wants none
    assert same_clock(PRESETS["blitz"], records) is same
    assert same_clock(None, records) is (clock_given is None)
