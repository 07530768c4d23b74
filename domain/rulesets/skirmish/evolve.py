"""Skirmish evolve: one small function per event, no rules."""
from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.engine.choices import ChoicesRevealed, PendingChoices
from domain.engine.reducer import Reducer

from . import events as ev
from .state import SEATS, Chip, Params, Player, Skirmish, Unit, without

evolve: Reducer[Skirmish] = Reducer("skirmish")


def _unit(s: Skirmish, key: str, **changes: Any) -> Skirmish:
    """`s` with the unit `key` changed. The events of every turn (a walk, an attack, a card,
    the AP restored, a card drawn) spell this and `_player` out, as they are folded in every
    batch and every replay."""
    return s.with_unit(replace(s.units[key], **changes))


def _player(s: Skirmish, seat: str, **changes: Any) -> Skirmish:
    return s.with_player(seat, replace(s.player(seat), **changes))


def _pos(cell: list[int]) -> tuple[int, int]:
    return (cell[0], cell[1])


@evolve.on()
def _(e: ev.SkirmishStarted, s: Skirmish | None) -> Skirmish:
    units = {u["key"]: msgspec.convert(u, type=Unit) for u in e.units}
    players = {seat: Player(seat=seat, units=tuple(k for k, u in units.items() if u.seat == seat)) for seat in SEATS}
    return Skirmish(params=msgspec.convert(e.params, type=Params), mode=e.mode, board=e.board,
                    p1=players["p1"], p2=players["p2"], units=units, first_player=e.first_player,
                    choices=PendingChoices(kind="field", awaiting=SEATS))


@evolve.on()
def _(e: ChoicesRevealed, s: Skirmish) -> Skirmish:
    if e.kind != "field":
        return replace(s, choices=None)
    units = dict(s.units)
    for seat, choice in e.choices.items():
        for character in choice["characters"]:
            key = f"{seat}.{character}"
            units[key] = replace(units[key], fielded=True)
    return replace(s, units=units, choices=None, phase="place")


@evolve.on()
def _(e: ev.UnitPlaced, s: Skirmish) -> Skirmish:
    assert e.cell is not None, "a placement is folded from its full form"
    return replace(s, placements={**s.placements, f"{e.seat}.{e.character}": _pos(e.cell)})


@evolve.on()
def _(e: ev.PlacementsRevealed, s: Skirmish) -> Skirmish:
    units = dict(s.units)
    for key, cell in e.cells.items():
        units[key] = replace(units[key], cell=_pos(cell))
    return replace(s, units=units, placements={}, phase="mulligan",
                   choices=PendingChoices(kind="mulligan", awaiting=SEATS))


@evolve.on()
def _(e: ev.DeckPrepared, s: Skirmish) -> Skirmish:
    assert e.order is not None, "a deck is folded from its full form"
    return _player(s, e.seat, deck=e.order)


@evolve.on()
def _(e: ev.DeckShuffled, s: Skirmish) -> Skirmish:
    assert e.order is not None, "a deck is folded from its full form"
    return _player(s, e.seat, deck=e.order)


@evolve.on()
def _(e: ev.CardsDrawn, s: Skirmish) -> Skirmish:
    p = s.player(e.seat)
    return s.with_player(e.seat, replace(p, deck=p.deck[e.count:], hand=p.hand + p.deck[:e.count]))


@evolve.on()
def _(e: ev.CardBurned, s: Skirmish) -> Skirmish:
    p = s.player(e.seat)
    return _player(s, e.seat, deck=p.deck[1:], discard=p.discard + (e.card,))


@evolve.on()
def _(e: ev.CardsReturned, s: Skirmish) -> Skirmish:
    assert e.cards is not None, "a mulligan is folded from its full form"
    p = s.player(e.seat)
    hand = p.hand
    for card in e.cards:
        hand = without(hand, card)
    return _player(s, e.seat, hand=hand, deck=p.deck + tuple(e.cards))


@evolve.on()
def _(e: ev.FirstPlayerChosen, s: Skirmish) -> Skirmish:
    return replace(s, first_player=e.seat, phase="combat")


