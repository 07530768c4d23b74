"""The Ruleset protocol every game implements, and the registry the service looks them up in."""
from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

import msgspec

from .errors import UnknownRuleset, quote
from .events import Command, CommandCodec, Event, Seat, Viewer
from .rng import Rng

S = TypeVar("S")


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a battle ended: `winner` is None for a draw."""
    winner: Seat | None
    reason: str


class Ruleset(Protocol[S]):
    id: str
    version: str
    content_hash: str
    seats: tuple[Seat, ...]
    state_type: type
    codec: CommandCodec

    def default_setup(self) -> Mapping[str, Any]: ...
    def setup_schema(self) -> Mapping[str, Any]: ...
    def content(self) -> Mapping[str, Any]: ...
    def parse_setup(self, raw: Mapping[str, Any]) -> Any: ...
    def withhold_setup(self, setup: Mapping[str, Any]) -> dict[str, Any] | None:
        """The public setup as players may see it before the battle is public, or None when it
        hides nothing. A scripted order (a deck that is not shuffled) is hidden information
        like any shuffle: nobody may read it from the setup."""
        ...
    def start(self, setup: Any, rng: Rng) -> Sequence[Event]: ...
    def evolve(self, state: S | None, event: Event) -> S: ...
    def awaiting(self, state: S) -> frozenset[Seat]: ...
    def legal_commands(self, state: S, seat: Seat) -> Sequence[Command]: ...
    def decide(self, state: S, seat: Seat, cmd: Command, rng: Rng) -> Sequence[Event]: ...
    def view(self, state: S, viewer: Viewer) -> Mapping[str, object]: ...
    def outcome(self, state: S) -> Outcome | None: ...


_REGISTRY: dict[str, Ruleset[Any]] = {}
RULESET_PACKAGE = "domain.rulesets"


def register(ruleset: Ruleset[Any]) -> Ruleset[Any]:
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def all_rulesets() -> dict[str, Ruleset[Any]]:
    importlib.import_module(RULESET_PACKAGE)
    return dict(sorted(_REGISTRY.items()))


def get_ruleset(ruleset_id: str) -> Ruleset[Any]:
    found = _REGISTRY.get(ruleset_id)
    if found is not None:
        return found
    known = all_rulesets()
    try:
        return known[ruleset_id]
    except KeyError:
        raise UnknownRuleset(f"unknown ruleset {quote(ruleset_id)}; known: {', '.join(known) or 'none'}",
                             ruleset=ruleset_id) from None
