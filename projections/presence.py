"""Presence: which seats of a battle hold a stream open now, and since when.

A seat is connected while at least one stream (WebSocket or SSE) opened with its seat token is
open; `since_ms` is when the earliest of those opened, on the clock the battle's commands are
accepted by. A spectator's stream is not presence. A house seat belongs to the service, which
plays it without a stream: it shows as connected, marked `"house": true`. Presence is about
connections only, so it shows nothing hidden, and it is never written to the log.

In one process the connections are counted in memory. With Redis every worker keeps its own in
one hash per battle, `{prefix}:presence:{battle_id}`, a field per (worker, seat) holding its
count, the earliest open time and `until`, the wall time the field lapses at. A worker rewrites
its fields every `refresh` seconds, and a reader skips lapsed ones, so the connections of a
worker that died stop counting within `LAPSES * refresh` seconds; the hash itself expires once
no worker refreshes it.

Every change in this process (a seat's first connection here, its last one closing, or its
earliest one closing) is handed to `notify` with the battle's whole presence as every worker
sees it: the live hub sends it to each stream of the battle that asked for presence, on every
worker (projections/live.py). With Redis the write and the read behind that message are made by
the presence thread, so opening or closing a stream never waits on Redis.
"""
from __future__ import annotations

import bisect
import logging
import queue
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

import orjson

from domain.engine.table import house_bot
from domain.writer import wall_ms     # real wall time for lapsing fields: a battle's `now_ms` may be a test's

log = logging.getLogger(__name__)
REFRESH_SECONDS = 5.0
LAPSES = 3                  # refreshes a worker may miss before its connections stop counting
DOWN_SECONDS = 1.0          # after a failed read, views show this worker's connections only, this long
Notify = Callable[[str, bytes], None]       # (battle id, the presence message)
Players = Mapping[str, object]              # a battle's seats and who plays them (`BattleCreated.players`)
Change = tuple[str, str, Players]           # (battle id, seat, its players): a seat's presence here changed
REFRESH: Change = ("", "", {})              # no change: time to refresh


def presence_json(players: Players, since: Mapping[str, int]) -> dict[str, dict[str, Any]]:
    """Every seat of the table: connected or not, since when, and whether the house plays it."""
    shown = {}
    for seat, entry in players.items():
        house = house_bot(entry) is not None
        shown[seat] = {"connected": house or seat in since, "since_ms": None if house else since.get(seat),
                       "house": house}
    return shown


def presence_message(battle_id: str, players: Players, since: Mapping[str, int]) -> bytes:
    """What a stream that asked for presence is sent: `{"type": "presence", ...}`."""
    return orjson.dumps({"type": "presence", "battle_id": battle_id, "presence": presence_json(players, since)})


class Connection:
    """One open stream of a seat; `close` once it ends (again is a no-op)."""
    __slots__ = ("presence", "battle_id", "seat", "opened_ms", "players", "closed")

    def __init__(self, presence: "Presence", battle_id: str, seat: str, opened_ms: int, players: Players):
        self.presence, self.battle_id, self.seat = presence, battle_id, seat
        self.opened_ms, self.players = opened_ms, players
        self.closed = False

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.presence.leave(self)