@evolve.on()
def _(e: ev.UnitEntered, s: Skirmish) -> Skirmish:
    return _unit(s, e.unit, cell=_pos(e.cell))


@evolve.on()
def _(e: ev.TalentCopied, s: Skirmish) -> Skirmish:
    return _unit(s, e.unit, talent=e.talent)


@evolve.on()
def _(e: ev.StatsLowered, s: Skirmish) -> Skirmish:
    return _unit(s, e.unit, power=e.power, armor=e.armor)


@evolve.on()
def _(e: ev.TurnStarted, s: Skirmish) -> Skirmish:
    return replace(s, turn=e.turn, active=e.seat, units=s.rested_units())


@evolve.on(ev.ApRestored, ev.MaxApChanged)
def _(e: ev.ApRestored | ev.MaxApChanged, s: Skirmish) -> Skirmish:
    return s.with_player(e.seat, replace(s.player(e.seat), max_ap=e.max_ap, ap=e.ap))


@evolve.on()
def _(e: ev.StormRaised, s: Skirmish) -> Skirmish:
    return _player(s, e.seat, storm=e.storm)


@evolve.on(ev.DrawFailed, ev.KeywordActivated, ev.TurnEnded, ev.Forfeited, ev.TalentTriggered)
def _(e: ev.DrawFailed | ev.KeywordActivated | ev.TurnEnded | ev.Forfeited | ev.TalentTriggered,
      s: Skirmish) -> Skirmish:
    return s


@evolve.on()
def _(e: ev.PlayerDefeated, s: Skirmish) -> Skirmish:
    return replace(s, defeated=(*s.defeated, (e.seat, e.reason)))


@evolve.on()
def _(e: ev.UnitMoved, s: Skirmish) -> Skirmish:
    key = f"{e.seat}.{e.character}"
    return s.with_unit(replace(s.units[key], cell=(e.to[0], e.to[1]), moved=True))


@evolve.on(ev.Attacked, ev.AttackForced)
def _(e: ev.Attacked | ev.AttackForced, s: Skirmish) -> Skirmish:
    key = f"{e.seat}.{e.character}"
    return s.with_unit(replace(s.units[key], attacked=True))


@evolve.on()
def _(e: ev.Struck, s: Skirmish) -> Skirmish:
    s = _unit(s, e.target, damage=e.damage)
    return _unit(s, e.unit, countered=True) if e.counter else s


@evolve.on()
def _(e: ev.SkillDamaged, s: Skirmish) -> Skirmish:
    return _unit(s, e.unit, damage=e.damage)


@evolve.on()
def _(e: ev.Healed, s: Skirmish) -> Skirmish:
    return _unit(s, e.unit, damage=e.damage)


@evolve.on()
def _(e: ev.UnitFainted, s: Skirmish) -> Skirmish:
    u = s.units[e.unit]
    return _unit(s, e.unit, fainted=True, cell=None, last_cell=u.cell, chips=(), exits=u.exits + 1)


@evolve.on()
def _(e: ev.ReturnPending, s: Skirmish) -> Skirmish:
    return _unit(s, e.unit, returning=True)


@evolve.on()
def _(e: ev.UnitReturned, s: Skirmish) -> Skirmish:
    return _unit(s, e.unit, returning=False, fainted=False, damage=e.damage, cell=_pos(e.cell))


@evolve.on()
def _(e: ev.EffectGiven, s: Skirmish) -> Skirmish:
    u = s.units[e.unit]
    return s.with_unit(replace(u, chips=(*u.chips, Chip(e.effect, e.by))))


@evolve.on()
def _(e: ev.EffectEnded, s: Skirmish) -> Skirmish:
    u = s.units[e.unit]
    return _unit(s, e.unit, chips=tuple(c for c in u.chips if c.kind != e.effect))


@evolve.on()
def _(e: ev.CardPlayed, s: Skirmish) -> Skirmish:
    p = s.player(e.seat)
    return s.with_player(e.seat, replace(p, hand=without(p.hand, e.card), discard=p.discard + (e.card,),
                                         ap=p.ap - e.cost))



