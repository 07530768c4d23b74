"""Workers that start together on an empty PostgreSQL schema all come up.

`ringside serve --workers 2` and `ringside projections run` start at once, and each creates
the store's tables, indexes and functions if they are missing. PostgreSQL refuses concurrent
DDL on the same catalogue rows ("tuple concurrently updated"), so the creation is serialised.
"""
from __future__ import annotations

import threading

from domain.battles import Battles


def test_stores_started_at_once_on_an_empty_schema_all_come_up(postgres_url):
    # Given an empty schema and 6 processes' worth of stores starting at the same moment
    starting = threading.Barrier(6)
    failures: list[BaseException] = []
    opened: list[Battles] = []

    def start() -> None:
        starting.wait()
        try:
            opened.append(Battles(postgres_url))
        except BaseException as error:     # noqa: BLE001 - the test reports every failure
            failures.append(error)

    threads = [threading.Thread(target=start) for _ in range(6)]
    # When they all create the store
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        # Then none fails, and every one of them can write and read the same battle
        assert failures == []
        created = opened[0].create("deckduel", {"p1": "alice", "p2": "bob"})
        assert all(b.load(created.battle_id).seq == created.seq for b in opened)
    finally:
        for battles in opened:
            battles.close()
