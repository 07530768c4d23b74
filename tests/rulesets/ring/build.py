"""Small builders for ring rule tests (effectiveness, Dynamics): a `Ring` already in the
"battle" phase, built directly, one command run through `decide`, events folded back.

Units enter as `roster.build_fighter` makes them from a plain deck entry (no equipment,
no growth), so their numbers are the content's `attributes`; a test changes what it needs
with keyword overrides. No Dynamic is in play unless the test lists it with `dyn(...)`.

The effectiveness roll is the first draw of the command's RNG (nothing draws before it),
so `seed_drawing` finds a seed whose draws fall where a test needs them; the test then
asserts the `EffectivenessRolled` it gets, so a change in the roll still shows.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from msgspec.structs import replace

from domain.engine.events import Command, Event
from domain.engine.hooks import EffectTriggered
from domain.engine.rng import Rng
from domain.rulesets.ring.content import CONTENT, DeckUnit
from domain.rulesets.ring.decide import decide
from domain.rulesets.ring.evolve import evolve
from domain.rulesets.ring.roster import build_fighter, loadout
from domain.rulesets.ring.state import Dyn, Fighter, Params, PoolSlot, Ring, Side

E = TypeVar("E", bound=Event)


def unit(seat: str, unit_id: str, *, abilities: Sequence[str] = (), **overrides: Any) -> Fighter:
    """A unit as it enters battle, then `overrides`. `abilities` puts those abilities first in
    its Ability Slots (their pools at level 3, with enough slots; a pool's second slot may hold
    another ability of that pool)."""
    f = build_fighter(seat, DeckUnit(unit=unit_id), Params())
    if abilities:
        pools: dict[str, int] = {}
        for aid in abilities:
            pool = CONTENT.abilities[aid].pool
            pools[pool] = pools.get(pool, 0) + 1
        f = replace(f, pools=tuple(PoolSlot(p, 3, max(0, n - 2)) for p, n in pools.items()),
                    priorities=tuple(abilities))
        assert set(abilities) <= set(loadout(f)), "the slots must hold every ability asked for"
    return replace(f, **overrides) if overrides else f


def dyn(id: str, kind: str, *, severity: int = 5, source: str = "ability", seat: str | None = None,
        unit: str | None = None, target: str | None = None, by: str | None = None) -> Dyn:
    """A Dynamic in play. A unit carrier sets the seat too."""
    if unit is not None and seat is None:
        seat = unit.split(".", 1)[0]
    return Dyn(id=id, kind=kind, source=source, seat=seat, unit=unit, target=target, severity=severity, by=by)


def ring(p1: Sequence[Fighter], p2: Sequence[Fighter], *, dynamics: Iterable[Dyn] = (), active: str = "p1",
         ap: int = 10, p1_leader: str = "gale", p2_leader: str = "gale", items: dict[str, Sequence[str]] | None = None,
         **kw: Any) -> Ring:
    """A battle under way on turn 1: each team is its list of units (the first is in the Ring);
    `active` has `ap` AP, the other side 0. Captain Gale leads both sides by default: 27 HP,
    10 AP, Swap Unit 3 AP, items 1 AP (her own Dynamics are not in play unless listed)."""
    sides = {}
    for seat, team, leader_id in (("p1", p1, p1_leader), ("p2", p2, p2_leader)):
        leader = CONTENT.leaders[leader_id]
        keys = tuple(f.key for f in team)
        sides[seat] = Side(leader=leader_id, leader_hp=leader.hp, leader_max_hp=leader.hp, max_ap=leader.ap,
                           ap=ap if seat == active else 0, deck=keys, team=keys, ring=keys[0] if keys else None,
                           items=tuple((items or {}).get(seat, ())))
    units = {f.key: f for f in (*p1, *p2)}
    dynamics = tuple(dynamics)
    fields: dict[str, Any] = dict(params=Params(), p1=sides["p1"], p2=sides["p2"], units=units, phase="battle",
                                  dynamics=dynamics, next_dynamic=len(dynamics) + 1,
                                  down=frozenset(k for k, f in units.items() if f.down), turn=1, active=active,
                                  initiative="p1")
    fields.update(kw)
    return Ring(**fields)


def run(s: Ring, seat: str, cmd: Command, seed: bytes = b"x") -> tuple[list[Event], Ring]:
    """Decide one command and fold its events: (events, the state they lead to)."""
    events = list(decide(s, seat, cmd, Rng(seed)).events)
    return events, fold(s, events)


def fold(s: Ring, events: Iterable[Event]) -> Ring:
    for event in events:
        s = evolve(s, event)
    return s


def of(events: Iterable[Event], cls: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, cls)]


def triggers(events: Iterable[Event]) -> list[tuple[str, str, str]]:
    """Every `EffectTriggered` as (kind, owner, on)."""
    return [(e.kind, e.owner, e.on) for e in of(events, EffectTriggered)]


def seed_drawing(*ranges: tuple[int, int]) -> bytes:
    """A seed whose first draws of 0..9999 (the roll, then any `chance`) fall in the given
    [lo, hi) ranges, in order."""
    for i in range(100_000):
        seed = b"s%d" % i
        rng = Rng(seed)
        if all(lo <= rng.int(0, 9_999) < hi for lo, hi in ranges):
            return seed
    raise AssertionError(f"no seed draws {ranges}")


# The first draw decides the roll: below every Glancing chance used here (>= 1%), in the
# middle (Normal whenever Glancing and Critical stay under 45%), above every Critical cut.
LOW = seed_drawing((0, 100))
MID = seed_drawing((4_500, 5_500))
HIGH = seed_drawing((9_900, 10_000))
ROLLS = {"glancing": LOW, "normal": MID, "critical": HIGH}
