"""Two threads, each with its own `Battles` on the same URL, submit to ONE battle at once.

Barriers force the races: both threads load the same state and both try to append the
same seq, so the optimistic-concurrency retry (eventsourcing IntegrityError) must run.
"""
from __future__ import annotations

import random
import threading

import pytest
from eventsourcing.persistence import IntegrityError

from domain.battles import Battles, Submitted
from domain.engine.battle import BattleEnded
from domain.engine.chain import GENESIS, chain_of
from domain.engine.errors import RuleViolation
from domain.engine.events import event_data
from tests.storage.helpers import PLAYERS, RULESET, fold_records, raw_versions

TIMEOUT = 20


class Racer:
    """A Battles instance whose saves can be held at a shared barrier, and that counts conflicts."""

    def __init__(self, url: str, barrier: threading.Barrier):
        self.battles = Battles(url, snapshot_every=10)
        self.barrier = barrier
        self.armed = False
        self.conflicts = 0
        self.results: list[Submitted] = []
        self.rejected = 0
        real_insert = self.battles.store.recorder.insert_events

        def insert_events(stored, **kwargs):
            if self.armed:  # only the first attempt of a raced command waits for the other
                self.armed = False
                self.barrier.wait(TIMEOUT)
            try:
                return real_insert(stored, **kwargs)
            except IntegrityError:
                self.conflicts += 1
                raise

        self.battles.store.recorder.insert_events = insert_events

    def submit(self, bid: str, seat: str, command: dict) -> None:
        self.armed = True
        try:
            self.results.append(self.battles.submit(bid, seat, command))
        except RuleViolation:
            self.rejected += 1  # lost the race: after the retry it was no longer legal
        finally:
            self.armed = False


def run_both(*targets) -> None:
    errors: list[BaseException] = []

    def wrap(fn):
        try:
            fn()
        except BaseException as exc:  # noqa: BLE001 - surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=wrap, args=(t,)) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT * 3)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if errors:
        raise errors[0]


@pytest.fixture
def race(db_url):
    barrier = threading.Barrier(2)
    a, b = Racer(db_url, barrier), Racer(db_url, barrier)
    created = a.battles.create("deckduel", PLAYERS, revealed=b"\x05" * 32)
    yield db_url, created, a, b
    a.battles.close()
    b.battles.close()


def check_log(url: str, bid: str, racers: list[Racer], create_seq: int):
    with Battles(url, snapshot_every=0) as cold:
        records = cold.records(bid)
        stored = cold.load(bid)
        versions = raw_versions(cold, bid)
    n = records[-1].seq
    assert [r.seq for r in records] == list(range(1, n + 1)), "gap or duplicate in the log"
    assert versions == list(range(1, n + 1))
    chain = GENESIS
    for rec in records:
        chain = chain_of(chain, rec.seq, rec.event.TOPIC, event_data(rec.event))
        assert rec.chain == chain, f"chain broken at seq {rec.seq}"
    # Every successful submit's batch is in the log exactly as returned, and nothing else is.
    by_seq = {r.seq: r for r in records}
    covered: list[int] = list(range(1, create_seq + 1))
    for racer in racers:
        for result in racer.results:
            for rec in result.records:
                assert by_seq[rec.seq] == rec
                covered.append(rec.seq)
    assert sorted(covered) == list(range(1, n + 1)), "an event was lost or written twice"
    assert stored == fold_records(records)
    return records, stored


def test_simultaneous_mulligans_from_two_instances_both_land(race):
    url, created, a, b = race
    bid = created.battle_id
    run_both(lambda: a.submit(bid, "p1", {"type": "mulligan", "cards": []}),
             lambda: b.submit(bid, "p2", {"type": "mulligan", "cards": []}))
    assert a.conflicts + b.conflicts == 1, "the race did not exercise the retry path"
    assert a.rejected == b.rejected == 0
    records, state = check_log(url, bid, [a, b], created.seq)
    locked = [r.event.seat for r in records if r.event.TOPIC == "engine.ChoiceLocked"]
    assert sorted(locked) == ["p1", "p2"]
    revealed = [r for r in records if r.event.TOPIC == "engine.ChoicesRevealed"]
    assert len(revealed) == 1 and revealed[0].seq == created.seq + 3
    assert state.game.phase == "combat"
    # each instance's own view now matches the store
    assert a.battles.load(bid) == state == b.battles.load(bid)


def test_racing_for_every_turn_loses_and_duplicates_nothing(race):
    url, created, a, b = race
    bid = created.battle_id
    run_both(lambda: a.submit(bid, "p1", {"type": "mulligan", "cards": []}),
             lambda: b.submit(bid, "p2", {"type": "mulligan", "cards": []}))
    rounds = 0
    while a.battles.load(bid).outcome is None and rounds < 400:
        state = a.battles.load(bid)
        seat = sorted(RULESET.awaiting(state.game))[0]
        legal = a.battles.legal(bid, seat)
        pick_a, pick_b = random.Random(rounds).choice(legal), random.Random(rounds + 1000).choice(legal)
        # both instances hold a loaded state at this seq and both save at the same moment
        run_both(lambda: a.submit(bid, seat, pick_a), lambda: b.submit(bid, seat, pick_b))
        rounds += 1
    assert a.battles.load(bid).outcome is not None, "the raced battle did not finish"
    assert rounds > 5
    # the mulligan race plus one conflict per raced round
    assert a.conflicts + b.conflicts == rounds + 1
    records, state = check_log(url, bid, [a, b], created.seq)
    assert isinstance(records[-1].event, BattleEnded)
    assert state.outcome is not None
    with Battles(url) as fresh:
        assert fresh.load(bid) == state


def test_idempotent_retries_racing_from_two_instances_append_once(race):
    url, created, a, b = race
    bid = created.battle_id
    a.battles.submit(bid, "p1", {"type": "mulligan", "cards": []})
    a.battles.submit(bid, "p2", {"type": "mulligan", "cards": []})
    seat = sorted(RULESET.awaiting(a.battles.load(bid).game))[0]
    results: dict[str, Submitted] = {}

    def go(racer: Racer, name: str):
        racer.armed = True
        results[name] = racer.battles.submit(bid, seat, {"type": "pass"}, idempotency_key="same")

    before = a.battles.load(bid).seq
    run_both(lambda: go(a, "a"), lambda: go(b, "b"))
    assert results["a"].seq == results["b"].seq
    assert results["a"].records == results["b"].records
    with Battles(url) as cold:
        records = cold.records(bid)
    assert [r.seq for r in records] == list(range(1, records[-1].seq + 1))
    assert records[-1].seq == results["a"].seq
    assert sum(1 for r in records if r.seq > before and r.event.starts_batch()) == 1
