"""Seed 000, Pre-Battle, by the sides' choices: the battlefield the initiative winner
chooses, the hidden team pick, the Dynamics every side brings, and the blind Ring pick."""
from __future__ import annotations

from domain.engine.choices import lock_choice
from domain.engine.errors import RuleViolation

from . import events as ev
from .commands import ChooseBattlefield, PickRing, PickTeam
from .content import content
from .moves import RingResolver, add_dynamic, grants, part
from .state import SEATS, opponent
from .targets import alive, eligible, team_size
from .turn import start_turn


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
