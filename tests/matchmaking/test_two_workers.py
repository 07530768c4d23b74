"""Two workers on one PostgreSQL store run the same queue's waves at the same moments: every
ticket is paired exactly once, none is left waiting, and the audit re-derives every wave."""
from __future__ import annotations

import time
import uuid

import pytest

from api.services import Settings, bootstrap
from domain.battles import Battles
from domain.matchmaking.audit import audit_queue
from domain.matchmaking.events import TicketsPaired
from domain.matchmaking.service import Queues
from domain.players import Players
from tests.clocks.test_two_workers import together
from tests.clocktime import Clock

pytestmark = pytest.mark.postgres
QUEUE = "deckduel-blitz"
PLAYERS = 40


def test_two_workers_pair_every_ticket_once_and_lose_no_wave(postgres_url):
    clock = Clock()
    with Battles(postgres_url, now_ms=clock) as a, Battles(postgres_url, now_ms=clock) as b:
        players = Players(a.store)
        ratings = {f"p{i}": 25.0 + (i % 10) * 0.1 for i in range(PLAYERS)}    # all within one window
        one, two = (Queues(side, Players(side.store), lambda ruleset, player: ratings[player]) for side in (a, b))
        tokens = [players.register(name).player_token for name in ratings]
        # given tickets opened through both workers, half each, some of them at the same moment
        together(*(lambda t=t, q=(one if i % 2 else two): q.open(QUEUE, t) for i, t in enumerate(tokens)))
        # when both run waves at the same moments, again and again
        for _ in range(3):
            clock.advance(2_000)
            together(lambda: one.wave(QUEUE), lambda: two.wave(QUEUE))
        # then every ticket sits in exactly one battle, nobody waits, and the log audits
        records = one.records(QUEUE)
        seated = [t for r in records if isinstance(r.event, TicketsPaired)
                  for p in r.event.pairings for t in p.seats.values()]
        assert len(seated) == len(set(seated)) == PLAYERS
        assert one.state(QUEUE).waiting == {} == two.state(QUEUE).waiting
        battles = {p.battle_id for r in records if isinstance(r.event, TicketsPaired) for p in r.event.pairings}
        assert len(battles) == PLAYERS // 2 and all(a.load(bid).seq >= 1 for bid in battles)
        assert audit_queue(QUEUE, records)["status"] == "ok"


def test_two_served_workers_on_postgres_and_redis_pair_every_ticket_once(postgres_url, redis_url):
    # given two workers as `serve` wires them, on one PostgreSQL store and one Redis, each
    # running its own waves every 20 ms
    prefix = f"t{uuid.uuid4().hex[:10]}"
    settings = Settings(database_url=postgres_url, redis_url=redis_url, redis_prefix=prefix,
                        wave_check_seconds=0.02, projections="external")
    one, two = bootstrap(settings), bootstrap(settings)
    try:
        for services in (one, two):
            services.extras["waves"].start()
        tokens = [one.players.register(f"w{i}").player_token for i in range(PLAYERS)]
        # when half the players queue through each worker, all at once
        tickets = []
        together(*(lambda t=t, s=(one if i % 2 else two): tickets.append(s.queues.open(QUEUE, t)["ticket"])
                   for i, t in enumerate(tokens)))
        # then every ticket is paired, each into exactly one battle, whichever worker ran the wave
        deadline = time.monotonic() + 20
        while one.queues.state(QUEUE).waiting and time.monotonic() < deadline:
            time.sleep(0.05)
        records = one.queues.records(QUEUE)
        seated = [t for r in records if isinstance(r.event, TicketsPaired) for p in r.event.pairings
                  for t in p.seats.values()]
        assert sorted(seated) == sorted(tickets) and len(tickets) == PLAYERS
        assert audit_queue(QUEUE, records)["status"] == "ok"
    finally:
        for services in (one, two):
            services.close()
