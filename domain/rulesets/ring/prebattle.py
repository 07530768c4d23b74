"""Seed 000, Pre-Battle: decks enter, initiative, the battlefield, the hidden team pick,
the Dynamics every side brings, and the blind Ring pick."""
from __future__ import annotations

from typing import Any

import msgspec

from domain.engine.choices import lock_choice
from domain.engine.errors import RuleViolation
from domain.engine.rng import Rng
from domain.engine.ruleset import Decision

from . import events as ev
from .commands import ChooseBattlefield, PickRing, PickTeam
from .content import ATTRIBUTES, DeckUnit, content
from .effects.moves import RingResolver, add_dynamic, grants, part
from .evolve import evolve
from .roster import build_fighter
from .setup import RingSetup, as_json
from .state import SEATS, Params, Ring, opponent
from .targets import alive, eligible, team_size
from .turn import start_turn


def start(setup: RingSetup, rng: Rng) -> Decision[Ring]:
    started = ev.RingStarted(params=msgspec.to_builtins(setup.params),
                             leaders={seat: setup.decks[seat].leader for seat in SEATS},
                             fixed_battlefield=setup.battlefield)
    b = RingResolver(evolve(None, started), rng)
    for seat in SEATS:
        fighters, variation = [], {}
        for entry in setup.decks[seat].units:
            cond = setup.condition[seat].get(entry.unit, {})
            shift = linear_variation(setup, rng)
            if shift:
                variation[entry.unit] = shift
            fighters.append(fighter_json(seat, entry, setup.params, lp=cond.get("lp"), exs=cond.get("exs", 0),
                                         variation=shift))
        b.emit(ev.DeckBuilt(seat=seat, fighters=tuple(fighters), variation=variation))
        b.emit(ev.InventoryPacked(seat=seat, items=setup.decks[seat].items))
    roll_initiative(b)
    return Decision((started, *b.events), b.state)


def fighter_json(seat: str, entry: DeckUnit, params: Params, *, lp: int | None, exs: int,
                 variation: dict[str, int]) -> Any:
    """`build_fighter` as JSON, as `DeckBuilt` carries it. Battles from the same decks build the
    same fighters, so without linear variation each is kept by what it is built from, encoded:
    every event gets its own decoded copy."""
    if variation:
        return as_json(build_fighter(seat, entry, params, lp=lp, exs=exs, variation=variation))
    key = (content(), seat, msgspec.json.encode(entry), params, lp, exs)
    found = _FIGHTERS.get(key)
    if found is None:
        if len(_FIGHTERS) >= 4096:
            _FIGHTERS.clear()
        found = _FIGHTERS[key] = msgspec.json.encode(build_fighter(seat, entry, params, lp=lp, exs=exs))
    return msgspec.json.decode(found)


_FIGHTERS: dict[tuple[object, ...], bytes] = {}


def linear_variation(setup: RingSetup, rng: Rng) -> dict[str, int]:
    """Off in the alpha (seed 000); when on, each attribute shifts by up to the spread."""
    spread = setup.params.linear_spread_bp
    if not setup.params.linear_variation or spread == 0:
        return {}
    return {attr: rng.int(-spread, spread) for attr in ATTRIBUTES}


def roll_initiative(b: RingResolver) -> None:
    """Both sides roll 1..die plus their leader's initiative; a tie rolls again."""
    s = b.state
    bonus = {seat: content().leaders[s.side(seat).leader].initiative for seat in SEATS}
    rolls: dict[str, list[int]] = {seat: [] for seat in SEATS}
    while True:
        for seat in SEATS:
            rolls[seat].append(b.rng.int(1, s.params.initiative_die))
        totals = {seat: rolls[seat][-1] + bonus[seat] for seat in SEATS}
        if totals["p1"] != totals["p2"]:
            break
    winner = max(SEATS, key=totals.__getitem__)
    advantage = content().leaders[s.side(winner).leader].advantage
    b.emit(ev.InitiativeRolled(rolls=rolls, bonus=bonus, winner=winner, advantage=advantage))
    if b.state.battlefield is not None:
        b.emit(ev.BattlefieldDrawn(battlefield=b.state.battlefield, by="setup"))
    elif advantage == "battlefield":
        return                      # the winner chooses (ChooseBattlefield)
    else:
        b.emit(ev.BattlefieldDrawn(battlefield=b.rng.choice(sorted(content().battlefields)), by="rng"))
    open_team_pick(b)


