"""Seed 003, 2.4.3: equipment passives, through the same hooks as ailments. A passive is
off while its wearer is knocked out (`Entity.standing`)."""
from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from domain.engine.events import Event
from domain.engine.hooks import Handler, HookContext, Phase

from .. import events as ev
from ..content import content
from ..hooks import HOOKS, Affliction, KoCheck, Selectable, StatQuery, StrikeQuery
from ..hp import afflict, heal, triggered
from ..state import ENEMIES, Entity, Params, Rat
from ..stats import clamp_level


def _worn(ctx: HookContext, s: Rat, entity: str | None = None) -> bool:
    owner = s.entities.get(ctx.effect.owner)
    return owner is not None and not owner.dead and not owner.ko and (entity is None or entity == owner.id)


@HOOKS.hook(Phase.BEFORE, on=StatQuery, kind="ball_and_chain")
def ball_and_chain(ctx: HookContext, s: Rat, q: StatQuery) -> StatQuery:
    """BALL_AND_CHAIN: SPD is treated as negative infinity at all times."""
    return replace(q, floor=True) if q.stat == "spd" and not q.floor and _worn(ctx, s, q.entity) else q


def _regenerates(s: Rat, wearer: Entity) -> bool:
    """A hurt wearer heals. So does an enemy at full HP, whose heal moves none, unless 1.0.0's
    rules play: its gear acting only when hurt would tell the party when it is full."""
    return wearer.hp < wearer.max_hp or (wearer.side == ENEMIES and s.rules.enemy_hp_changes == "made")


