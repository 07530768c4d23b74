"""Two workers on one PostgreSQL store move the same live tournament on at the same moments:
each round is recorded once, and the audit re-derives it all."""
from __future__ import annotations

import threading

import pytest

from domain.battles import Battles
from domain.house import HouseSeats
from domain.sets import Sets
from domain.tournaments.events import RoundEnded, RoundPaired
from domain.tournaments.service import Tournaments
from replays.tournament_audit import audit_tournament
from tests.clocks.test_two_workers import together

pytestmark = pytest.mark.postgres


def test_two_workers_record_each_round_of_a_tournament_once(postgres_url):
    with Battles(postgres_url) as a, Battles(postgres_url) as b:
        one, two = Tournaments(a, Sets(a)), Tournaments(b, Sets(b))
        house = HouseSeats(a, sweep_seconds=0.05)
        house.start()
        try:
            created = one.create("deckduel", "swiss", rounds=3)
            for bot in ("greedy", "random", "greedy", "random", "greedy", "random"):
                one.enter_house(created.tournament_id, bot)
            one.start(created.tournament_id)
            for _ in range(3000):
                together(lambda: one.advance(created.tournament_id), lambda: two.advance(created.tournament_id))
                if one.load(created.tournament_id).ended is not None:
                    break
                threading.Event().wait(0.02)
        finally:
            house.close()
        records = one.records(created.tournament_id)
        assert [r.event.round for r in records if isinstance(r.event, RoundPaired)] == [1, 2, 3]
        assert [r.event.round for r in records if isinstance(r.event, RoundEnded)] == [1, 2, 3]
        assert audit_tournament(a, Sets(a), created.tournament_id)["status"] == "ok"