def choose_battlefield(b: RingResolver, seat: str, cmd: ChooseBattlefield) -> None:
    s = b.state
    if s.phase != "battlefield" or s.battlefield is not None:
        raise RuleViolation("the battlefield is already decided")
    if cmd.battlefield not in content().battlefields:
        raise RuleViolation(f"unknown battlefield {cmd.battlefield!r}; known: {', '.join(sorted(content().battlefields))}")
    b.emit(ev.BattlefieldChosen(seat=seat, battlefield=cmd.battlefield))
    open_team_pick(b)


def open_team_pick(b: RingResolver) -> None:
    """Hidden and simultaneous, unless the preview advantage makes the loser pick first."""
    s = b.state
    if s.advantage == "preview":
        winner = s.initiative_winner()
        b.emit(ev.PickStarted(kind="pick_team", order=(opponent(winner), winner), sequential=True))
    else:
        b.emit(ev.PickStarted(kind="pick_team", order=SEATS))


def pick_team(b: RingResolver, seat: str, cmd: PickTeam) -> None:
    s = b.state
    if s.phase != "team" or s.choices is None:
        raise RuleViolation("teams are not being picked now")
    names = {s.units[k].unit for k in eligible(s, seat)}
    size = team_size(s, seat)
    if len(cmd.units) != size or len(set(cmd.units)) != size:
        raise RuleViolation(f"a team is {size} different units of your deck")
    missing = [u for u in cmd.units if u not in names]
    if missing:
        raise RuleViolation(f"{missing[0]!r} is not a unit of your deck with LP left")
    chosen = PickTeam(units=tuple(sorted(cmd.units)))
    locked, everyone = lock_choice(s.choices, seat, chosen, lambda _, c: c)
    for event in locked:
        b.emit(event)
    if s.pick_sequential and everyone is None:
        b.emit(ev.TeamPreviewed(seat=opponent(seat), of=seat, team=chosen.units))
    if everyone is not None:
        teams_enter(b)


def teams_enter(b: RingResolver) -> None:
    """Every Dynamic the sides bring comes into play: the battlefield's, the leaders', and the
    team units' and their equipment's (seed 000, UD); then the initiative advantage."""
    s = b.state
    if s.battlefield is None:
        raise RuntimeError("teams enter only once the battlefield is decided")
    grants(b, content().battlefields[s.battlefield].dynamics, source="battlefield", seat=None)
    for seat in SEATS:
        grants(b, content().leaders[s.side(seat).leader].dynamics, source="leader", seat=seat)
    for seat in SEATS:
        for key in s.side(seat).team:
            unit = s.units[key]
            grants(b, content().units[unit.unit].dynamics, source="unit", seat=seat, unit=key)
            if unit.equipment:
                grants(b, content().equipment[unit.equipment].dynamics, source="equipment", seat=seat, unit=key)
    winner = s.initiative_winner()
    leader = content().leaders[s.side(winner).leader]
    if s.advantage == "boost" and leader.boost_attr:
        for key in s.side(winner).team:
            base = b.state.units[key].base[leader.boost_attr]
            b.emit(ev.AttributeBoosted(unit=key, attr=leader.boost_attr, amount=part(base, leader.boost_bp)))
    if s.advantage == "dynamic" and leader.advantage_dynamic:
        add_dynamic(b, leader.advantage_dynamic.kind, source="leader", severity=leader.advantage_dynamic.severity,
                    seat=winner, by=winner)
    b.emit(ev.PickStarted(kind="pick_ring", order=SEATS))


def pick_ring(b: RingResolver, seat: str, cmd: PickRing) -> None:
    s = b.state
    if s.phase != "ring" or s.choices is None:
        raise RuleViolation("the Ring units are not being picked now")
    if f"{seat}.{cmd.unit}" not in alive(s, seat):
        raise RuleViolation(f"{cmd.unit!r} is not on your team")
    locked, everyone = lock_choice(s.choices, seat, cmd, lambda _, c: c)
    for event in locked:
        b.emit(event)
    if everyone is not None:
        start_turn(b, b.state.initiative_winner())


def awaiting_pick(s: Ring) -> frozenset[str]:
    if s.choices is None:
        return frozenset()
    waiting = s.choices.waiting_for()
    if s.pick_sequential:
        first = next((seat for seat in s.choices.awaiting if seat in waiting), None)
        return frozenset((first,)) if first else frozenset()
    return waiting