def regen(fraction: int, turns: Callable[[Params], int] | None) -> Handler:
    """on_turn_end: 1/`fraction` of max HP, in the battle's first `turns(params)` turns (or all)."""
    def on_turn_end(ctx: HookContext, s: Rat, e: ev.TurnEnding) -> list[Event]:
        if e.entity != ctx.effect.owner:        # another entity's turn end: one per entity
            return []
        wearer = s.entities[ctx.effect.owner]
        in_time = turns is None or e.turn <= turns(s.params)
        if _worn(ctx, s) and _regenerates(s, wearer) and in_time:
            triggered(ctx.resolver, ctx.effect.kind, wearer.id, e.TOPIC)
            heal(ctx.resolver, wearer.id, max(1, wearer.max_hp // fraction), ctx.effect.kind, wearer.id)
        return []
    return on_turn_end


# NOVELTY_SODA_HAT: 1/16 of max HP at the end of each of the battle's first 5 turns.
HOOKS.hook(Phase.AFTER, on=ev.TurnEnding, kind="novelty_soda_hat")(regen(16, lambda p: p.soda_turns))
# REGEN_SCARF (seed 003, 2.4.1's example passive): 1/16 at the end of every turn.
HOOKS.hook(Phase.AFTER, on=ev.TurnEnding, kind="regen_scarf")(regen(16, None))


@HOOKS.hook(Phase.AFTER, on=ev.TurnEnding, kind="feathered_head")
def feathered_head(ctx: HookContext, s: Rat, e: ev.TurnEnding) -> list[Event]:
    """FEATHERED_HEAD: at the end of each turn, ATK rises one level."""
    if e.entity != ctx.effect.owner:
        return []
    wearer = s.entities[ctx.effect.owner]
    level = clamp_level(wearer.level("atk") + 1, s.params.level_cap)
    if not _worn(ctx, s) or level == wearer.level("atk"):
        return []
    return [ev.StatLevelChanged(target=wearer.id, stat="atk", level=level, by=wearer.id)]


def strike_ailment(kind: str, chance: int) -> Handler:
    def on_hit(ctx: HookContext, s: Rat, e: ev.HpChanged | ev.EnemyHpChanged) -> list[Event]:
        if e.by != ctx.effect.owner or e.cause != "strike" or not _worn(ctx, s):
            return []
        if chance >= 100 or ctx.resolver.rng.chance(chance, 100):
            triggered(ctx.resolver, ctx.effect.kind, ctx.effect.owner, e.TOPIC)
            afflict(ctx.resolver, e.target, kind, ctx.effect.owner)
        return []
    return on_hit


for _kind, _ailment, _chance in (("long_night_knife", "bleeding", 100), ("strike_burn", "burned", 30),
                                 ("strike_chill", "chilled", 30)):
    # LONG_NIGHT_KNIFE: STRIKE makes the target bleed; the rings burn or chill on 30%.
    for _on in (ev.HpChanged, ev.EnemyHpChanged):
        HOOKS.hook(Phase.AFTER, on=_on, kind=_kind)(strike_ailment(_ailment, _chance))


def _hit(s: Rat, e: ev.HpChanged | ev.EnemyHpChanged) -> bool:
    """Damage: a change that took HP; on an enemy, any hit, even one that took none (POISONED
    leaving it at 1 HP), unless 1.0.0's rules play, since how much HP moved is hidden."""
    if isinstance(e, ev.EnemyHpChanged) and s.rules.enemy_hp_changes == "made":
        return not e.healed
    return (e.delta or 0) < 0


@HOOKS.hook(Phase.AFTER, on=ev.HpChanged, kind="thorn_mail")
@HOOKS.hook(Phase.AFTER, on=ev.EnemyHpChanged, kind="thorn_mail")
def thorn_mail(ctx: HookContext, s: Rat, e: ev.HpChanged | ev.EnemyHpChanged) -> list[Event]:
    """THORN_MAIL: whoever of the other side damages the wearer loses one ATK level."""
    attacker = s.entities.get(e.by or "")
    wearer = s.entities[ctx.effect.owner]
    if e.target != wearer.id or not _hit(s, e) or attacker is None or attacker.side == wearer.side:
        return []
    if not _worn(ctx, s) or attacker.dead:
        return []
    level = clamp_level(attacker.level("atk") - 1, s.params.level_cap)
    return [] if level == attacker.level("atk") else [
        ev.StatLevelChanged(target=attacker.id, stat="atk", level=level, by=wearer.id)]


@HOOKS.hook(Phase.BEFORE, on=KoCheck, kind="guardian_locket", priority=1)
def guardian_locket(ctx: HookContext, s: Rat, q: KoCheck) -> KoCheck:
    """GUARDIAN_LOCKET: the first knock-out of a battle leaves the wearer at 1 HP instead."""
    wearer = s.entities[ctx.effect.owner]
    if q.entity == wearer.id and q.result == "knocked_out" and not wearer.saved:
        return replace(q, result="spared:guardian_locket")
    return q


@HOOKS.hook(Phase.BEFORE, on=Affliction, kind="steady_boots")
def steady_boots(ctx: HookContext, s: Rat, q: Affliction) -> Affliction:
    """STEADY_BOOTS: the wearer cannot be STUNNED."""
    return replace(q, result="immune") if q.kind == "stunned" and _worn(ctx, s, q.entity) else q


@HOOKS.hook(Phase.BEFORE, on=Selectable, kind="assault_vest")
def assault_vest(ctx: HookContext, s: Rat, q: Selectable) -> Selectable:
    """ASSAULT_VEST: a move that deals no damage may not be selected (intrinsic moves may)."""
    action = content().actions[q.action]
    if q.entity == ctx.effect.owner and action.kind == "move" and not action.damaging:
        return replace(q, allowed=False)
    return q


@HOOKS.hook(Phase.BEFORE, on=StrikeQuery, kind="mouse_sized_cheese")
def mouse_sized_cheese(ctx: HookContext, s: Rat, q: StrikeQuery) -> StrikeQuery:
    """MOUSE_SIZED_CHEESE: the first STRIKE of a battle heals the user 50% of max HP instead."""
    wearer = s.entities[ctx.effect.owner]
    if q.entity == wearer.id and wearer.strikes == 0 and _worn(ctx, s):
        return replace(q, heal_pct=50)
    return q
