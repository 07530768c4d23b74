"""The `Queues` service: open and cancel tickets, run pairing waves, tell a ticket's owner
its battle.

Each queue is an aggregate of its own in the battles' store, hash-chained like a set. A wave
saves its `TicketsPaired` and every battle it made in one transaction, so a ticket is paired
once or not at all: two workers running the same wave append at the same queue version, the
store refuses the second, which reloads and finds the tickets paired.

A ticket's seat token is never stored: it is derived from the owner's player token and the
ticket id (`seat_token`), and only its hash goes into the ticket and the battle. So any
worker can hand it to the owner, who proves ownership with the player token, and to nobody
else.
"""
from __future__ import annotations

import random
import secrets
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError

from domain.access import derived_token, token_hash
from domain.ai import check_house_players
from domain.battles import Battles, utc_now
from domain.engine.battle import BattleState, open_battle
from domain.engine.events import Event, Recorded
from domain.players import Players, RatingOf, not_rated, rating_or_new
from domain.store import QUEUE_TICKET_TOPIC, StoredBlob, StoredRecord

from .decide import (UnknownTicket, cancel_ticket, check_setup_part, decide_wave, open_ticket, wave_due)
from .events import Pairing, TicketsPaired
from .formats import QueueFormat, queue_format, queue_formats
from .state import QueueState, chain_events, fold_queue

QUEUES_NS = uuid.UUID("a7c3e1f0-2b4d-4c8e-9f61-3d5a7b9c1e02")
TICKETS_NS = uuid.UUID("5e2d8c4a-1f3b-4a6e-8d7c-9b0a2e4f6c13")
RETRIES = 8
BACKOFF_SECONDS = 0.005   # the most a retry waits, times its number


def queue_uuid(queue_id: str) -> uuid.UUID:
    return uuid.uuid5(QUEUES_NS, queue_id)


def seat_token(player_token: str, ticket: str) -> str:
    """The seat token of `ticket`'s battle, known only to whoever holds the player token."""
    return derived_token(player_token, f"seat {ticket}")


