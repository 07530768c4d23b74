"""Given/when/then helpers for ring rule tests: build a `Ring` directly, run one command.

A test builds the state it needs with `battle(...)` (already in the "battle" phase) or
`started(setup)` (through `RULESET.start`), runs ONE command through `decide`, and asserts
the exact events and the state they fold to.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from msgspec.structs import replace

from domain.engine.choices import PendingChoices
from domain.engine.events import Command, Event
from domain.engine.rng import Rng
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.content import CONTENT, DeckUnit
from domain.rulesets.ring.decide import decide
from domain.rulesets.ring.evolve import evolve
from domain.rulesets.ring.roster import build_fighter
from domain.rulesets.ring.state import SEATS, Dyn, Fighter, Params, Ring, Side

E = TypeVar("E", bound=Event)

# Two teams of four with plain stats (no equipment, no growth). Their Unit Dynamics are NOT in
# play unless a test puts them there with `dynamics=`.
P1_TEAM = ("grizzlor", "fang_shrike", "cinderhound", "shellback")
P2_TEAM = ("bastion_golem", "moss_mother", "hex_lich", "shadow_cat")
# Captain Gale: 27 HP, 10 AP, swap 3 AP, item 1 AP; her Dynamics are not in play by default.
LEADER = "gale"


def deck_unit(unit_id: str, **fields: Any) -> DeckUnit:
    """A deck entry: `deck_unit("grizzlor", growth={"atk": 2})`."""
    return DeckUnit(unit=unit_id, **fields)


def fighter(seat: str, unit_id: str, *, params: Params | None = None, **overrides: Any) -> Fighter:
    """A unit as it enters battle from a plain deck entry (no equipment, growth or EXS),
    then with `overrides` (hp=0, ko=True, aug={"atk": 2}, ...)."""
    built = build_fighter(seat, DeckUnit(unit=unit_id), params or Params())
    return replace(built, **overrides) if overrides else built


def battle(*, p1_team: Sequence[str] = P1_TEAM, p2_team: Sequence[str] = P2_TEAM,
           p1_ring: str | None = "", p2_ring: str | None = "", active: str | None = "p1", ap: int = 10,
           dynamics: Iterable[Dyn] = (), p1_leader: str = LEADER, p2_leader: str = LEADER,
           items: Mapping[str, Sequence[str]] | None = None, units: Mapping[str, Mapping[str, Any]] | None = None,
           p1_deck: Sequence[str] = (), p2_deck: Sequence[str] = (), params: Params | None = None,
           p1_leader_hp: int | None = None, p2_leader_hp: int | None = None, **kw: Any) -> Ring:
    """A battle under way: `active` has `ap` AP, the other side 0; each Ring unit is the first
    of its team unless `p1_ring`/`p2_ring` name one (None: no Ring unit yet).

    - `p1_deck`/`p2_deck`: more deck units beyond the team (the deck is the team, then these);
    - `units`: field overrides by unit key, `{"p2.hex_lich": {"hp": 0, "ko": True}}`;
      `Ring.down` follows the units' `ko`/`removed`;
    - `items`: inventories by seat, `{"p1": ["potion"]}`;
    - `p1_leader_hp`/`p2_leader_hp`: a leader's current HP (its max stays the content's);
    - `dynamics`: `Dyn` records in play (ids "d1", "d2"...; `next_dynamic` follows them);
    - `**kw`: any other `Ring` field (turn, initiative, battlefield, swap_required, phase...).
    """
    params = params or Params()
    items = items or {}
    teams = {"p1": tuple(p1_team), "p2": tuple(p2_team)}
    extra = {"p1": tuple(p1_deck), "p2": tuple(p2_deck)}
    rings = {"p1": p1_ring, "p2": p2_ring}
    leaders = {"p1": p1_leader, "p2": p2_leader}
    leader_hp = {"p1": p1_leader_hp, "p2": p2_leader_hp}
    fighters: dict[str, Fighter] = {}
    sides = {}
    for seat in SEATS:
        deck = teams[seat] + tuple(u for u in extra[seat] if u not in teams[seat])
        for unit_id in deck:
            fighters[f"{seat}.{unit_id}"] = fighter(seat, unit_id, params=params)
        ring = rings[seat]
        if ring == "":
            ring = teams[seat][0] if teams[seat] else None
        leader = CONTENT.leaders[leaders[seat]]
        hp = leader.hp if leader_hp[seat] is None else leader_hp[seat]
        sides[seat] = Side(leader=leader.id, leader_hp=hp, leader_max_hp=leader.hp, max_ap=leader.ap,
                           ap=ap if seat == active else 0, deck=tuple(f"{seat}.{u}" for u in deck),
                           team=tuple(f"{seat}.{u}" for u in teams[seat]),
                           ring=f"{seat}.{ring}" if ring else None, items=tuple(items.get(seat, ())))
    for key, changes in (units or {}).items():
        fighters[key] = replace(fighters[key], **changes)
    dynamics = tuple(dynamics)
    numbers = [int(m.group(1)) for d in dynamics if (m := re.fullmatch(r"d(\d+)", d.id))]
    fields: dict[str, Any] = dict(params=params, p1=sides["p1"], p2=sides["p2"], units=fighters, phase="battle",
                                  dynamics=dynamics, next_dynamic=max(numbers, default=0) + 1,
                                  down=frozenset(k for k, f in fighters.items() if f.down), turn=1,
                                  active=active, initiative=active or "p1")
    fields.update(kw)
    return Ring(**fields)


def team_pick(state: Ring, *, sequential_for: str | None = None) -> Ring:
    """The same state with a team pick open (both seats awaited; with `sequential_for` the
    preview advantage: the other seat picks first)."""
    if sequential_for:
        order = ("p2", "p1") if sequential_for == "p1" else ("p1", "p2")
        return replace(state, phase="team", choices=PendingChoices(kind="pick_team", awaiting=order),
                       pick_sequential=True, active=None)
    return replace(state, phase="team", choices=PendingChoices(kind="pick_team", awaiting=SEATS), active=None)


def decide_after(state: Ring, seat: str, cmd: Command, seed: bytes = b"x") -> list[Event]:
    """The events `decide` returns for one command (the engine's seat check is not run)."""
    return list(decide(state, seat, cmd, Rng(seed)).events)


def after(state: Ring | None, events: Iterable[Event]) -> Ring:
    """The state the events fold to."""
    for event in events:
        state = evolve(state, event)
    assert state is not None
    return state


def play(state: Ring, seat: str, cmd: Command, seed: bytes = b"x") -> tuple[list[Event], Ring]:
    """Decide and apply: the events and the state they lead to."""
    events = decide_after(state, seat, cmd, seed)
    return events, after(state, events)


def of_type(events: Iterable[Event], cls: type[E]) -> list[E]:
    """The events of one class, in order."""
    return [e for e in events if isinstance(e, cls)]


def topics(events: Iterable[Event]) -> list[str]:
    """Event type names without the `ring.`/`engine.` prefix."""
    return [e.TOPIC.split(".", 1)[1] for e in events]


def preset_setup(p1: str = "ember_rush", p2: str = "iron_wall", **extra: Any) -> dict[str, Any]:
    """A raw setup from two deck presets; `extra` adds top-level fields (battlefield, params)."""
    return {"p1": {"deck": p1}, "p2": {"deck": p2}, **extra}


def started(setup: Mapping[str, Any], seed: bytes = b"x") -> tuple[list[Event], Ring]:
    """The events `RULESET.start` gives for a raw setup, and the state they fold to."""
    events = list(RULESET.start(RULESET.parse_setup(setup), Rng(seed)).events)
    return events, after(None, events)
