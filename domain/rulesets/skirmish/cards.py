"""Seed 001, Cards and Keywords: using a skill card, its steps (registered by id) and its
keyword."""
from __future__ import annotations

from collections.abc import Callable

import msgspec

from domain.engine.errors import RuleViolation
from domain.engine.registry import Registry

from . import events as ev
from .board import distance
from .combat import own_unit
from .commands import Play
from .content import Card, Step, content
from .hooks import targetable
from .resolver import SkirmishResolver, check_defeat, draw, give, heal
from .state import Skirmish, Unit, opponent


class Use(msgspec.Struct, frozen=True, kw_only=True):
    """A card in use: who plays it, which unit uses it, and the units it affects."""
    seat: str
    user: str
    card: str
    targets: tuple[str, ...]
    attacks_spent: bool             # Aftermath is judged as the skill is used, before its effects


StepFn = Callable[[SkirmishResolver, Use, Step], None]
STEPS: Registry[str, StepFn] = Registry("skirmish card step")
Activate = Callable[[int], None]        # run the card's keyed steps this many times
KeywordFn = Callable[[SkirmishResolver, Use, Card, Play, Activate], None]
KEYWORDS: Registry[str, KeywordFn] = Registry("skirmish keyword")


@STEPS.register("damage")
def _damage(b: SkirmishResolver, use: Use, step: Step) -> None:
    """Skill damage is not an attack: no counter-attack, and Fortified waits for an attack."""
    for key in use.targets:
        unit = b.state.units[key]
        if unit.on_board:
            b.emit(ev.SkillDamaged(unit=key, card=use.card, amount=step.amount, damage=unit.damage + step.amount))


@STEPS.register("heal")
def _heal(b: SkirmishResolver, use: Use, step: Step) -> None:
    for key in use.targets:
        heal(b, key, step.amount, use.user)


@STEPS.register("give")
def _give(b: SkirmishResolver, use: Use, step: Step) -> None:
    assert step.effect is not None, "the content test checks every give names an effect"
    for key in use.targets:
        give(b, key, step.effect, use.seat)


@STEPS.register("gain")
def _gain(b: SkirmishResolver, use: Use, step: Step) -> None:
    assert step.effect is not None, "the content test checks every gain names an effect"
    give(b, use.user, step.effect, use.seat)


@STEPS.register("draw")
def _draw(b: SkirmishResolver, use: Use, step: Step) -> None:
    draw(b, use.seat, step.count)


@KEYWORDS.register("storm")
def _storm(b: SkirmishResolver, use: Use, card: Card, cmd: Play, activate: Activate) -> None:
    """Once for each skill with Storm used, this one included (Gathering Storm adds to it)."""
    storm = b.state.player(use.seat).storm + 1
    b.emit(ev.StormRaised(seat=use.seat, storm=storm, by=card.id))
    activate(storm)


@KEYWORDS.register("channel")
def _channel(b: SkirmishResolver, use: Use, card: Card, cmd: Play, activate: Activate) -> None:
    """If the user isn't Restrained; then it is Restrained (until the start of your next turn)."""
    if not b.state.units[use.user].has("restrained"):
        activate(1)
    give(b, use.user, "restrained", use.seat)


@KEYWORDS.register("exert")
def _exert(b: SkirmishResolver, use: Use, card: Card, cmd: Play, activate: Activate) -> None:
    """Only when the player chooses to (`exert: true`): the maximum AP goes down by one."""
    if cmd.exert:
        p = b.state.player(use.seat)
        b.emit(ev.MaxApChanged(seat=use.seat, max_ap=p.max_ap - 1, ap=min(p.ap, p.max_ap - 1), by=card.id))
        activate(1)


@KEYWORDS.register("aftermath")
def _aftermath(b: SkirmishResolver, use: Use, card: Card, cmd: Play, activate: Activate) -> None:
    """The user has attacked this turn and holds no Adrenaline to attack again."""
    if use.attacks_spent:
        activate(1)


@KEYWORDS.register("threshold")
def _threshold(b: SkirmishResolver, use: Use, card: Card, cmd: Play, activate: Activate) -> None:
    """Five or more action points left once the card is paid for."""
    if b.state.player(use.seat).ap >= b.state.params.threshold_ap:
        activate(1)


def run(b: SkirmishResolver, use: Use, steps: tuple[Step, ...], card: Card, times: int) -> None:
    b.emit(ev.KeywordActivated(card=card.id, keyword=card.keyword or "", times=times))
    for _ in range(times):
        for step in steps:
            STEPS[step.do](b, use, step)


def play(b: SkirmishResolver, seat: str, cmd: Play) -> None:
    s = b.state
    card, user, targets = checked(s, seat, cmd)
    b.emit(ev.CardPlayed(seat=seat, card=card.id, character=user.character, target=cmd.target, exert=cmd.exert,
                         cost=card.cost))
    use = Use(seat=seat, user=user.key, card=card.id, targets=targets,
              attacks_spent=user.attacked and not user.has("adrenaline"))
    for step in card.effects:
        STEPS[step.do](b, use, step)
    if card.keyword is not None and not b.over:
        KEYWORDS[card.keyword](b, use, card, cmd, lambda times: run(b, use, card.keyed, card, times))
    check_defeat(b)


def can_use(card: Card, unit: Unit) -> bool:
    """A unique card is its character's; a class skill card is any unit of that class's."""
    return card.owner == unit.character if card.owner is not None else card.cls == unit.cls


def checked(s: Skirmish, seat: str, cmd: Play) -> tuple[Card, Unit, tuple[str, ...]]:
    card = content().cards.get(cmd.card)
    if card is None or cmd.card not in s.player(seat).hand:
        raise RuleViolation(f"{cmd.card!r} is not in your hand", card=cmd.card)
    user = own_unit(s, seat, cmd.character)
    if not can_use(card, user):
        raise RuleViolation(f"{user.character} cannot use {card.name}", card=card.id)
    ap = s.player(seat).ap
    if card.cost > ap:
        raise RuleViolation(f"{card.name} costs {card.cost} AP; you have {ap}", cost=card.cost, ap=ap)
    if cmd.exert and (card.keyword != "exert" or s.player(seat).max_ap < 1):
        raise RuleViolation(f"{card.name} cannot be exerted" if card.keyword != "exert"
                            else "exerting needs a point of maximum AP")
    return card, user, targets_of(s, seat, card, user, cmd.target)


def targets_of(s: Skirmish, seat: str, card: Card, user: Unit, target: str | None) -> tuple[str, ...]:
    if card.target in ("self", "all_allies", "all_enemies"):
        if target is not None:
            raise RuleViolation(f"{card.name} takes no target", target=target)
        if card.target == "self":
            return (user.key,)
        side = seat if card.target == "all_allies" else opponent(seat)
        return tuple(u.key for u in s.fielded(side) if u.on_board)
    unit = s.units.get(target) if target is not None else None
    wanted = seat if card.target == "ally" else opponent(seat)
    if unit is None or unit.seat != wanted or not unit.on_board:
        raise RuleViolation(f"{card.name} needs {'an ally' if card.target == 'ally' else 'an opponent'} "
                            "on the board as its target", target=target)
    if card.target == "enemy":
        if not targetable(s, unit, seat):
            raise RuleViolation(f"{unit.character} is Concealed", target=target)
        if card.range is not None and distance(s, user, unit) > card.range:
            raise RuleViolation(f"{card.name} reaches {card.range} tiles; {unit.character} is "
                                f"{distance(s, user, unit)} away", range=card.range)
    return (unit.key,)
