"""Given/when/then helpers for rat rule tests: build a `Rat` directly, run one turn.

A test builds the battle it needs with `battle(...)` (turn 1 sorted, nobody has chosen),
then `turn(state, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})` plans every entity's
action through `decide` (the party by seat p1, the enemies by seat p2, so no AI draws) and
returns the events of the turn and the state after it. `entity(...)` makes a plain entity
with round stats, so the arithmetic in a test's comment is short.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

import msgspec
from msgspec.structs import replace

from domain.engine.events import Event
from domain.engine.in_force import with_older
from domain.engine.rng import Rng
from domain.rulesets.rat import RULESET
from domain.rulesets.rat.commands import Act
from domain.rulesets.rat.decide import decide
from domain.rulesets.rat.events import TurnEnded
from domain.rulesets.rat.evolve import evolve
from domain.rulesets.rat.legal import to_plan
from domain.rulesets.rat.resolver import RESOLVING
from domain.rulesets.rat.state import ENEMIES, PARTY, Entity, Params, Rat, Rules, Status
from domain.rulesets.rat.stats import queue
from domain.rulesets.rat.turn import begin_turn

E = TypeVar("E", bound=Event)
SEED = b"rat-rules"
# The rules a battle of the kept release 1.1.0 plays by: those its snapshot records, and for
# each rule added since, the value every earlier release played (`Older`).
RULES_1_1_0 = msgspec.convert(with_older(Rules, RULESET.releases["1.1.0"].rules), type=Rules)  # type: ignore[index]


def entity(key: str, side: str = PARTY, *, name: str | None = None, hp: int = 100, max_hp: int | None = None,
           atk: int = 40, defense: int = 20, spd: int = 50, **fields: Any) -> Entity:
    """A plain entity: 100 HP, ATK 40, DEF 20, SPD 50, STRIKE (and PROTECT for the party)."""
    intrinsic = fields.pop("intrinsic", ("strike", "protect") if side == PARTY else ("strike",))
    return Entity(id=key, name=name or key.upper(), side=side, kind=key, hp=hp, max_hp=max_hp or hp, atk=atk,
                  defense=defense, spd=spd, intrinsic=tuple(intrinsic), **fields)


def enemy(key: str, **fields: Any) -> Entity:
    return entity(key, ENEMIES, **{"ai": "random", **fields})


def ailment(kind: str, owner: str, *, turns: int = 0, gained: int = 1) -> Status:
    return Status(kind=kind, owner=owner, source="ailment", turns=turns, gained=gained)


def passive(kind: str, owner: str) -> Status:
    return Status(kind=kind, owner=owner, source="equipment")


def battle(party: Iterable[Entity] = (), enemies: Iterable[Entity] = (), *, effects: Sequence[Status] = (),
           turn: int = 1, params: Params | None = None, rules: Rules = Rules(), ai: bool = False, **kw: Any) -> Rat:
    """Turn `turn` sorted and open for choices, under today's rules unless `rules` says. By
    default seat p2 plays the enemies (`ai=True`: the rules' AI does); `party` defaults to one
    member "mc", `enemies` to one "e1"."""
    members = list(party) or [entity("mc")]
    foes = list(enemies) or [enemy("e1")]
    s = Rat(params=params or Params(), rules=rules, formation="test", entities={e.id: e for e in [*members, *foes]},
            seats={PARTY: "p1", ENEMIES: None if ai else "p2"}, turn=turn, effects=tuple(effects), **kw)
    return replace(s, order=queue(s))


def started_turn(s: Rat, seed: bytes = SEED) -> tuple[list[Event], Rat]:
    """Start the next turn (aging, WISHes, the sort) from the end of `s`'s."""
    r = RESOLVING(s, Rng(seed))
    begin_turn(r)
    return r.events, r.state


Plans = Mapping[str, tuple[str, ...] | tuple[str, str | None] | tuple[str, str | None, str | None]]


def turn(s: Rat, plans: Plans, seed: bytes = SEED) -> tuple[list[Event], Rat]:
    """Every seat plans its waiting entities from `plans` (entity -> (action, target[, move])),
    in queue order, one `decide` each; returns all events of those batches and the state."""
    events: list[Event] = []
    rng = Rng(seed)
    for _ in range(64):
        waiting = [(seat, to_plan(s, side)) for side, seat in s.seats.items() if seat is not None]
        waiting = [(seat, keys) for seat, keys in waiting if keys]
        if not waiting:
            return events, s
        seat, keys = waiting[0]
        action, *rest = plans[keys[0]]
        target = rest[0] if rest else None
        move = rest[1] if len(rest) > 1 else None
        decision = decide(s, seat, Act(actor=keys[0], action=action, target=target, move=move), rng)
        events.extend(decision.events)
        assert decision.state is not None
        s = decision.state
        if s.result is not None or any(isinstance(e, TurnEnded) for e in events):
            return events, s
    raise AssertionError("the turn never resolved")


def fold(s: Rat | None, events: Iterable[Event]) -> Rat:
    for e in events:
        s = evolve(s, e)
    assert s is not None
    return s


def of_type(events: Iterable[Event], cls: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, cls)]


def started(setup: Mapping[str, Any] | None = None, seed: bytes = SEED) -> Rat:
    """A battle as `start` opens it, from a setup (the default one if None)."""
    parsed = RULESET.parse_setup(dict(setup if setup is not None else RULESET.default_setup))
    return fold(None, RULESET.start(parsed, Rng(seed)).events)
