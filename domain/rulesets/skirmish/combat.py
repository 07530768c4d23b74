"""Seed 001, Combat and Action points: the start of a turn, walking, attacking and
counter-attacking, and the end of a turn."""
from __future__ import annotations

from typing import cast

from domain.engine.errors import RuleViolation
from domain.engine.grid import Cell

from . import events as ev
from .board import board_of, distance, distances, free_tile_near, walk, walk_ends
from .commands import Attack, Move
from .hooks import Allowance, Provokes, StrikePower, allowance, ask, hooked, may, targetable
from .resolver import SkirmishResolver, check_defeat, draw, end_effect, lasts, reach, speed
from .state import Pos, Skirmish, Unit, opponent


def begin_turn(b: SkirmishResolver, seat: str) -> None:
    """The start of a player's turn, in this order: Interlude talents; effects that player gave
    expire; the maximum AP rises by one (to the cap) and AP is fully restored; Second Chance
    units return; one card is drawn; Aggression forces attacks."""
    b.emit(ev.TurnStarted(turn=b.state.turn + 1, seat=seat))
    for unit in [u for u in b.state.units.values() if u.chips and u.on_board]:
        for chip in unit.chips:
            if chip.by == seat and lasts(chip.kind) == "timed":
                end_effect(b, unit.key, chip.kind, "expired")
    p = b.state.player(seat)
    max_ap = min(b.state.params.ap_cap, p.max_ap + 1)
    b.emit(ev.ApRestored(seat=seat, max_ap=max_ap, ap=max_ap))
    for unit in b.state.fielded(seat):
        if unit.returning:
            cell = free_tile_near(b.state, unit)
            if cell is not None:        # back with a share of its armor as damage (README)
                damage = unit.armor * b.state.params.second_chance_damage // 100
                b.emit(ev.UnitReturned(unit=unit.key, cell=cell.to_wire(), damage=damage))
    draw(b, seat, 1)
    if not b.over:
        forced_attacks(b, seat)
    check_defeat(b)


def forced_attacks(b: SkirmishResolver, seat: str) -> None:
    """Aggression: each of the player's units (in team order) able to attack an aggressive
    opponent does, at the first such opponent in team order."""
    if not hooked(b.state, Provokes):
        return          # no effect in force provokes anyone
    for key in b.state.player(seat).units:
        unit = b.state.units[key]
        if b.over or not unit.on_board or not may(b.state, unit, "attack"):
            continue
        target = next((t for t in attackable(b.state, unit)
                       if ask(b.state, Provokes(attacker=unit.key, target=t.key))[0].provoked), None)
        if target is not None:
            b.emit(ev.AttackForced(seat=seat, character=unit.character, target=target.key))
            resolve_attack(b, unit.key, target.key)


def attackable(s: Skirmish, unit: Unit) -> list[Unit]:
    """Opponents exactly at the unit's reach that it may target."""
    at = reach(s, unit)
    near = [t for key in s.player(opponent(unit.seat)).units if (t := s.units[key]).on_board]
    return [t for t, apart in zip(near, distances(s, unit, near)) if apart == at and targetable(s, t, unit.seat)]


def own_unit(s: Skirmish, seat: str, character: str) -> Unit:
    unit = s.units.get(f"{seat}.{character}")
    if unit is None or not unit.fielded:
        raise RuleViolation(f"{character!r} is not one of your fielded characters", character=character)
    if not unit.on_board:
        raise RuleViolation(f"{unit.character} has fainted", character=character)
    return unit


def acting(s: Skirmish, seat: str, character: str, act: str) -> tuple[Unit, Allowance]:
    """The seat's unit that would walk or attack, and what allows it (Adrenaline, say)."""
    unit = own_unit(s, seat, character)
    allowed = allowance(s, unit, act)
    if not allowed.allowed:
        raise RuleViolation(f"{unit.character} is Restrained" if unit.has("restrained")
                            else f"{unit.character} cannot {act} again this turn")
    return unit, allowed


def move(b: SkirmishResolver, seat: str, cmd: Move) -> None:
    s = b.state
    unit, allowed = acting(s, seat, cmd.character, "move")
    board, to = board_of(s), cmd.to
    # A tile given as two plain integers is found at once; anything else is read (and refused) in full.
    plain = type(to) is tuple and len(to) == 2 and type(to[0]) is int and type(to[1]) is int
    goal = board.tiles.get(cast(Pos, to)) if plain else None
    if goal is None:
        goal = Cell.from_wire(list(to), "to", board.grid)
    route = walk(s, unit, goal, speed(s, unit))
    if route is None:
        raise RuleViolation(f"{unit.character} cannot walk to {goal.to_wire()} within {speed(s, unit)} tiles",
                            to=goal.to_wire(), speed=speed(s, unit))
    path = []           # a loop, not a comprehension: a walk has few steps
    for cell in route.cells:
        path.append(cell.to_wire())
    b.emit(ev.UnitMoved(seat=seat, character=unit.character, to=goal.to_wire(), path=path))
    if allowed.adrenaline:
        end_effect(b, unit.key, "adrenaline", "consumed")


def attack(b: SkirmishResolver, seat: str, cmd: Attack) -> None:
    s = b.state
    unit, allowed = acting(s, seat, cmd.character, "attack")
    target = s.units.get(cmd.target)
    if target is None or target.seat == seat or not target.on_board:
        raise RuleViolation(f"{cmd.target!r} is not an opponent on the board", target=cmd.target)
    if target not in attackable(s, unit):
        if not targetable(s, target, seat):
            raise RuleViolation(f"{target.character} is Concealed", target=cmd.target)
        raise RuleViolation(f"{unit.character} reaches exactly {reach(s, unit)} tiles; {target.character} is "
                            f"{distance(s, unit, target)} away", reach=reach(s, unit))
    b.emit(ev.Attacked(seat=seat, character=unit.character, target=target.key))
    if allowed.adrenaline:
        end_effect(b, unit.key, "adrenaline", "consumed")
    resolve_attack(b, unit.key, target.key)
    check_defeat(b)


def resolve_attack(b: SkirmishResolver, attacker: str, target: str) -> None:
    """The attack lands, then the defender counter-attacks if it still stands, has not
    countered this turn, may act, and has the attacker within its own reach."""
    strike(b, attacker, target, counter=False)
    s = b.state
    defender, foe = s.units[target], s.units[attacker]
    if b.over or not defender.on_board or not foe.on_board or distance(s, defender, foe) != reach(s, defender):
        return
    if may(s, defender, "counter") and targetable(s, foe, defender.seat):
        strike(b, target, attacker, counter=True)


def strike(b: SkirmishResolver, attacker: str, target: str, counter: bool) -> None:
    s = b.state
    unit = s.units[attacker]
    query = StrikePower(attacker=attacker, target=target, power=unit.power, round=s.round())
    result, changed_by = ask(s, query)
    for effect in changed_by:
        end_effect(b, effect.owner, effect.kind, "consumed")
    b.emit(ev.Struck(unit=attacker, target=target, power=result.power,
                     damage=b.state.units[target].damage + result.power, counter=counter))
    end_effect(b, attacker, "concealed", "attacked")


def end_turn(b: SkirmishResolver, seat: str) -> None:
    b.emit(ev.TurnEnded(seat=seat))
    begin_turn(b, opponent(seat))


def walk_targets(s: Skirmish, unit: Unit) -> list[list[int]]:
    """The tiles a unit may walk to now, in reading order (empty if it may not move)."""
    if not unit.on_board or not may(s, unit, "move"):
        return []
    return [list(end) for end in walk_ends(s, unit, speed(s, unit))]
