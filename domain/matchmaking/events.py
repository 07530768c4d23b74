"""A queue's events. Their topics and fields are stored data: the queue's hash chain covers
them, so they never change shape (a change would be a new `class_version` with an upcaster).

A ticket's setup part and its seat token's hash are the server's alone (`server_only`): the
part stays secret to its owner until its battle is public, in the queue's log and audit too.
"""
from __future__ import annotations

from typing import Annotated, Any

import msgspec

from domain.engine.events import Event, server_only


class TicketOpened(Event, frozen=True, kw_only=True):
    TOPIC = "queues.TicketOpened"
    queue: str
    ticket: str
    player: str
    rating: float                           # the player's rating in the queue's ruleset then
    at_ms: int
    setup: Annotated[dict[str, Any] | None, server_only()] = None       # the player's own part
    seat_token_hash: Annotated[str | None, server_only()] = None


class TicketCancelled(Event, frozen=True, kw_only=True):
    TOPIC = "queues.TicketCancelled"
    ticket: str
    at_ms: int


class Pairing(msgspec.Struct, frozen=True, kw_only=True):
    """One battle a wave made: the ticket at each seat, or a house bot's policy for a seat the
    house fills (a ticket that waited `backfill_after_s`)."""
    battle_id: str
    seats: dict[str, str]                   # seat -> ticket id
    house: dict[str, str] = {}              # seat -> house bot policy


class TicketsPaired(Event, frozen=True, kw_only=True):
    """A pairing wave at `at_ms` and the battles it made; a wave that pairs nobody is not
    recorded (the next one decides from the same tickets, waited longer)."""
    TOPIC = "queues.TicketsPaired"
    at_ms: int
    pairings: list[Pairing]