class Presence:
    """This process's seat connections, and the whole battle's with the other workers' (Redis)."""

    def __init__(self, notify: Notify, now_ms: Callable[[], int], redis_url: str | None = None,
                 prefix: str = "ringside", refresh: float = REFRESH_SECONDS):
        self.notify = notify
        self.now_ms = now_ms
        self.prefix = prefix
        self.refresh = refresh
        self.worker = uuid.uuid4().hex
        # battle id -> seat -> the open times of its streams here, earliest first
        self._opened: dict[str, dict[str, list[int]]] = {}
        self._lock = threading.Lock()
        self._redis: Any = None
        self._down_until = 0.0      # monotonic: Redis failed a read; views do not wait on it till then
        if redis_url is not None:
            import redis

            self._redis = redis.Redis.from_url(redis_url, socket_timeout=2, socket_connect_timeout=2)
        self._changes: queue.SimpleQueue[Change | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    # -- connections (from the streams' event loops: no I/O here) --------------------------
    def join(self, battle_id: str, seat: str, players: Players) -> Connection:
        opened = self.now_ms()
        with self._lock:
            times = self._opened.setdefault(battle_id, {}).setdefault(seat, [])
            changed = not times or opened < times[0]
            bisect.insort(times, opened)
        if changed:
            self._changed(battle_id, seat, players)
        return Connection(self, battle_id, seat, opened, players)

    def leave(self, connection: Connection) -> None:
        battle_id, seat = connection.battle_id, connection.seat
        with self._lock:
            seats = self._opened.get(battle_id, {})
            times = seats.get(seat, [])
            if connection.opened_ms not in times:
                return
            changed = times[0] == connection.opened_ms and (len(times) == 1 or times[1] != times[0])
            times.remove(connection.opened_ms)
            if not times:
                seats.pop(seat, None)
            if not seats:
                self._opened.pop(battle_id, None)
        if changed:
            self._changed(battle_id, seat, connection.players)

    def _changed(self, battle_id: str, seat: str, players: Players) -> None:
        """Tell every stream of the battle: at once in one process; through the presence
        thread, once Redis has the change, with Redis."""
        if self._redis is None:
            self.notify(battle_id, self.message(battle_id, players))
        else:
            self._changes.put((battle_id, seat, players))

    # -- reading ---------------------------------------------------------------------------
    def since(self, battle_id: str) -> dict[str, int]:
        """The connected seats (house seats aside) and since when, across every worker."""
        with self._lock:
            found = {seat: times[0] for seat, times in self._opened.get(battle_id, {}).items()}
        if self._redis is None or time.monotonic() < self._down_until:
            return found
        try:
            fields = self._redis.hgetall(self.key(battle_id))
        except Exception as exc:        # Redis down: this worker's own connections still show
            log.warning("presence read from Redis failed (%s); showing this worker's only", exc)
            self._down_until = time.monotonic() + DOWN_SECONDS
            return found
        now = wall_ms()
        for name, raw in fields.items():
            worker, _, seat = name.decode().partition("|")
            held = orjson.loads(raw)
            if worker != self.worker and held["until"] > now:
                found[seat] = min(found.get(seat, held["since"]), held["since"])
        return found

    def of(self, battle_id: str, players: Players) -> dict[str, dict[str, Any]]:
        """The `presence` of a view: every seat of the table."""
        return presence_json(players, self.since(battle_id))

    def message(self, battle_id: str, players: Players) -> bytes:
        return presence_message(battle_id, players, self.since(battle_id))

    # -- the Redis side --------------------------------------------------------------------
    def key(self, battle_id: str) -> str:
        return f"{self.prefix}:presence:{battle_id}"

    def start(self) -> None:
        if self._redis is not None and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="presence", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        """Write each change and tell the battle's streams; refresh every field held here."""
        due = time.monotonic() + self.refresh
        while True:
            try:
                change = self._changes.get(timeout=max(0.0, due - time.monotonic()))
            except queue.Empty:
                change = REFRESH
            if change is None:
                return
            if time.monotonic() >= due:
                due = time.monotonic() + self.refresh
                self._write(self._held())
            if change is not REFRESH:
                battle_id, seat, players = change
                self._write({battle_id: self._held(battle_id).get(battle_id, {})}, seat)
                # Told even when Redis failed the write: the streams here still hear of it.
                self.notify(battle_id, self.message(battle_id, players))

    def _held(self, battle_id: str | None = None) -> dict[str, dict[str, tuple[int, int]]]:
        """(count, earliest open time) per seat held here, of one battle or all of them."""
        with self._lock:
            battles = self._opened if battle_id is None else {battle_id: self._opened.get(battle_id, {})}
            return {bid: {seat: (len(times), times[0]) for seat, times in seats.items()}
                    for bid, seats in battles.items()}

    def _write(self, held: dict[str, dict[str, tuple[int, int]]], gone: str | None = None) -> None:
        """Rewrite this worker's fields of each battle in `held`, each lapsing `LAPSES`
        refreshes from now; `gone`, a seat of the one battle written, is deleted if not held.
        With Redis down nothing is written: the next refresh writes everything again, and a
        field left behind lapses."""
        try:
            self._write_fields(held, gone)
        except Exception as exc:
            log.warning("presence write to Redis failed (%s)", exc)

    def _write_fields(self, held: dict[str, dict[str, tuple[int, int]]], gone: str | None) -> None:
        lapse_ms = int(LAPSES * self.refresh * 1000)
        until = wall_ms() + lapse_ms
        pipe = self._redis.pipeline(transaction=False)
        for battle_id, seats in held.items():
            key = self.key(battle_id)
            if gone is not None and gone not in seats:
                pipe.hdel(key, f"{self.worker}|{gone}")
            for seat, (count, since) in seats.items():
                pipe.hset(key, f"{self.worker}|{seat}", orjson.dumps({"n": count, "since": since, "until": until}))
            if seats:
                pipe.pexpire(key, lapse_ms)
        pipe.execute()

    def close(self) -> None:
        """Stop the thread, and take this worker's connections out of Redis at once."""
        if self._thread is not None:
            self._changes.put(None)
            self._thread.join(timeout=3)
            self._thread = None
        if self._redis is None:
            return
        try:
            pipe = self._redis.pipeline(transaction=False)
            for battle_id, seats in self._held().items():
                for seat in seats:
                    pipe.hdel(self.key(battle_id), f"{self.worker}|{seat}")
            pipe.execute()
        except Exception as exc:
            log.warning("presence cleanup in Redis failed (%s); the fields lapse by themselves", exc)
        self._redis.close()
