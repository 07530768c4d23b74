"""Storage wiring: database URL -> eventsourcing settings, the orjson mapper, the state cache.

Events are stored by the eventsourcing library (9.5.6) through a typed orjson mapper: a
stored event's topic is the event's stable TOPIC and its state is `{"data", "chain"}`.
"""
from __future__ import annotations

import os
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, cast
from urllib.parse import parse_qs, unquote, urlparse

import msgspec
import orjson
from eventsourcing.application import Application
from eventsourcing.persistence import Mapper, Notification, OperationalError, StoredEvent

from domain.engine.errors import RingsideError
from domain.engine.events import Recorded, decode_record, event_data
from domain.engine.ruleset import get_ruleset

DEFAULT_DATABASE_URL = "sqlite:///./ringside.db"
SNAPSHOT_TOPIC = "ringside.Snapshot"
IDEMPOTENCY_TOPIC = "ringside.IdempotencyKey"
SET_MEMBERSHIP_TOPIC = "ringside.SetMembership"
PLAYER_TOPIC = "ringside.PlayerRegistered"          # domain/players.py
PLAYER_TOKEN_TOPIC = "ringside.PlayerToken"
QUEUE_TICKET_TOPIC = "ringside.QueueTicket"         # domain/matchmaking/service.py: a ticket's queue
# The aggregates that share the log with the battles, by their events' topic prefix: a view of
# battles skips them.
BESIDE_BATTLES = ("sets.", "queues.", "tournaments.")
# Bookkeeping records stored beside events; they are not battle events, and projections skip them.
BLOB_TOPICS = frozenset({SNAPSHOT_TOPIC, IDEMPOTENCY_TOPIC, SET_MEMBERSHIP_TOPIC, PLAYER_TOPIC, PLAYER_TOKEN_TOPIC,
                         QUEUE_TICKET_TOPIC})


class BadDatabaseUrl(RingsideError):
    code = "bad_database_url"


def database_url(url: str | None = None) -> str:
    return url or os.environ.get("RINGSIDE_DATABASE_URL") or DEFAULT_DATABASE_URL


def store_env(url: str | None = None) -> dict[str, str]:
    """Map `sqlite:///path`, `sqlite:///:memory:` or
    `postgresql://user:password@host:port/db?schema=s&connect_timeout=5` to library settings."""
    url = database_url(url)
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        path = unquote(url[len("sqlite:///"):]) if url.startswith("sqlite:///") else ""
        if not path:
            raise BadDatabaseUrl(f"bad SQLite URL {url!r}; use sqlite:///path/to/file.db")
        if path == ":memory:":
            path = f"file:ringside-{uuid.uuid4().hex}?mode=memory&cache=shared"
        return {"PERSISTENCE_MODULE": "domain.sqlite_store:Factory", "SQLITE_DBNAME": path,
                "IS_SNAPSHOTTING_ENABLED": "y"}
    if parsed.scheme in ("postgresql", "postgres"):
        if not parsed.hostname or not parsed.path.strip("/"):
            raise BadDatabaseUrl(f"bad PostgreSQL URL {url!r}; use postgresql://user@host:port/dbname")
        env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": parsed.path.strip("/"),
               "POSTGRES_HOST": parsed.hostname, "POSTGRES_PORT": str(parsed.port or 5432),
               "POSTGRES_USER": unquote(parsed.username or "postgres"),
               "POSTGRES_PASSWORD": unquote(parsed.password or ""), "IS_SNAPSHOTTING_ENABLED": "y",
               "APPLICATION_RECORDER_TOPIC": "domain.adapters.eventsourcing:LockedInsertRecorder"}
        query = parse_qs(parsed.query)
        if query.get("schema"):
            env["POSTGRES_SCHEMA"] = query["schema"][0]
        # Fail fast when the server is down (the library waits 30 s by default).
        env["POSTGRES_CONNECT_TIMEOUT"] = query.get("connect_timeout", ["5"])[0]
        return env
    raise BadDatabaseUrl(f"unsupported database URL {url!r}; use sqlite:/// or postgresql://")


class StoredRecord:
    """What the library saves: a recorded battle event at (battle id, seq)."""
    __slots__ = ("originator_id", "originator_version", "record")

    def __init__(self, battle_id: uuid.UUID, record: Recorded):
        self.originator_id = battle_id
        self.originator_version = record.seq
        self.record = record


class StoredBlob:
    """A snapshot or an idempotency record: a topic and a JSON body in its own sequence."""
    __slots__ = ("originator_id", "originator_version", "topic", "body")

    def __init__(self, originator_id: uuid.UUID, version: int, topic: str, body: dict[str, Any]):
        self.originator_id = originator_id
        self.originator_version = version
        self.topic = topic
        self.body = body


class BattleMapper(Mapper):
    """orjson on the way in; typed msgspec decode (with upcasting) on the way out."""

    def __init__(self) -> None:
        super().__init__(transcoder=None)  # type: ignore[arg-type]

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if isinstance(domain_event, StoredBlob):
            return StoredEvent(domain_event.originator_id, domain_event.originator_version,
                               domain_event.topic, orjson.dumps(domain_event.body))
        rec: Recorded = domain_event.record
        body: dict[str, Any] = {"data": rec.stored_data(), "chain": rec.chain}
        if rec.data_version > 1:
            body["v"] = rec.data_version
        return StoredEvent(domain_event.originator_id, rec.seq, rec.event.TOPIC, orjson.dumps(body))

    def to_domain_event(self, stored: StoredEvent) -> Any:
        body = orjson.loads(stored.state)
        if stored.topic in BLOB_TOPICS:
            return StoredBlob(stored.originator_id, stored.originator_version, stored.topic, body)  # type: ignore[arg-type]
        return decode_record(stored.originator_version, stored.topic, body["data"], body["chain"], body.get("v", 1))


