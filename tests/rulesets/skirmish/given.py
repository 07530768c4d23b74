"""Given/when/then helpers for skirmish rule tests: build a `Skirmish` in combat directly,
with units where a test puts them, and run one command."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

import msgspec
import pytest
from msgspec.structs import replace

from domain.engine.errors import RuleViolation
from domain.engine.events import Command, Event
from domain.engine.rng import Rng
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.content import CONTENT
from domain.rulesets.skirmish.decide import decide
from domain.rulesets.skirmish.evolve import evolve
from domain.rulesets.skirmish.state import SEATS, Chip, Params, Player, Skirmish, Unit

E = TypeVar("E", bound=Event)
FILLER = ("caster_skill",) * 5      # a deck that is not empty, so nobody loses by drawing


def unit(key: str, cell: tuple[int, int] | None, **changes: Any) -> Unit:
    """`unit("p1.ember", (3, 1))`: a fielded character at a tile, with its content numbers;
    `effects=["prowess"]` gives it effects (given by its own seat unless `by` is said)."""
    seat, character = key.split(".")
    c = CONTENT.characters[character]
    power, armor = CONTENT.stats(character)
    by = changes.pop("by", seat)
    chips = tuple(Chip(kind, by) for kind in changes.pop("effects", ()))
    base = Unit(key=key, seat=seat, character=character, cls=c.cls, ranged=CONTENT.classes[c.cls].ranged,
                power=power, armor=armor, talent=c.talent, fielded=True, cell=cell, chips=chips)
    return replace(base, **changes)


def skirmish(*units: Unit, active: str = "p1", turn: int = 1, board: str = "meadow", mode: str = "duel",
             params: Params | None = None, **players: Mapping[str, Any]) -> Skirmish:
    """A skirmish in combat, `active`'s turn `turn`. `p1={"hand": [...], "ap": 3, "deck": [...]}`
    sets a player's piles and numbers; a deck not given is `FILLER`."""
    parts = {}
    for seat in SEATS:
        given = dict(players.get(seat, {}))
        given.setdefault("deck", FILLER)
        given = {k: tuple(v) if isinstance(v, (list, tuple)) else v for k, v in given.items()}
        parts[seat] = Player(seat=seat, units=tuple(u.key for u in units if u.seat == seat), **given)
    return Skirmish(params=params or Params(), mode=mode, board=board, p1=parts["p1"], p2=parts["p2"],
                    units={u.key: u for u in units}, phase="combat", turn=turn, active=active, first_player="p1")


def decide_after(state: Skirmish, seat: str, cmd: Command | Mapping[str, Any], seed: bytes = b"x") -> list[Event]:
    command = cmd if isinstance(cmd, Command) else RULESET.codec.parse(dict(cmd))
    return list(decide(state, seat, command, Rng(seed)).events)


def refused(state: Skirmish, seat: str, cmd: Command | Mapping[str, Any], match: str) -> None:
    """The command is refused with a RuleViolation: nothing is appended."""
    with pytest.raises(RuleViolation, match=match):
        decide_after(state, seat, cmd)


def after(state: Skirmish | None, events: Iterable[Event]) -> Skirmish:
    for event in events:
        state = evolve(state, event)
    assert state is not None
    return state


def play(state: Skirmish, seat: str, cmd: Command | Mapping[str, Any], seed: bytes = b"x") -> tuple[list[Event], Skirmish]:
    """Decide and apply: the events and the state they lead to."""
    events = decide_after(state, seat, cmd, seed)
    return events, after(state, events)


def of_type(events: Iterable[Event], cls: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, cls)]


def topics(events: Iterable[Event]) -> list[str]:
    """Event type names without the `skirmish.`/`engine.` prefix."""
    return [e.TOPIC.split(".", 1)[1] for e in events]


def legal(state: Skirmish, seat: str) -> list[dict[str, Any]]:
    return [msgspec.to_builtins(RULESET.codec.wire(c)) for c in RULESET.legal_commands(state, seat)]
