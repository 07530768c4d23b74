"""Workers that start together on an empty PostgreSQL schema all come up.

`ringside serve --workers 2` and `ringside projections run` start at once, and each creates
the store's tables, indexes and functions if they are missing. PostgreSQL refuses concurrent
DDL on the same catalogue rows ("tuple concurrently updated"), so the creation is serialised.
"""
from __future__ import annotations

from domain.battles import Battles

from .helpers import at_once


def test_stores_started_at_once_on_an_empty_schema_all_come_up(postgres_url):
    # Given an empty schema and 6 processes' worth of stores starting at the same moment
    opened: list[Battles] = []
    # When they all create the store
    failures = at_once(6, lambda: opened.append(Battles(postgres_url)))
    try:
        # Then none fails, and every one of them can write and read the same battle
        assert failures == []
        created = opened[0].create("deckduel", {"p1": "alice", "p2": "bob"})
        assert all(b.load(created.battle_id).seq == created.seq for b in opened)
    finally:
        for battles in opened:
            battles.close()