class Queues:
    """Tickets and waves for every queue in `queues.toml`."""

    def __init__(self, battles: Battles, players: Players,
                 rating_of: RatingOf = not_rated):
        self.battles = battles
        self.players = players
        self.rating_of = rating_of
        self._states: dict[str, QueueState] = {}
        self._lock = threading.Lock()
        # One writer per queue in this process: its threads would only refuse each other at the
        # store. Other workers still may, and are retried (`_append`).
        self._writing = {queue_id: threading.Lock() for queue_id in queue_formats()}

    # -- reading ---------------------------------------------------------------------------
    def state(self, queue_id: str) -> QueueState:
        """The queue as stored now (this process keeps the fold, and reads only what is new)."""
        queue_format(queue_id)
        with self._lock:
            held = self._states.get(queue_id) or QueueState(queue=queue_id)
        newer = self.battles.store.stored_records(queue_uuid(queue_id), gt=held.seq)
        state = fold_queue(queue_id, newer, held)
        with self._lock:
            if state.seq >= self._states.get(queue_id, held).seq:
                self._states[queue_id] = state
        return state

    def records(self, queue_id: str) -> list[Recorded]:
        queue_format(queue_id)
        return self.battles.store.stored_records(queue_uuid(queue_id))

    def listing(self) -> list[dict[str, Any]]:
        """Every queue with its format and how many tickets wait."""
        return [{"queue": fmt.id, "ruleset": fmt.ruleset, "clock": fmt.clock, "seats": list(fmt.seats),
                 "house": fmt.house, "setup": fmt.setup, "setup_parts": fmt.setup_parts,
                 "wave_s": fmt.wave_s, "min_wave": fmt.min_wave, "backfill_after_s": fmt.backfill_after_s,
                 "waiting": len(self.state(fmt.id).waiting)} for fmt in queue_formats().values()]

    def ticket(self, ticket: str, player_token: str | None) -> dict[str, Any]:
        """The ticket as its owner sees it: waiting, cancelled, or paired with its battle, seat
        and seat token. Anyone else is told nothing of it (404, as for no ticket)."""
        return self.follow(ticket, player_token)()

    def follow(self, ticket: str, player_token: str | None) -> Callable[[], dict[str, Any]]:
        """The ticket as its owner sees it (`ticket`), read again at each call: the token and
        the ticket's queue are looked up once, here, for a caller that asks again and again."""
        player = self.players.player_of(player_token)
        assert player_token is not None
        queue_id = self._queue_of(ticket)

        def shown() -> dict[str, Any]:
            state = self.state(queue_id)
            opened = state.tickets.get(ticket)
            if opened is None or opened.player != player:
                raise UnknownTicket(f"no ticket {ticket!r} of yours", ticket=ticket)
            found: dict[str, Any] = {"ticket": ticket, "queue": queue_id, "player": player,
                                     "opened_ms": opened.at_ms}
            seated = state.seated.get(ticket)
            if seated is not None:
                return {**found, "status": "paired", "battle_id": seated.battle_id, "seat": seated.seat,
                        "seat_token": seat_token(player_token, ticket), "paired_ms": seated.at_ms}
            return {**found, "status": "cancelled" if ticket in state.cancelled else "waiting"}
        return shown

    def _queue_of(self, ticket: str) -> str:
        try:
            key = uuid.uuid5(TICKETS_NS, str(uuid.UUID(str(ticket))))
        except ValueError:
            raise UnknownTicket(f"no ticket {ticket!r}", ticket=str(ticket)) from None
        found = self.battles.store.stored_blob(key)
        if found is None:
            raise UnknownTicket(f"no ticket {ticket!r}", ticket=str(ticket))
        return str(found.body["queue"])

    # -- writing ---------------------------------------------------------------------------
    def open(self, queue_id: str, player_token: str | None, setup: object = None) -> dict[str, Any]:
        """A ticket for the token's player; nothing is stored for a refusal."""
        fmt = queue_format(queue_id)
        player = self.players.player_of(player_token)
        assert player_token is not None
        part = check_setup_part(fmt, setup)
        ticket = str(uuid.uuid4())
        rating = rating_or_new(self.rating_of, fmt.ruleset, player)
        for attempt in self._attempts(queue_id):
            state = self.state(queue_id)
            events = open_ticket(state, fmt, ticket=ticket, player=player,
                                 rating=rating,
                                 at_ms=self.battles.now_ms(), setup=part,
                                 seat_token_hash=token_hash(seat_token(player_token, ticket)))
            index = StoredBlob(uuid.uuid5(TICKETS_NS, ticket), 1, QUEUE_TICKET_TOPIC, {"queue": queue_id})
            if self._append(state, events, [index], attempt):
                return {"ticket": ticket, "queue": queue_id, "player": player, "status": "waiting"}
        raise AssertionError("unreachable")

    def cancel(self, ticket: str, player_token: str | None) -> dict[str, Any]:
        player = self.players.player_of(player_token)
        queue_id = self._queue_of(ticket)
        for attempt in self._attempts(queue_id):
            state = self.state(queue_id)
            if self._append(state, cancel_ticket(state, ticket, player, self.battles.now_ms()), [], attempt):
                return {"ticket": ticket, "queue": queue_id, "player": player, "status": "cancelled"}
        raise AssertionError("unreachable")

    def _attempts(self, queue_id: str) -> Iterator[int]:
        """Attempt numbers for one write to the queue, each holding this process's writer lock;
        after a refusal (another worker wrote first) the next waits a little, at random."""
        for attempt in range(RETRIES + 1):
            if attempt:
                time.sleep(random.uniform(0, BACKOFF_SECONDS * attempt))
            with self._writing[queue_id]:
                yield attempt

    def _append(self, state: QueueState, events: Sequence[Event], extra: list[Any], attempt: int) -> bool:
        """Save `events` after `state`; False when another writer got there first (retry)."""
        _, records = chain_events(state, events)
        try:
            self.battles.writer.write([*(StoredRecord(queue_uuid(state.queue), r) for r in records), *extra])
        except IntegrityError:
            if attempt == RETRIES:
                raise
            return False
        return True

    def wave(self, queue_id: str) -> TicketsPaired | None:
        """Run a pairing wave now: its event and battles in one transaction; None if it paired
        nobody (nothing is recorded then)."""
        fmt = queue_format(queue_id)
        for attempt in self._attempts(queue_id):
            state = self.state(queue_id)
            at_ms = self.battles.now_ms()
            paired = decide_wave(state, fmt, at_ms, [str(uuid.uuid4()) for _ in state.waiting])
            if paired is None:
                return None
            opened = [self._battle(fmt, state, p, at_ms) for p in paired.pairings]
            _, records = chain_events(state, [paired])
            items: list[Any] = [StoredRecord(queue_uuid(queue_id), r) for r in records]
            for battle, battle_records in opened:
                items += [StoredRecord(uuid.UUID(battle.battle_id), r) for r in battle_records]
            try:
                generation = self.battles.writer.write(items)
            except IntegrityError:
                if attempt == RETRIES:
                    raise
                continue
            for battle, battle_records in opened:
                self.battles.writer.committed_batch(uuid.UUID(battle.battle_id), battle_records, battle, 0,
                                                    generation=generation)
            return paired
        raise AssertionError("unreachable")

    def _battle(self, fmt: QueueFormat, state: QueueState, pairing: Pairing,
                at_ms: int) -> tuple[BattleState, list[Recorded]]:
        """A pairing's battle: each ticket's player and setup part at its seat, the house's bot
        at a seat it fills, the queue's clock from the wave's time."""
        setup = fmt.battle_setup()
        players: dict[str, Any] = {seat: {"bot": bot} for seat, bot in pairing.house.items()}
        hashes: dict[str, str] = {}
        for seat, ticket in pairing.seats.items():
            opened = state.tickets[ticket]
            players[seat] = opened.player
            if opened.setup is not None:
                setup[seat] = opened.setup
            if opened.seat_token_hash is not None:
                hashes[seat] = opened.seat_token_hash
        check_house_players(fmt.ruleset, players)
        spec = fmt.clock_spec
        return open_battle(fmt.rules, battle_id=pairing.battle_id, setup=setup, players=players,
                           revealed=secrets.token_bytes(32), nonces=None, token_hashes=hashes,
                           created_at=utc_now(), private=False, clock=spec,
                           clock_at_ms=at_ms if spec is not None else None)

    def run_due(self) -> list[TicketsPaired]:
        """A wave in every queue that is due one (`wave_due`)."""
        ran = []
        for fmt in queue_formats().values():
            if wave_due(self.state(fmt.id), fmt, self.battles.now_ms()):
                paired = self.wave(fmt.id)
                if paired is not None:
                    ran.append(paired)
        return ran

