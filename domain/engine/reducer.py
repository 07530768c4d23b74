"""A ruleset's `evolve`: one small function per event type, found by the event's class.

The engine's own events mean the same in every game, so their handlers live here: an
`EffectTriggered` only explains the log, a `ChoiceLocked` adds a secret choice to the
state's pending round, and a `ChoicesRevealed` closes it. They work on any state that keeps
its pending choice round (`PendingChoices`) in a `choices` field. A ruleset overrides one by
registering its own handler for that type (ring applies the revealed picks); registering a
type twice within one ruleset is refused, naming both places.
"""
from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from msgspec.structs import replace

from .choices import ChoiceLocked, ChoicesRevealed
from .events import Event
from .hooks import EffectTriggered, HandlerTable, unchanged
from .registry import Registry, caller_place

S = TypeVar("S")
Handler = Callable[[Any, Any], Any]


def _lock(e: ChoiceLocked, s: Any) -> Any:
    return replace(s, choices=s.choices.with_lock(e.seat, e.choice))


def _reveal(e: ChoicesRevealed, s: Any) -> Any:
    return replace(s, choices=None)


ENGINE_HANDLERS: dict[type, Handler] = {EffectTriggered: unchanged, ChoiceLocked: _lock, ChoicesRevealed: _reveal}


class Reducer(HandlerTable, Generic[S]):
    """`evolve = Reducer("mygame")`; `@evolve.on()` over `def _(e: UnitMoved, s: Board) -> Board`."""

    def __init__(self, game: str):
        self.game = game
        self._own: Registry[type, Handler] = Registry(f"{game} evolve handler for")
        # read by the resolver too (`HandlerTable`), so a handler registered later is seen there
        self.handlers: dict[type, Handler] = dict(ENGINE_HANDLERS)

    def on(self, *types: type) -> Callable[[Handler], Handler]:
        """Register a handler for the given event types, or for its first parameter's type."""
        place = caller_place(2)

        def register(fn: Handler) -> Handler:
            for event_type in types or (_first_param_type(fn),):
                self._own.add(event_type, fn, place)
                self.handlers[event_type] = fn
            return fn
        return register

    def unchanged(self, *types: type) -> None:
        """Register the given event types as changing no state (`hooks.unchanged`)."""
        place = caller_place(2)
        for event_type in types:
            self._own.add(event_type, unchanged, place)
            self.handlers[event_type] = unchanged

    def __call__(self, state: S | None, event: Event) -> S:
        # No `typing.cast` around the result (a handler returns Any): this runs for every event.
        handler = self.handlers.get(type(event))
        if handler is None:
            raise TypeError(f"{self.game} cannot apply {event.TOPIC}")
        return handler(event, state)


def _first_param_type(fn: Handler) -> type:
    hints = typing.get_type_hints(fn)
    first = fn.__code__.co_varnames[0]
    found = hints.get(first)
    if not isinstance(found, type):
        raise TypeError(f"{fn.__qualname__}: annotate the event parameter with one event class, "
                        f"or name the classes in on(...)")
    return found
