"""Simultaneous hidden choices: each seat locks a secret choice; when every awaited seat
has locked, the same batch reveals what is public about them."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any

import msgspec
import orjson

from .errors import RuleViolation
from .events import Command, Event, Seat, secret


class ChoiceLocked(Event, frozen=True, kw_only=True):
    TOPIC = "engine.ChoiceLocked"
    seat: Seat
    kind: str
    choice: Annotated[dict[str, Any] | None, secret(owner="seat")]

    def starts_batch(self) -> bool:
        return True

    def command_wire(self) -> dict[str, object]:
        return {"type": self.kind, **(self.choice or {})}


class ChoicesRevealed(Event, frozen=True, kw_only=True):
    TOPIC = "engine.ChoicesRevealed"
    kind: str
    choices: dict[str, Any]


class PendingChoices(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A choice round in state: who must choose, and the secret choices locked so far.
    Untracked by the cyclic GC, as the states that hold it are: its choices are JSON data."""
    kind: str
    awaiting: tuple[Seat, ...]
    locked: dict[str, dict[str, Any]] = {}

    def waiting_for(self) -> frozenset[Seat]:
        return frozenset(s for s in self.awaiting if s not in self.locked)

    def with_lock(self, seat: Seat, choice: dict[str, Any]) -> "PendingChoices":
        return msgspec.structs.replace(self, locked={**self.locked, seat: choice})


def lock_choice(pending: PendingChoices, seat: Seat, command: Command,
                reveal: Callable[[Seat, Mapping[str, Any]], Any]) -> tuple[list[Event], dict[str, dict[str, Any]] | None]:
    """Lock `seat`'s choice. Returns the events and, when everyone has locked, all choices.

    `reveal(seat, choice)` says what becomes public about a choice (a count, or all of it).
    """
    if seat not in pending.awaiting:
        raise RuleViolation(f"{seat} has no {pending.kind} choice to make")
    if seat in pending.locked:
        raise RuleViolation(f"{seat} has already locked a {pending.kind} choice")
    # JSON-shaped (lists, not tuples), so the live event equals its decoded copy.
    choice = {k: v for k, v in orjson.loads(orjson.dumps(msgspec.to_builtins(command))).items() if k != "type"}
    events: list[Event] = [ChoiceLocked(seat=seat, kind=pending.kind, choice=choice)]
    everyone = {**pending.locked, seat: choice}
    if set(everyone) != set(pending.awaiting):
        return events, None
    ordered = {s: everyone[s] for s in pending.awaiting}
    events.append(ChoicesRevealed(kind=pending.kind, choices={s: reveal(s, c) for s, c in ordered.items()}))
    return events, ordered
