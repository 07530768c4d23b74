"""A set left behind by its battle (the commit listener's write failed, and the battle stays
committed) moves on when it is next read, and by the periodic sweep without any read; sweeps
racing in two workers start the next battle once."""
from __future__ import annotations

import logging
import random
import time

import pytest
from eventsourcing.persistence import IntegrityError

from domain.battles import Battles
from domain.engine.battle import BattleCreated
from domain.engine.errors import InvalidInput, UnknownBattle
from domain.sets import Sets, SetSweep
from tests.sets.helpers import RefuseSetResult, battle_ids, stored_topics, topics
from tests.storage.helpers import play_out

PLAYERS = {"p1": "alice", "p2": "bob"}
LEFT_BEHIND = topics("SetCreated", "SetBattleStarted")
MOVED_ON = topics("SetCreated", "SetBattleStarted", "SetBattleFinished", "SetBattleStarted")


@pytest.fixture
def sets(sqlite_url):
    with Battles(sqlite_url) as battles:
        yield Sets(battles)


def left_behind(sets: Sets, monkeypatch, caplog, games: int = 3) -> str:
    """A set whose first battle has ended while the set's write of its result failed."""
    made = sets.create("deckduel", PLAYERS, games=games, mode="all")
    refusal = RefuseSetResult(sets.battles, monkeypatch)
    with caplog.at_level(logging.ERROR, logger="domain.battles"):
        play_out(sets.battles, made.battle_id, random.Random(3))
    assert refusal.refused == 1
    assert [r.name for r in caplog.records if r.levelno == logging.ERROR] == ["domain.battles"]   # logged, swallowed
    assert sets.battles.load(made.battle_id).outcome is not None
    assert stored_topics(sets.battles, made.set_id) == LEFT_BEHIND
    return made.set_id


def test_reading_the_set_moves_it_on(sets, monkeypatch, caplog):
    set_id = left_behind(sets, monkeypatch, caplog)
    found = sets.get(set_id)
    assert stored_topics(sets.battles, set_id) == MOVED_ON
    first, second = battle_ids(sets.records(set_id))
    winner = sets.battles.load(first).outcome.winner
    assert [(b["battle_id"], b["winner"]) for b in found["battles"]] == [(first, winner), (second, None)]
    assert found["current_battle"] == second and found["score"] == {"p1": 0, "p2": 0} | {winner: 1}
    assert sets.battles.load(second).seq >= 1
    assert sets.get(set_id) == found           # read again: nothing more to do


def test_reading_a_set_over_http_moves_it_on(sqlite_url, monkeypatch, caplog):
    from fastapi.testclient import TestClient

    from api.app import create_app
    from api.services import Settings, bootstrap

    services = bootstrap(Settings(database_url=sqlite_url))
    del services.extras["set_sweep"]           # only the read may move the set on here
    with TestClient(create_app(services=services)) as client:
        made = client.post("/sets", json={"ruleset": "deckduel", "players": PLAYERS, "games": 3, "mode": "all"}).json()
        RefuseSetResult(services.battles, monkeypatch)
        play_out(services.battles, made["battle_id"], random.Random(5))
        assert stored_topics(services.battles, made["set_id"]) == LEFT_BEHIND
        found = client.get(f"/sets/{made['set_id']}").json()
        assert stored_topics(services.battles, made["set_id"]) == MOVED_ON
    assert found["battles"][0]["battle_id"] == made["battle_id"] and found["battles"][0]["head"] is not None
    assert found["current_battle"] == found["battles"][1]["battle_id"]


def test_the_sweep_moves_a_set_on_without_a_read(sets, monkeypatch, caplog):
    set_id = left_behind(sets, monkeypatch, caplog)
    sweep = SetSweep(sets)
    assert sweep.sweep() == [set_id]
    assert stored_topics(sets.battles, set_id) == MOVED_ON
    assert sweep.sweep() == []                 # no battle has ended since


def test_the_sweep_leaves_sets_that_moved_on_by_themselves_alone(sets):
    made = sets.create("deckduel", PLAYERS, games=2, mode="all")
    play_out(sets.battles, made.battle_id, random.Random(3))
    assert stored_topics(sets.battles, made.set_id) == MOVED_ON
    assert SetSweep(sets).sweep() == []


