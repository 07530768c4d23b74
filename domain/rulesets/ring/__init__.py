"""`ring`: the monster battler of seed 000. See README.md for every open choice."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from domain.engine.events import Command, Event, Viewer
from domain.engine.rng import Rng
from domain.engine.ruleset import Outcome, register

from . import decide as rules
from .carry import SetRules
from .commands import CODEC
from .content import CONTENT
from .evolve import evolve as _evolve
from .prebattle import start as _start
from .setup import DEFAULT_SETUP, RingSetup, parse_setup, seal_setup, unseal_setup
from .state import SEATS, Params, Ring
from .view import memory_known, view as _view


class RingRuleset:
    id = "ring"
    version = "1.0.0"
    content_hash = CONTENT.hash
    seats = SEATS
    state_type = Ring
    codec = CODEC
    set_rules = SetRules()

    def default_setup(self) -> dict[str, Any]:
        return dict(DEFAULT_SETUP)

    def setup_schema(self) -> dict[str, Any]:
        return {
            "seats": {"deck": f"a preset ({', '.join(CONTENT.decks)}) or {{leader, units: [10 x {{unit, "
                              "equipment?, growth?, slots?, levels?, priorities?}}], items}}",
                      "condition": "unit -> {lp, exs}: what a set carries over (optional)"},
            "battlefield": f"one of {', '.join(CONTENT.battlefields)}, or null (initiative or the RNG decides)",
            "params": msgspec.to_builtins(Params()),
        }

    def content(self) -> dict[str, Any]:
        return CONTENT.as_json()

    def parse_setup(self, raw: Mapping[str, Any]) -> RingSetup:
        return parse_setup(raw)

    def seal_setup(self, raw: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        return seal_setup(raw)

    def unseal_setup(self, public: Mapping[str, Any], sealed: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
        return unseal_setup(public, sealed)

    def withhold_setup(self, setup: Mapping[str, Any]) -> dict[str, Any] | None:
        """Nothing: a ring setup scripts no order, and its inventories are sealed apart."""
        return None

    def start(self, setup: RingSetup, rng: Rng) -> Sequence[Event]:
        return _start(setup, rng)

    def evolve(self, state: Ring | None, event: Event) -> Ring:
        return _evolve(state, event)

    def awaiting(self, state: Ring) -> frozenset[str]:
        return rules.awaiting(state)

    def legal_commands(self, state: Ring, seat: str) -> Sequence[Command]:
        return rules.legal_commands(state, seat)

    def decide(self, state: Ring, seat: str, cmd: Command, rng: Rng) -> Sequence[Event]:
        return rules.decide(state, seat, cmd, rng)

    def view(self, state: Ring, viewer: Viewer) -> dict[str, object]:
        return _view(state, viewer, rules.awaiting(state))

    def outcome(self, state: Ring) -> Outcome | None:
        return rules.outcome(state)

    def memory_turn(self, view: Mapping[str, Any]) -> int:
        return int(view.get("turn_number", 0))

    def memory_known(self, view: Mapping[str, Any], seat: str) -> dict[str, Any]:
        return memory_known(dict(view), seat)


RULESET = register(RingRuleset())
