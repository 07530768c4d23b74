"""Given/when/then helpers for battleboard rule tests: build a `Battleboard` in a side's turn
directly, with combatants of explicit stats where a test puts them, on terrain the test lays
out, and run one command against dice the test scripts.

Numbers of content actions a test relies on are quoted from `ACTIONS[id]`, never assumed."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

import msgspec
import pytest
from msgspec.structs import replace

from domain.engine.errors import RuleViolation
from domain.engine.events import Command, Event
from domain.rulesets.battleboard import RULESET
from domain.rulesets.battleboard.content import CONTENT, Map
from domain.rulesets.battleboard.decide import decide
from domain.rulesets.battleboard.evolve import evolve
from domain.rulesets.battleboard.state import FOES, GM, HEROES, Battleboard, Combatant, Params, Rules

E = TypeVar("E", bound=Event)
ACTIONS, TOKENS = CONTENT.actions, CONTENT.tokens      # today's content, whose numbers tests quote
PLAIN = (".....",) * 6


class Dice:
    """A scripted rng: each `int(lo, hi)` the rules call takes the next value (the resolver only
    ever calls `int`). A test states every die it expects to be rolled, in order."""

    def __init__(self, *values: int):
        self.values = list(values)

    def int(self, lo: int, hi: int) -> int:
        assert self.values, f"the rules rolled a die in [{lo}, {hi}] the test did not script"
        value = self.values.pop(0)
        assert lo <= value <= hi, f"scripted {value} outside [{lo}, {hi}]"
        return value


def field(*rows: str) -> str:
    """A map of the given rows (row 0, the heroes' edge, first), added to the content for this
    test only (conftest takes it away); returns its id. Legend as in maps.toml."""
    assert len(rows) == 6 and all(len(r) == 5 for r in rows), rows
    key = "test:" + "/".join(rows)
    CONTENT.maps[key] = Map(id=key, name="Test Field", text="", rows=tuple(rows))
    return key


def unit(key: str, cell: tuple[int, int] | None = None, **changes: Any) -> Combatant:
    """`unit("h1", (2, 2), evasion=5)`: a combatant readied for this turn (movement points =
    speed, 2 regular actions, the path starting where it stands). Keys `h1`.. are heroes of that
    seat, any other key a foe of the GM's seat. Stats default to 4 (Resilience 3, all tokens
    untapped, no focus or energy, only Strike)."""
    side = HEROES if key.startswith("h") else FOES
    stats: dict[str, Any] = {"speed": 4, "evasion": 4, "defense": 4, "resilience": 3, "focus_stat": 0,
                             "energy_stat": 0, "actions": ("strike",)}
    stats.update(changes)
    stats.setdefault("untapped", stats["resilience"])
    stats.setdefault("mp", stats["speed"])
    stats.setdefault("slots", 2)
    stats.setdefault("origin", cell)
    stats.setdefault("path", (cell,) if cell is not None else ())
    stats["actions"] = tuple(stats["actions"])
    return Combatant(id=key, side=side, seat=key if side == HEROES else GM, name=key,
                     rank="character" if side == HEROES else "mob", cell=cell, **stats)


def battle(*units: Combatant, active: str = HEROES, rows: tuple[str, ...] = PLAIN, border: int = 3,
           round: int = 1, half: bool = False, params: Params | None = None, rules: Rules | None = None,
           **changes: Any) -> Battleboard:
    """A battle in `active`'s turn of `round` (the heroes went first), heroes before foes in the
    roster, on the given terrain, under today's rule choices unless `rules` says otherwise."""
    roster = [u for u in units if u.side == HEROES] + [u for u in units if u.side == FOES]
    return Battleboard(params=params or Params(), rules=rules or Rules(), map=field(*rows), heroes=tuple(u.id for u in roster if u.side == HEROES),
                       units={u.id: u for u in roster}, phase="turn", winner=HEROES, first=HEROES,
                       active=active, half=half, round=round, turn=2 * round - (active == HEROES),
                       border=border, **changes)


def fresh(state: Battleboard, key: str) -> Battleboard:
    """The combatant gets its actions back (none taken this turn), to act again."""
    return state.with_unit(replace(state.units[key], taken=(), kinds=(), doubled=False))


def decide_after(state: Battleboard, seat: str, cmd: Command | Mapping[str, Any], dice: Iterable[int] = ()) -> list[Event]:
    return play(state, seat, cmd, dice)[0]


def play(state: Battleboard, seat: str, cmd: Command | Mapping[str, Any],
         dice: Iterable[int] = ()) -> tuple[list[Event], Battleboard]:
    """Decide and apply: the events and the state they lead to. Every scripted die is used, and
    folding the events with `evolve` gives the same state the resolver reached."""
    command = cmd if isinstance(cmd, Command) else RULESET.codec.parse(dict(cmd))
    rng = Dice(*dice)
    decision = decide(state, seat, command, rng)  # type: ignore[arg-type]
    assert rng.values == [], f"dice scripted but never rolled: {rng.values}"
    events = list(decision.events)
    assert after(state, events) == decision.state
    assert decision.state is not None
    return events, decision.state


def after(state: Battleboard | None, events: Iterable[Event]) -> Battleboard:
    for event in events:
        state = evolve(state, event)
    assert state is not None
    return state


def refused(state: Battleboard, seat: str, cmd: Command | Mapping[str, Any], match: str, dice: Iterable[int] = ()) -> None:
    """The command breaks a rule: decide raises RuleViolation (so nothing is appended)."""
    with pytest.raises(RuleViolation, match=match):
        decide(state, seat, cmd if isinstance(cmd, Command) else RULESET.codec.parse(dict(cmd)), Dice(*dice))  # type: ignore[arg-type]


def of_type(events: Iterable[Event], cls: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, cls)]


def legal(state: Battleboard, seat: str) -> list[dict[str, Any]]:
    """The seat's legal commands as JSON would carry them (cells as lists)."""
    return [msgspec.json.decode(msgspec.json.encode(RULESET.codec.wire(c))) for c in RULESET.legal_commands(state, seat)]
