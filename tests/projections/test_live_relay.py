"""Batches cross workers through Redis only for the battles some other worker's spectators
follow: each hub announces what it follows, at once and then every refresh."""
from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable

import pytest

from projections.live import Batch, LiveHub

REFRESH = 0.25
SLOW = 60.0             # no refresh comes during the test: what is heard was said at once


@pytest.fixture
def hubs(redis_url):
    prefix = f"t{uuid.uuid4().hex[:10]}"
    made: list[LiveHub] = []

    def start(refresh: float = REFRESH) -> LiveHub:
        hub = LiveHub(redis_url, prefix=prefix, watch_refresh=refresh)
        hub.start()
        made.append(hub)
        return hub

    yield start
    for hub in made:
        hub.close()


def batch(battle_id: str, seq: int) -> Batch:
    return Batch(battle_id, seq, seq, False, frames={"spectator": f'[{{"seq":{seq}}}]'.encode()})


async def until(check: Callable[[], bool], what: str, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        await asyncio.sleep(0.01)


def test_a_hub_publishes_only_the_battles_another_hub_follows(hubs):
    async def scenario() -> None:
        # Given hub B with a spectator of battle x, and hub A that has heard of it at once
        a, b = hubs(SLOW), hubs(SLOW)
        sub = b.subscribe("x")
        await until(lambda: a.relay.followed("x"), "A hears that B follows x")
        # When A commits a batch of x and one of y, which nobody follows
        a.relay.publish(batch("y", 1))
        a.relay.publish(batch("x", 1))
        # Then only x's batch crosses Redis, and B's spectator gets it
        got = await sub.next(5.0)
        assert got is not None and (got.battle_id, got.first) == ("x", 1)
        await until(lambda: a.relay.sent == 1, "A counts what it sent")
        assert not a.relay.followed("y")
        sub.close()

    asyncio.run(scenario())


def test_a_hub_that_starts_later_hears_what_the_others_follow(hubs):
    async def scenario() -> None:
        # Given hub B whose spectators follow x and z
        b = hubs(SLOW)
        subs = [b.subscribe("x"), b.subscribe("z")]
        await asyncio.sleep(0.2)
        # When hub A starts and says hello
        a = hubs(SLOW)
        # Then B answers at once, not only at its next refresh
        await until(lambda: a.relay.followed("x") and a.relay.followed("z"), "A hears what B follows")
        for sub in subs:
            sub.close()

    asyncio.run(scenario())


def test_a_battle_nobody_follows_any_more_stops_crossing(hubs):
    async def scenario() -> None:
        # Given B following x, and A having heard it
        a, b = hubs(), hubs()
        sub = b.subscribe("x")
        await until(lambda: a.relay.followed("x"), "A hears that B follows x")
        # Then while B follows x, its announcements keep x followed past 3 refreshes
        await asyncio.sleep(4 * REFRESH)
        assert a.relay.followed("x")
        # When B's spectator leaves, A forgets x within 3 refreshes of B's last announcement
        sub.close()
        await until(lambda: not a.relay.followed("x"), "A forgets x", seconds=20 * REFRESH)

    asyncio.run(scenario())
