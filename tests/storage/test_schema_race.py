"""Workers that start together on an empty PostgreSQL schema all come up.

`ringside serve --workers 2` and `ringside projections run` start at once, and each creates
the store's tables, indexes and functions if they are missing. PostgreSQL refuses concurrent
DDL on the same catalogue rows ("tuple concurrently updated"), so the creation is serialised.
"""
from __future__ import annotations

import threading

from domain.battles import Battles
from domain.store import SCHEMA_LOCK

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


def test_the_snapshots_table_is_created_only_while_the_schema_lock_is_held(postgres_url):
    # Given a store whose snapshots table is missing, and another process holding the schema lock
    import psycopg

    battles = Battles(postgres_url)
    schema = postgres_url.rsplit("schema=", 1)[1]
    dsn = postgres_url.split("?", 1)[0]
    try:
        with psycopg.connect(dsn, autocommit=True) as other:
            other.execute(f'DROP TABLE "{schema}".battles_snapshots')
            other.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
            # When the store creates its snapshot store
            creating = threading.Thread(target=battles.store.construct_snapshot_store)
            creating.start()
            creating.join(0.5)
            # Then it waits for the lock rather than racing the holder's DDL
            assert creating.is_alive() and not table_exists(other, schema, "battles_snapshots")
            other.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))
            creating.join(10)
            assert not creating.is_alive() and table_exists(other, schema, "battles_snapshots")
    finally:
        battles.close()


def table_exists(conn, schema: str, table: str) -> bool:
    return conn.execute("SELECT to_regclass(%s) IS NOT NULL", (f'"{schema}".{table}',)).fetchone()[0]
