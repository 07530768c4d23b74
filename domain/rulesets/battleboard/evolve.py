"""Battleboard evolve: one small function per event, no rules."""
from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.engine.hooks import Effect
from domain.engine.reducer import Reducer

from . import events as ev
from .state import AttackPlan, Battleboard, Combatant, Params, Pos, Rules, other

evolve: Reducer[Battleboard] = Reducer("battleboard")


def _unit(s: Battleboard, key: str, **changes: Any) -> Battleboard:
    return s.with_unit(replace(s.units[key], **changes))


def _pos(cell: list[int] | tuple[int, int]) -> Pos:
    return (cell[0], cell[1])


def _tokens(u: Combatant, token: str, delta: int) -> dict[str, int]:
    left = u.tokens.get(token, 0) + delta
    tokens = {k: v for k, v in u.tokens.items() if k != token}
    return {**tokens, token: left} if left > 0 else tokens


@evolve.on()
def _(e: ev.BattleboardStarted, s: Battleboard | None) -> Battleboard:
    units = {}
    for raw in e.units:
        u = msgspec.convert(raw, type=Combatant)
        units[u.id] = replace(u, untapped=u.resilience, energy=u.energy_stat)
    params = msgspec.convert(e.params, type=Params)
    return Battleboard(params=params, rules=msgspec.convert(e.rules, type=Rules), map=e.map, heroes=tuple(e.heroes),
                       units=units, border=params.section_rows)


@evolve.on()
def _(e: ev.InitiativeRolled, s: Battleboard) -> Battleboard:
    return replace(s, winner=e.winner)


@evolve.on()
def _(e: ev.OrderChosen, s: Battleboard) -> Battleboard:
    return replace(s, first=e.first, phase="arrange", arranging=other(e.first))


@evolve.on()
def _(e: ev.ArrangingBegan, s: Battleboard) -> Battleboard:
    return replace(s, arranging=e.side)


@evolve.on()
def _(e: ev.Placed, s: Battleboard) -> Battleboard:
    assert e.cell is not None
    return replace(s, placed={**s.placed, e.unit: _pos(e.cell)})


@evolve.on()
def _(e: ev.ArrangementRevealed, s: Battleboard) -> Battleboard:
    units = {k: replace(u, cell=_pos(e.cells[k])) if k in e.cells else u for k, u in s.units.items()}
    return replace(s, units=units, placed={}, arranging=None, phase="turn")


@evolve.on()
def _(e: ev.TurnBegan, s: Battleboard) -> Battleboard:
    return replace(s, active=e.side, round=e.round, turn=e.turn, half=e.half, done=(), row_open=e.row_open)


@evolve.on()
def _(e: ev.Readied, s: Battleboard) -> Battleboard:
    u = s.units[e.unit]
    u = replace(u, mp=e.mp, focus=e.focus, slots=e.slots, teleport_left=e.teleport, origin=u.cell,
                path=(u.cell,) if u.cell else (), taken=(), kinds=(), doubled=False, granted=(), lifted=False,
                mended=0)
    return s.with_unit(u)       # `_unit` without its keyword dict, for the events of every turn


@evolve.on()
def _(e: ev.TokenSpent, s: Battleboard) -> Battleboard:
    return _unit(s, e.unit, tokens=_tokens(s.units[e.unit], e.token, -1))


@evolve.on()
def _(e: ev.TokenGiven, s: Battleboard) -> Battleboard:
    return _unit(s, e.unit, tokens=_tokens(s.units[e.unit], e.token, 1))


@evolve.on()
def _(e: ev.Moved, s: Battleboard) -> Battleboard:
    u = s.units[e.unit]
    to = _pos(e.to)
    u = replace(u, cell=to, mp=u.mp - e.cost, teleport_left=u.teleport_left - e.skipped, path=(*u.path, to))
    return s.with_unit(u)


@evolve.on()
def _(e: ev.Converted, s: Battleboard) -> Battleboard:
    u = s.units[e.unit]
    return _unit(s, e.unit, focus=u.focus - 1, mp=u.mp + e.mp)


@evolve.on()
def _(e: ev.ActionTaken, s: Battleboard) -> Battleboard:
    u = s.units[e.unit]
    u = replace(u, taken=(*u.taken, e.action), kinds=(*u.kinds, e.kind), doubled=u.doubled or e.double_down,
                energy=u.energy - e.energy, focus=u.focus - e.focus)
    return s.with_unit(u)


@evolve.on(ev.ConfusionRolled, ev.AttackIgnored)
def _(e: ev.Event, s: Battleboard) -> Battleboard:
    return s


