"""A queue's state, folded from its events: `evolve` only records what the events say; what
a wave pairs is decided in `decide.py`."""
from __future__ import annotations

from collections.abc import Iterable
from functools import singledispatch

import msgspec

from domain.engine.chain import GENESIS, chain_folded
from domain.engine.events import Event, Recorded

from .events import TicketCancelled, TicketOpened, TicketsPaired


class Seated(msgspec.Struct, frozen=True, kw_only=True):
    """Where a wave put a ticket: its battle and seat."""
    battle_id: str
    seat: str
    at_ms: int


class QueueState(msgspec.Struct, frozen=True, kw_only=True):
    queue: str
    seq: int = 0
    chain: str = GENESIS
    waiting: dict[str, TicketOpened] = {}         # ticket -> its opening, in the order opened
    tickets: dict[str, TicketOpened] = {}         # every ticket ever opened
    seated: dict[str, Seated] = {}                # ticket -> the battle a wave put it in
    cancelled: frozenset[str] = frozenset()
    last_opponent: dict[str, str] = {}            # player -> their opponent in their last battle here
    last_wave_ms: int | None = None

    def waiting_ticket_of(self, player: str) -> str | None:
        return next((t for t, opened in self.waiting.items() if opened.player == player), None)


def evolve_queue(state: QueueState, rec: Recorded) -> QueueState:
    return msgspec.structs.replace(_evolve(rec.event, state), seq=rec.seq, chain=rec.chain)


@singledispatch
def _evolve(event: Event, state: QueueState) -> QueueState:
    raise TypeError(f"not a queue event: {event.TOPIC}")


@_evolve.register
def _(event: TicketOpened, state: QueueState) -> QueueState:
    return msgspec.structs.replace(state, waiting={**state.waiting, event.ticket: event},
                                   tickets={**state.tickets, event.ticket: event})


@_evolve.register
def _(event: TicketCancelled, state: QueueState) -> QueueState:
    waiting = {t: o for t, o in state.waiting.items() if t != event.ticket}
    return msgspec.structs.replace(state, waiting=waiting, cancelled=state.cancelled | {event.ticket})


@_evolve.register
def _(event: TicketsPaired, state: QueueState) -> QueueState:
    seated = dict(state.seated)
    last = dict(state.last_opponent)
    for pairing in event.pairings:
        for seat, ticket in pairing.seats.items():
            seated[ticket] = Seated(battle_id=pairing.battle_id, seat=seat, at_ms=event.at_ms)
        players = [state.tickets[t].player for t in pairing.seats.values()]
        players += [f"house:{bot}" for bot in pairing.house.values()]
        if len(players) == 2:
            last[players[0]], last[players[1]] = players[1], players[0]
    waiting = {t: o for t, o in state.waiting.items() if t not in seated}
    return msgspec.structs.replace(state, waiting=waiting, seated=seated, last_opponent=last,
                                   last_wave_ms=event.at_ms)


def chain_events(state: QueueState, events: Iterable[Event]) -> tuple[QueueState, list[Recorded]]:
    """Record `events` after the head, each hash-chained to the one before, and fold them."""
    return chain_folded(state, events, evolve_queue)


def fold_queue(queue: str, records: Iterable[Recorded], state: QueueState | None = None) -> QueueState:
    state = state or QueueState(queue=queue)
    for rec in records:
        state = evolve_queue(state, rec)
    return state
