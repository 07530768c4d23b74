"""Event base, stable topics, visibility markers, the recorded envelope and redaction.

Events are frozen msgspec Structs: cheap to build (about 0.1 us) and typed on decode.
A hidden field is marked with `Annotated[T, secret(owner="seat")]` or
`Annotated[T, server_only()]`; `redact()` is the only function that turns an event into
what a viewer may see, and every channel goes through it.
"""
from __future__ import annotations

import importlib
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import msgspec

from .errors import InvalidInput, ReplayError, RuleViolation, clip, quote

Seat = str


@dataclass(frozen=True)
class Viewer:
    seat: Seat | None = None
    omniscient: bool = False

    @classmethod
    def parse(cls, text: str, seats: Iterable[Seat] | None = None) -> "Viewer":
        """`spectator`, `all` (omniscient) or a seat name such as `p1`; given the battle's
        `seats`, anything else is refused (InvalidInput naming `as`)."""
        if seats is not None and text not in ("spectator", "all", *seats):
            raise InvalidInput("as", f"must be spectator, all or a seat ({', '.join(seats)}), not {quote(text)}",
                               view_as=quote(text))
        if text == "spectator":
            return cls()
        if text == "all":
            return cls(omniscient=True)
        return cls(seat=text)


SPECTATOR = Viewer()
OMNISCIENT = Viewer(omniscient=True)


@dataclass(frozen=True)
class Secret:
    """Visible only to the seat named by the event field `owner` (and omniscient viewers). The
    owner field may also hold a list of seats (a side's seats, who share what they see)."""
    owner: str


def owned_by(owner: object, seat: Seat | None) -> bool:
    """Whether `seat` may see a secret whose owner field holds `owner` (a seat, or a list of them)."""
    if seat is None:
        return False
    return owner == seat or (isinstance(owner, (list, tuple)) and seat in owner)


@dataclass(frozen=True)
class ServerOnly:
    """Visible to nobody but omniscient viewers until the battle is public."""


def secret(owner: str = "seat") -> Secret:
    return Secret(owner)


def server_only() -> ServerOnly:
    return ServerOnly()


_TOPICS: dict[str, type["Event"]] = {}