@evolve.on()
def _(e: ev.Charged, s: Battleboard) -> Battleboard:
    u = s.units[e.unit]
    cells = tuple(_pos(c) for c in e.cells)
    return _unit(s, e.unit, cell=cells[-1], mp=u.mp - e.cost, path=(*u.path, *cells))


@evolve.on()
def _(e: ev.DiceRolled, s: Battleboard) -> Battleboard:
    u = s.units[e.attacker]
    last = {"attacker": e.attacker, "target": e.target, "expression": e.expression, "dice": e.dice,
            "rerolls": e.rerolls, "hits": e.hits, "av": e.av, "defense": e.defense, "band": e.band}
    return replace(_unit(s, e.attacker, focus=u.focus - len(e.rerolls)), last_attack=last)


@evolve.on()
def _(e: ev.DefenseAwaited, s: Battleboard) -> Battleboard:
    return replace(s, plan=AttackPlan(attacker=e.attacker, action=e.action, targets=tuple(e.remaining),
                                      rerolls=e.rerolls, target=e.unit, av=e.av, origin=_pos(e.origin)))


@evolve.on()
def _(e: ev.Defended, s: Battleboard) -> Battleboard:
    u = s.units[e.unit]
    return replace(_unit(s, e.unit, focus=u.focus - e.focus), plan=None)


@evolve.on()
def _(e: ev.TokenTapped, s: Battleboard) -> Battleboard:
    u = s.units[e.unit]
    return _unit(s, e.unit, untapped=u.untapped - 1, tapped=u.tapped + 1)


@evolve.on()
def _(e: ev.TokenDiscarded, s: Battleboard) -> Battleboard:
    u = s.units[e.unit]
    return _unit(s, e.unit, tapped=u.tapped - 1) if e.tapped else _unit(s, e.unit, untapped=u.untapped - 1)


@evolve.on()
def _(e: ev.Defeated, s: Battleboard) -> Battleboard:
    s = _unit(s, e.unit, defeated=True, cell=None, mp=0)
    return replace(s, stances=tuple(x for x in s.stances if x.owner != e.unit))


@evolve.on()
def _(e: ev.Untapped, s: Battleboard) -> Battleboard:
    u = s.units[e.unit]
    return _unit(s, e.unit, tapped=u.tapped - e.count, untapped=u.untapped + e.count, mended=u.mended + e.count)


@evolve.on()
def _(e: ev.Restored, s: Battleboard) -> Battleboard:
    return _unit(s, e.unit, untapped=s.units[e.unit].untapped + e.count)


RESOURCES = {"movement": "mp", "focus": "focus", "energy": "energy", "teleport": "teleport_left"}


@evolve.on()
def _(e: ev.Gained, s: Battleboard) -> Battleboard:
    field = RESOURCES[e.resource]
    return _unit(s, e.unit, **{field: getattr(s.units[e.unit], field) + e.amount})


@evolve.on()
def _(e: ev.Granted, s: Battleboard) -> Battleboard:
    u = s.units[e.unit]
    return _unit(s, e.unit, lifted=True) if e.movement == "lift" else _unit(s, e.unit, granted=(*u.granted, e.movement))


@evolve.on()
def _(e: ev.MovementLapsed, s: Battleboard) -> Battleboard:
    return _unit(s, e.unit, granted=(), lifted=False)


@evolve.on()
def _(e: ev.StanceTaken, s: Battleboard) -> Battleboard:
    return replace(s, stances=(*s.stances, Effect(kind=e.stance, owner=e.unit, severity=e.amount)))


@evolve.on()
def _(e: ev.StanceEnded, s: Battleboard) -> Battleboard:
    return replace(s, stances=tuple(x for x in s.stances if not (x.owner == e.unit and x.kind == e.stance)))


@evolve.on()
def _(e: ev.SeatDone, s: Battleboard) -> Battleboard:
    return replace(s, done=(*s.done, e.seat))


@evolve.on()
def _(e: ev.SnappedBack, s: Battleboard) -> Battleboard:
    return _unit(s, e.unit, cell=_pos(e.to))


@evolve.on()
def _(e: ev.TurnEnded, s: Battleboard) -> Battleboard:
    units = {k: replace(u, mp=0, teleport_left=0) if u.side == e.side else u for k, u in s.units.items()}
    return replace(s, units=units, active=None, row_open=None)


@evolve.on()
def _(e: ev.RowTaken, s: Battleboard) -> Battleboard:
    return replace(s, border=e.border, row_open=None)


@evolve.on()
def _(e: ev.CombatEnded, s: Battleboard) -> Battleboard:
    return replace(s, ended=(e.winner, e.reason), phase="over", active=None, plan=None)
