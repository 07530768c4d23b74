"""Seed 001, Talents: Prologue (first entry), Epilogue (first exit), Interlude (turn start).
Each talent is a function registered by id; the hook that calls it is registered with it."""
from __future__ import annotations

from collections.abc import Callable

from domain.engine.hooks import HookContext, Phase
from domain.engine.registry import Registry

from .. import events as ev
from ..hooks import HOOKS
from ..resolver import SkirmishResolver, draw, heal
from ..state import Skirmish, opponent

TalentFn = Callable[[SkirmishResolver, str], None]
TALENTS: Registry[str, TalentFn] = Registry("skirmish talent")
WHEN: dict[str, str] = {}


def _prologue(ctx: HookContext, s: Skirmish, e: ev.UnitEntered) -> None:
    if e.unit == ctx.effect.owner:
        trigger(ctx.resolver, e.unit, ctx.effect.kind)


def _epilogue(ctx: HookContext, s: Skirmish, e: ev.UnitFainted) -> None:
    if e.unit == ctx.effect.owner and s.units[e.unit].exits == 1:
        trigger(ctx.resolver, e.unit, ctx.effect.kind)


def _interlude(ctx: HookContext, s: Skirmish, e: ev.TurnStarted) -> None:
    unit = s.units[ctx.effect.owner]
    if unit.seat == e.seat and unit.on_board:
        trigger(ctx.resolver, unit.key, ctx.effect.kind)


_HOOK_ON: dict[str, tuple[type, Callable[..., None]]] = {
    "prologue": (ev.UnitEntered, _prologue), "epilogue": (ev.UnitFainted, _epilogue),
    "interlude": (ev.TurnStarted, _interlude)}


def talent(talent_id: str, when: str) -> Callable[[TalentFn], TalentFn]:
    def register(fn: TalentFn) -> TalentFn:
        TALENTS.add(talent_id, fn)
        WHEN[talent_id] = when
        on, hook = _HOOK_ON[when]
        HOOKS.hook(Phase.AFTER, on=on, kind=talent_id)(hook)
        return fn
    return register


def trigger(b: SkirmishResolver, unit: str, talent_id: str) -> None:
    b.emit(ev.TalentTriggered(unit=unit, talent=talent_id))
    TALENTS[talent_id](b, unit)


@talent("early_bird", "prologue")
def early_bird(b: SkirmishResolver, key: str) -> None:
    """Gain an action point: a point of maximum AP, since AP is restored to the maximum at the
    start of every turn and a point gained before it would vanish (README)."""
    seat = b.state.units[key].seat
    p = b.state.player(seat)
    gained = min(b.state.params.early_bird_ap, b.state.params.ap_cap - p.max_ap)
    b.emit(ev.MaxApChanged(seat=seat, max_ap=p.max_ap + gained, ap=p.ap + gained, by=key))


@talent("mirror_match", "prologue")
def mirror_match(b: SkirmishResolver, key: str) -> None:
    """Copy a talent from a random opponent (the battle's RNG draws among the fielded
    opponents whose talent is not Mirror Match); a copied Prologue triggers at once."""
    s = b.state
    candidates = [u for u in s.fielded(opponent(s.units[key].seat)) if u.talent != "mirror_match"]
    if not candidates:
        return
    source = b.rng.choice(candidates)
    b.emit(ev.TalentCopied(unit=key, talent=source.talent, source=source.key))
    if WHEN[source.talent] == "prologue":
        trigger(b, key, source.talent)


@talent("intimidating_presence", "prologue")
def intimidating_presence(b: SkirmishResolver, key: str) -> None:
    """Lower the power and armor of all opponents, one tier each (README)."""
    s = b.state
    for foe in s.fielded(opponent(s.units[key].seat)):
        if not foe.fainted:
            b.emit(ev.StatsLowered(unit=foe.key, power=max(1, foe.power - s.params.intimidate_power),
                                   armor=max(0, foe.armor - s.params.intimidate_armor), by=key))


@talent("last_will", "epilogue")
def last_will(b: SkirmishResolver, key: str) -> None:
    draw(b, b.state.units[key].seat, b.state.params.last_will_draw)


@talent("serene_grace", "epilogue")
def serene_grace(b: SkirmishResolver, key: str) -> None:
    seat = b.state.units[key].seat
    for ally in b.state.fielded(seat):
        heal(b, ally.key, b.state.params.serene_grace_heal, key)


@talent("second_chance", "epilogue")
def second_chance(b: SkirmishResolver, key: str) -> None:
    b.emit(ev.ReturnPending(unit=key))


@talent("gathering_storm", "interlude")
def gathering_storm(b: SkirmishResolver, key: str) -> None:
    seat = b.state.units[key].seat
    b.emit(ev.StormRaised(seat=seat, storm=b.state.player(seat).storm + 1, by=key))