# Events and records are not tracked by the cyclic garbage collector (`gc=False`): a battle
# keeps thousands of them alive, and each full collection would walk them all for nothing,
# since frozen JSON-shaped data can hold no reference cycle.
class Event(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A past-tense fact. Subclasses set a stable `TOPIC`; renaming a class never breaks data.

    Schema changes raise `class_version` and add `upcast_vN_vN1(data) -> data` static methods.
    Action events (the first of a command batch) set `COMMAND` to the command they echo; an
    event recording a choice the rules made for a side (an enemy AI's move) sets `RULES_ACTION`.
    """
    TOPIC: ClassVar[str] = ""
    class_version: ClassVar[int] = 1
    COMMAND: ClassVar[type[Command] | None] = None
    RULES_ACTION: ClassVar[bool] = False
    OPENS_BATCH: ClassVar[bool] = False       # an engine event that opens a batch the server appends
    _hidden: ClassVar[tuple[tuple[str, Secret | ServerOnly], ...] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        topic = cls.__dict__.get("TOPIC")
        if not topic:
            raise TypeError(f"{cls.__qualname__} must set a TOPIC")
        if topic in _TOPICS and _TOPICS[topic].__qualname__ != cls.__qualname__:
            raise TypeError(f"topic {topic!r} is already used by {_TOPICS[topic].__qualname__}")
        _TOPICS[topic] = cls

    def withheld(self) -> dict[str, Any]:
        """Fields shown in a reduced form to every viewer but omniscient ones until the battle
        is public, by field name: for data whose hidden part depends on its content (a setup
        that scripts a deck order, say), which a field marker cannot express."""
        return {}

    def is_action(self) -> bool:
        """An action some player or the rules chose: the echo of a command, or (with
        `RULES_ACTION`) a choice the rules made for a side no seat plays, such as an enemy's
        move inside the batch that triggered it. AI memory records every action."""
        return type(self).RULES_ACTION or self.starts_batch()

    def starts_batch(self) -> bool:
        """True for action events: the echo of a command, first in its batch; and for the
        engine events that open a batch of their own (a timeout, say)."""
        cls = type(self)
        return cls.COMMAND is not None or cls.OPENS_BATCH

    def acting_seat(self) -> Seat | None:
        """The seat that took an action event (its `seat` field); None for other events. (Not
        named `actor`: an event may have a field of that name, such as the entity acting.)"""
        # mypy cannot narrow on the field check: Event itself declares no `seat`
        return self.seat if "seat" in self.__struct_fields__ else None  # type: ignore[attr-defined]

    def command_wire(self) -> dict[str, object]:
        """The command this action event echoes, as wire JSON (for re-simulation)."""
        command = type(self).COMMAND
        if command is None:
            raise TypeError(f"{self.TOPIC} is not an action event")
        wire: dict[str, object] = {"type": command.wire_type()}
        for name in command.__struct_fields__:
            wire[name] = getattr(self, name)
        return msgspec.to_builtins(wire)


def hidden_fields(cls: type[Event]) -> tuple[tuple[str, Secret | ServerOnly], ...]:
    cached = cls.__dict__.get("_hidden_cache")
    if cached is not None:
        return cached
    marks = []
    for name, hint in typing.get_type_hints(cls, include_extras=True).items():
        for extra in getattr(hint, "__metadata__", ()):
            if isinstance(extra, (Secret, ServerOnly)):
                marks.append((name, extra))
    found = tuple(marks)
    type.__setattr__(cls, "_hidden_cache", found)
    return found


# An event's data: its fields by name, as JSON-ready builtins all the way down (tuples stay
# tuples, a struct an event holds becomes a dict), so that orjson can write it on every
# channel and the typed decode gives the same event back. The builtin itself rather than a
# function around it, since every event of every battle is stored and sent.
event_data: typing.Callable[[Event], dict[str, Any]] = msgspec.to_builtins


# Modules that define event classes (battle.py brings the clock's, timing.py); imported on the first unknown topic, so a fresh
# process can decode any stored event without having imported a ruleset first.
EVENT_MODULES = ("domain.engine.battle", "domain.engine.choices", "domain.engine.hooks", "domain.rulesets",
                 "domain.sets", "domain.matchmaking.events",
                 "domain.tournaments.events")


def topic_class(topic: str) -> type[Event]:
    cls = _TOPICS.get(topic)
    if cls is None:
        for module in EVENT_MODULES:
            importlib.import_module(module)
        cls = _TOPICS.get(topic)
    if cls is None:
        raise ReplayError(f"unknown event type {topic!r}")
    return cls


def decode_event(topic: str, data: Mapping[str, Any], version: int = 1) -> Event:
    """Typed decode of stored or replayed data, upcasting old class versions first."""
    cls = topic_class(topic)
    # A copy only where needed: upcasts may change theirs, and msgspec converts plain dicts.
    payload = dict(data) if version < cls.class_version or type(data) is not dict else data
    while version < cls.class_version:
        upcast = getattr(cls, f"upcast_v{version}_v{version + 1}")
        try:
            payload = upcast(payload)
        except (KeyError, TypeError, ValueError) as exc:   # data that does not have the old shape
            raise ReplayError(f"{topic}: not v{version} data ({type(exc).__name__}: {clip(str(exc), 80)})") from None
        version += 1
    try:
        return msgspec.convert(payload, type=cls)
    except msgspec.ValidationError as exc:
        raise ReplayError(f"{topic}: {exc}") from None


class Recorded(msgspec.Struct, frozen=True, gc=False):     # untracked, as `Event` is
    """An event at its place in a battle: seq (1-based) and its chain hash.

    An event stored under an older `class_version` keeps the data as it was written
    (`written`, at `version`): the chain covers those bytes, while `event` is upcast to
    the current class. Everything that re-sends the event sends what was written.
    """
    seq: int
    event: Event
    chain: str
    written: dict[str, Any] | None = None
    version: int = 1

    @property
    def topic(self) -> str:
        return self.event.TOPIC

    @property
    def data_version(self) -> int:
        """The class version of the data this record carries on the wire and in the store."""
        return self.version if self.written is not None else type(self.event).class_version

    def stored_data(self) -> dict[str, Any]:
        return self.written if self.written is not None else event_data(self.event)


def decode_record(seq: int, topic: str, data: Mapping[str, Any], chain: str, version: int = 1) -> Recorded:
    """A stored or replayed event line; older data is upcast and kept as written."""
    event = decode_event(topic, data, version)
    if version < type(event).class_version:
        return Recorded(seq, event, chain, dict(data), version)
    return Recorded(seq, event, chain)


def redact(event: Event, viewer: Viewer, public: bool) -> tuple[dict[str, Any], bool]:
    """What `viewer` may see of `event`: (data with hidden fields nulled, whether it is whole).

    `public` is true once the battle has ended and is not private: then all is visible.
    """
    data = event_data(event)
    if public or viewer.omniscient:
        return data, True
    whole = True
    for name, mark in hidden_fields(type(event)):
        if isinstance(mark, Secret) and owned_by(data.get(mark.owner), viewer.seat):
            continue
        if data[name] is not None:
            data[name] = None
            whole = False
    for name, shown in event.withheld().items():
        data[name] = shown
        whole = False
    return data, whole


def wire_event(rec: Recorded, viewer: Viewer, public: bool) -> dict[str, Any]:
    """The `{seq, type, data, chain}` message of every channel.

    The chain is sent once the battle is public, and to omniscient viewers; to nobody else,
    not even with an event they see whole: each chain commits to every event before it, so a
    viewer holding two chains around a hidden event could test guesses of its hidden values
    (which of 30 cards) until one hashes right. An event whose data was redacted for the
    viewer says so with `redacted: true`. Data of a class version above 1 says so in `v`.
    A record seen whole is sent as it was written, so its chain still checks; a redacted
    one is sent in the current form.
    """
    data, whole = redact(rec.event, viewer, public)
    version = type(rec.event).class_version
    if whole and rec.written is not None:
        data, version = dict(rec.written), rec.version
    wire = {"seq": rec.seq, "type": rec.event.TOPIC, "data": data,
            "chain": rec.chain if public or viewer.omniscient else None}
    if not whole:
        wire["redacted"] = True
    if version > 1:
        wire["v"] = version
    return wire


class Command(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
              tag_field="type", gc=False):
    """A player's intent. Subclasses pass `tag="play_card"` etc.; the tag is the wire `type`."""

    @classmethod
    def wire_type(cls) -> str:
        """The wire `type` of this command: its msgspec tag, which must be a string."""
        tag = cls.__struct_config__.tag
        if not isinstance(tag, str):
            raise TypeError(f"{cls.__qualname__} needs a string tag, not {tag!r}")
        return tag


class CommandCodec:
    """Parses wire JSON into a ruleset's command types with clear errors."""

    def __init__(self, commands: tuple[type[Command], ...]):
        self.commands = commands
        self.tags = tuple(sorted(c.wire_type() for c in commands))
        # Converting to the one class the tag names, not to the union of them all: msgspec
        # rebuilds a union's type information on every call (about 15 times slower), and
        # the errors read the same.
        self._by_tag = {c.wire_type(): c for c in commands}

    def parse(self, wire: object) -> Command:
        if not isinstance(wire, Mapping):
            raise RuleViolation("a command must be a JSON object with a 'type'")
        kind = wire.get("type")
        command = self._by_tag.get(kind) if isinstance(kind, str) else None
        if command is None:
            raise RuleViolation(f"unknown command type {quote(kind)}; expected one of {', '.join(self.tags)}",
                                type=kind, expected=list(self.tags))
        try:
            return msgspec.convert(wire, type=command)
        except msgspec.ValidationError as exc:
            raise RuleViolation(f"bad {kind} command: {clip(str(exc), 200)}") from None

    @staticmethod
    def wire(command: Command) -> dict[str, object]:
        return msgspec.to_builtins(command)
