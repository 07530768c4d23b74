"""A queue's audit: re-derive every recorded wave from the log and compare.

Each record's hash must chain from the one before, and its time may not go back. A ticket
opens and is cancelled as the rules allow (one waiting ticket per player). Each
`TicketsPaired` must be exactly what
`decide.pairings` makes of the queue's state just before it at its recorded time: the same
battles, the same ticket at each seat, the same house seats, in the same order (the battle
ids are the wave's own inputs, recorded; they must be distinct). A hand-edited pairing fails
at its wave. The audit needs nothing but the log: the wave reads only what the tickets
recorded (rating, time, last opponents), never a secret.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, cast

import orjson

from domain.engine.chain import link_fault
from domain.engine.errors import RingsideError
from domain.engine.events import Recorded

from .decide import cancel_ticket, open_ticket, pairings
from .events import TicketCancelled, TicketOpened, TicketsPaired
from .formats import QueueFormat, queue_format
from .state import QueueState, evolve_queue


def audit_queue(queue_id: str, records: Sequence[Recorded]) -> dict[str, Any]:
    """{"status": "ok"|"fail", "queue", "events", "waves", "battles", "head", "digest",
    "failure": {"seq", "reason"}|None, "summary": [lines]}"""
    fmt = queue_format(queue_id)
    state, waves, battles = QueueState(queue=queue_id), 0, 0
    seen: set[str] = set()
    failure: dict[str, Any] | None = None
    latest = 0
    for rec in records:
        reason = _check(state, fmt, rec, seen, latest)
        if reason is not None:
            failure = {"seq": rec.seq, "reason": reason}
            break
        if isinstance(rec.event, TicketsPaired):
            waves += 1
            battles += len(rec.event.pairings)
            seen |= {p.battle_id for p in rec.event.pairings}
        state = evolve_queue(state, rec)
        latest = cast(QueueEvent, rec.event).at_ms
    head = state.chain if records else None
    digest = hashlib.sha256(orjson.dumps({"queue": queue_id, "head": head, "waves": waves})).hexdigest()
    report: dict[str, Any] = {"status": "fail" if failure else "ok", "queue": queue_id, "events": len(records),
                              "waves": waves, "battles": battles, "head": head,
                              "digest": None if failure else digest, "failure": failure}
    report["summary"] = summary(report)
    return report


QueueEvent = TicketOpened | TicketCancelled | TicketsPaired
QUEUE_EVENTS = (TicketOpened, TicketCancelled, TicketsPaired)


def _check(state: QueueState, fmt: QueueFormat, rec: Recorded, seen: set[str], latest: int) -> str | None:
    """Why `rec` may not follow `state`, the latest time recorded so far being `latest` (None:
    it may). A log the rules could not have written fails here, never with an error of the
    audit's own."""
    fault = link_fault(state.seq, state.chain, rec)
    if fault is not None:
        return fault
    event = rec.event
    if not isinstance(event, QUEUE_EVENTS):
        return f"{event.TOPIC} is no queue's event"
    if event.at_ms < latest:
        return f"its time {event.at_ms} is before the queue's latest, {latest}"
    try:
        if isinstance(event, TicketOpened):
            if event.queue != fmt.id or event.ticket in state.tickets:
                return f"ticket {event.ticket} is not a new ticket of this queue"
            open_ticket(state, fmt, ticket=event.ticket, player=event.player, rating=event.rating,
                        at_ms=event.at_ms, setup=None, seat_token_hash="")
        elif isinstance(event, TicketCancelled):
            opened = state.tickets.get(event.ticket)         # its owner cancels it: anyone else finds none
            cancel_ticket(state, event.ticket, opened.player if opened else "", event.at_ms)
        else:
            return _check_wave(state, fmt, event, seen)
    except RingsideError as refused:
        return refused.message
    return None


def _check_wave(state: QueueState, fmt: QueueFormat, event: TicketsPaired, seen: set[str]) -> str | None:
    derived = pairings(state, fmt, event.at_ms)
    recorded = [(dict(p.seats), dict(p.house)) for p in event.pairings]
    if recorded != derived:
        return (f"the wave at {event.at_ms} paired {_shown(recorded)}; the rules pair {_shown(derived)} "
                "from the tickets waiting then")
    ids = [p.battle_id for p in event.pairings]
    if len(set(ids)) != len(ids) or seen & set(ids):
        return "a battle id is used twice"
    return None


def _shown(found: list[tuple[dict[str, str], dict[str, str]]]) -> str:
    battles = []
    for seats, house in found:
        named = {**seats, **{seat: f"house:{bot}" for seat, bot in house.items()}}
        battles.append(", ".join(f"{seat}={who}" for seat, who in sorted(named.items())))
    return "[" + "; ".join(battles) + "]"


def summary(report: dict[str, Any]) -> list[str]:
    lines = [f"queue {report['queue']}: {report['events']} events, {report['waves']} waves, "
             f"{report['battles']} battles"]
    if report["failure"] is not None:
        lines.append(f"FAIL at seq {report['failure']['seq']}: {report['failure']['reason']}")
    else:
        lines.append(f"ok · head {report['head']} · digest {report['digest']}")
    return lines