def test_the_sweep_ends_a_set_whose_last_battle_was_left_behind(sets, monkeypatch, caplog):
    set_id = left_behind(sets, monkeypatch, caplog, games=1)
    assert SetSweep(sets).sweep() == [set_id]
    assert stored_topics(sets.battles, set_id) == topics("SetCreated", "SetBattleStarted", "SetBattleFinished",
                                                         "SetEnded")


def test_a_set_the_sweep_could_not_move_on_stays_due(sets, monkeypatch, caplog):
    set_id = left_behind(sets, monkeypatch, caplog)
    sweep = SetSweep(sets)
    RefuseSetResult(sets.battles, monkeypatch)
    with caplog.at_level(logging.ERROR, logger="domain.sets.sweep"):
        assert sweep.sweep() == [set_id]
    assert f"could not advance set {set_id}" in caplog.text
    assert stored_topics(sets.battles, set_id) == LEFT_BEHIND
    assert sweep.sweep() == [set_id]           # no new battle ended, but the set is still due
    assert stored_topics(sets.battles, set_id) == MOVED_ON


def test_the_running_sweep_moves_a_set_on(sets, monkeypatch, caplog):
    set_id = left_behind(sets, monkeypatch, caplog)    # before the sweep runs: it would race the checks
    sweep = SetSweep(sets, every_seconds=0.02)
    sweep.start()
    try:
        deadline = time.monotonic() + 10
        while stored_topics(sets.battles, set_id) != MOVED_ON:
            assert time.monotonic() < deadline, "the sweep did not move the set on"
            time.sleep(0.02)
    finally:
        sweep.close()


def test_two_racing_sweeps_start_the_next_battle_once(sqlite_url, monkeypatch, caplog):
    """Worker A decides and opens the next battle, but worker B's sweep saves first: A's whole
    transaction (set events, battle, membership) is refused, and A reloads to find it done."""
    with Battles(sqlite_url) as battles_a, Battles(sqlite_url) as battles_b:
        sets_a, sets_b = Sets(battles_a), Sets(battles_b)
        set_id = left_behind(sets_a, monkeypatch, caplog)
        sweep_a, sweep_b = SetSweep(sets_a), SetSweep(sets_b)
        attempts, refused = [], []
        real = battles_a.append_batch

        def b_first(bid, *args, **kwargs):
            attempts.append(str(bid))
            if len(attempts) == 1:
                assert sweep_b.sweep() == [set_id]
            try:
                return real(bid, *args, **kwargs)
            except IntegrityError:
                refused.append(str(bid))
                raise

        monkeypatch.setattr(battles_a, "append_batch", b_first)
        assert sweep_a.sweep() == [set_id]
        records = sets_a.records(set_id)
        assert [r.event.TOPIC for r in records] == MOVED_ON
        opened = battle_ids(records)[1]
        assert attempts == refused and len(attempts) == 1 and attempts[0] != opened
        with pytest.raises(UnknownBattle):
            battles_a.records(attempts[0])
        created = battles_a.store.recorder.select_notifications(None, 50, topics=[BattleCreated.TOPIC])
        assert [str(n.originator_id) for n in created] == battle_ids(records)
        assert sets_a.get(set_id) == sets_b.get(set_id)


def test_the_service_runs_a_sweep_every_configured_interval(sqlite_url, monkeypatch):
    from api.services import Settings, bootstrap

    monkeypatch.setenv("RINGSIDE_DATABASE_URL", sqlite_url)
    monkeypatch.setenv("RINGSIDE_SET_SWEEP_SECONDS", "2.5")
    services = bootstrap()
    try:
        sweep = services.extras["set_sweep"]
        assert isinstance(sweep, SetSweep) and sweep.sets is services.sets and sweep.every_seconds == 2.5
    finally:
        services.close()
    monkeypatch.delenv("RINGSIDE_SET_SWEEP_SECONDS")
    assert Settings.from_env().set_sweep_seconds == 5.0


@pytest.mark.parametrize("raw", ["soon", "0", "-1", "nan", "3601"])
def test_a_bad_sweep_interval_is_one_error_naming_the_variable(monkeypatch, raw):
    from api.services import Settings

    monkeypatch.setenv("RINGSIDE_SET_SWEEP_SECONDS", raw)
    with pytest.raises(InvalidInput) as err:
        Settings.from_env()
    assert err.value.message == (f"RINGSIDE_SET_SWEEP_SECONDS: a number of seconds above 0 and at most 3600, "
                                 f"not {raw!r}")
