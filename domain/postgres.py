"""The PostgreSQL event recorder: a batch of events is one statement, one round trip.

The library's recorder inserts a batch in a transaction of its own: it locks the events table
(so that notification ids commit in the order they are given, and every reader of the log sees
them without gaps), notifies the table's channel, inserts, waits for the result, and commits.
The lock is held across each of those round trips to the client, and a client that is slow to
be scheduled (a busy worker) holds up every other writer meanwhile.

`LockedInsertRecorder` does the same work in one server-side function, called as a single
statement (its own transaction, prepared once per connection): the lock is taken, the events
inserted and the channel notified on the server, and the lock is released at the commit that
ends the statement, with no round trip in between. Reads, the schema and the notification log
are the library's own.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier


class LockedInsertRecorder(PostgresApplicationRecorder):
    def __init__(self, datastore: PostgresDatastore, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        function = Identifier(f"ringside_insert_{events_table_name}"[:63])
        schema, table = Identifier(datastore.schema), Identifier(self.events_table_name)
        self.sql_create_statements.append(SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}("
            "ids {id_type}[], versions bigint[], topics text[], states bytea[]) "
            "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ "
            "BEGIN "
            "  SET LOCAL lock_timeout = '{lock_timeout}s'; "
            "  LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
            "  NOTIFY {channel}; "
            "  RETURN QUERY INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
            "    SELECT * FROM unnest(ids, versions, topics, states) "
            "    RETURNING notification_id; "
            "END $BODY$"
        ).format(schema=schema, function=function, table=table, id_type=SQL(datastore.originator_id_type),
                 lock_timeout=datastore.lock_timeout, channel=Identifier(self.channel_name)))
        self.insert_call = SQL("SELECT * FROM {schema}.{function}("
                               "%s::{id_type}[], %s::bigint[], %s::text[], %s::bytea[]) AS id").format(
            schema=schema, function=function, id_type=SQL(datastore.originator_id_type))

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)      # as the library's
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """Insert the events in one statement; their notification ids, in the order given. A
        clash with a stored (originator id, version) raises the library's IntegrityError, and
        nothing of the batch is stored."""
        if not stored_events:
            return []
        columns = ([e.originator_id for e in stored_events], [e.originator_version for e in stored_events],
                   [e.topic for e in stored_events], [e.state for e in stored_events])
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self.insert_call, columns, prepare=True)
            return [row["id"] for row in curs.fetchall()]