class BattleStore(Application):
    """The eventsourcing application holding every battle's events, snapshots and keys."""
    name = "Battles"
    mapper: BattleMapper

    def construct_recorder(self) -> Any:
        # Workers and the projection runner start together, and each creates the tables,
        # types and functions that are missing. PostgreSQL refuses concurrent DDL on the same
        # catalogue rows, so on PostgreSQL one process at a time creates them.
        with self._creating_schema():
            return super().construct_recorder()

    def construct_snapshot_store(self) -> Any:
        # The snapshots table is created here, apart from the recorder's tables, so it is
        # serialised the same way.
        with self._creating_schema():
            return super().construct_snapshot_store()

    def _creating_schema(self) -> AbstractContextManager[None]:
        if "postgres" not in self.env.get("PERSISTENCE_MODULE", ""):
            return nullcontext()
        return schema_lock(self.env)

    def construct_mapper(self) -> Mapper:
        return BattleMapper()

    # The event stores hand back what `BattleMapper` decodes: records, and blobs by their own keys.
    def stored_records(self, originator_id: uuid.UUID, *, gt: int | None = None, lte: int | None = None,
                       limit: int | None = None) -> list[Recorded]:
        """A battle's (or a set's) stored records after seq `gt` up to `lte`, in order."""
        return cast(list[Recorded], list(self.events.get(originator_id, gt=gt, lte=lte, limit=limit)))

    def stored_blob(self, key: uuid.UUID) -> StoredBlob | None:
        """The bookkeeping record stored under `key` (an idempotency key, a set membership)."""
        found = list(self.events.get(key, limit=1))
        return cast(StoredBlob, found[0]) if found else None

    def latest_snapshot(self, battle_id: uuid.UUID, lte: int | None) -> StoredBlob | None:
        """The battle's snapshot with the highest seq up to `lte`."""
        assert self.snapshots is not None
        found = list(self.snapshots.get(battle_id, desc=True, limit=1, lte=lte))
        return cast(StoredBlob, found[0]) if found else None


SCHEMA_LOCK = 0x52696E6773696465        # PostgreSQL advisory lock key: "Ringside" in ASCII


def pg_connect(env: Mapping[str, str]) -> Any:
    """An autocommit connection to the store's PostgreSQL database, as `store_env` describes it."""
    import psycopg

    return psycopg.connect(host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"], dbname=env["POSTGRES_DBNAME"],
                           user=env["POSTGRES_USER"], password=env.get("POSTGRES_PASSWORD") or None,
                           connect_timeout=int(env.get("POSTGRES_CONNECT_TIMEOUT") or 5), autocommit=True)


@contextmanager
def schema_lock(env: Mapping[str, str]) -> Iterator[None]:
    """Holds a session advisory lock on the database while the store creates its schema."""
    import psycopg

    try:
        conn = pg_connect(env)
    except psycopg.OperationalError as exc:
        raise OperationalError(str(exc)) from exc
    with conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))


class LogCursor:
    """A place in the notification log, and the topics read past it: each `read()` yields the
    notifications logged since the last one (oldest first) and moves the place on a page at a
    time, after the reader has taken the page, so a reader that fails mid-page reads it again."""

    def __init__(self, store: BattleStore, topics: Sequence[str], page: int = 500):
        self._store = store
        self._topics = list(topics)
        self._page = page
        self.position: int | None = None

    def read(self) -> Iterator[Notification]:
        while True:
            page = self._store.recorder.select_notifications(self.position, self._page, topics=self._topics,
                                                             inclusive_of_start=self.position is None)
            if not page:
                return
            yield from page
            self.position = page[-1].id


class StateCache:
    """Recent states by battle. A load reads only the events after the cached version."""

    def __init__(self, size: int = 1024):
        self._size = size
        self._states: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        return self._size

    def get(self, key: str) -> Any | None:
        with self._lock:
            state = self._states.get(key)
            if state is not None:
                self._states.move_to_end(key)
            return state

    def put(self, key: str, state: Any) -> None:
        with self._lock:
            current = self._states.get(key)
            if current is not None and current.seq > state.seq:
                return
            self._states[key] = state
            self._states.move_to_end(key)
            while len(self._states) > self._size:
                self._states.popitem(last=False)

    def drop(self, key: str) -> None:
        with self._lock:
            self._states.pop(key, None)


def encode_snapshot(state: Any) -> dict[str, Any]:
    """A state as stored, with the version of its ruleset installed when it was written: the
    code that folded it, which a later version's code need not read the same way."""
    return {"installed": get_ruleset(state.created.ruleset).version, "seq": state.seq, "chain": state.chain, "created": event_data(state.created),
            "game": msgspec.to_builtins(state.game),
            "outcome": msgspec.to_builtins(state.outcome) if state.outcome else None,
            **({"clock": msgspec.to_builtins(state.clock)} if state.clock is not None else {})}
