"""Two workers on one PostgreSQL store and one Redis: each holds every clocked battle (its own
from its commits, the other's from the log), both come due at once, and every expiry yields
exactly one timeout; after an outage, every running clock is credited exactly once."""
from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator

import pytest

from domain.battles import Battles
from domain.house import RedisClaims
from domain.timers import ClockKeeper

from .helpers import T0, Clock, create, credits, running, timeouts, verified

pytestmark = pytest.mark.postgres
BATTLES = 12
QUIET = 3600.0
Workers = tuple[Clock, Battles, Battles]


@pytest.fixture
def workers(postgres_url: str) -> Iterator[Workers]:
    """Two `Battles` on one store and one injected time: the two workers' halves of the service."""
    clock = Clock()
    with Battles(postgres_url, now_ms=clock) as a, Battles(postgres_url, now_ms=clock) as b:
        a.committer.start()
        b.committer.start()
        yield clock, a, b


def keeper(battles: Battles, redis_url: str, prefix: str) -> ClockKeeper:
    return ClockKeeper(battles, RedisClaims(redis_url, prefix, "clock"), sweep_seconds=QUIET)


def together(*calls: Callable[[], object]) -> None:
    """Run the calls at the same moment, one thread each, and wait for all of them."""
    barrier = threading.Barrier(len(calls))
    failures: list[BaseException] = []

    def run(call: Callable[[], object]) -> None:
        barrier.wait()
        try:
            call()
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not failures, failures


def test_every_expiry_yields_exactly_one_timeout(workers: Workers, redis_url: str) -> None:
    clock, a, b = workers
    prefix = f"t{uuid.uuid4().hex[:10]}"
    first, second = keeper(a, redis_url, prefix), keeper(b, redis_url, prefix)
    first.start()
    second.start()
    try:
        # given battles created on either worker, each held by both
        bids = [create(a if n % 2 else b) for n in range(BATTLES)]
        first.discover()
        second.discover()
        assert all(first.deadline(bid) == second.deadline(bid) == T0 + 61_000 for bid in bids)
        # when every deadline passes and both workers decide at the same moment
        clock.advance(61_000)
        together(first.run_due, second.run_due)
        # then each battle has exactly one timeout, appended by one worker or the other
        for bid in bids:
            assert [t.seat for t in timeouts(a, bid)] == ["p1"], bid
        assert first.timeouts + second.timeouts == BATTLES
        # and a worker that lost a claim, looking again, finds nothing left to do
        clock.advance(1_000)
        together(first.run_due, second.run_due)
        assert first.timeouts + second.timeouts == BATTLES
        assert len(first) == len(second) == 0
    finally:
        first.close()
        second.close()
    for bid in bids:
        verified(a, bid)


def test_after_an_outage_two_workers_starting_together_credit_each_clock_once(workers: Workers, redis_url: str) -> None:
    clock, a, b = workers
    prefix = f"t{uuid.uuid4().hex[:10]}"
    # given battles created while one worker ran, its last beat at T0
    with running(a, sweep_seconds=QUIET):
        bids = [create(a) for _ in range(BATTLES)]
    # when the service is down for two minutes and both workers start at once
    clock.advance(120_000)
    first, second = keeper(a, redis_url, prefix), keeper(b, redis_url, prefix)
    together(first.start, second.start)
    try:
        # then every running clock is credited exactly once, and nobody timed out
        for bid in bids:
            assert [(c.since_ms, c.credit_ms) for c in credits(a, bid)] == [(T0, 120_000)], bid
            assert timeouts(a, bid) == []
        assert first.credits + second.credits == BATTLES
        # and the credited minute still runs out once per battle
        clock.advance(61_000)
        together(first.run_due, second.run_due)
        for bid in bids:
            assert [t.at_ms for t in timeouts(a, bid)] == [T0 + 181_000], bid
    finally:
        first.close()
        second.close()
