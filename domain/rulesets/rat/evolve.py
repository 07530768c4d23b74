"""Rat's evolve: one small function per event type, with no rules in it."""
from __future__ import annotations

from collections.abc import Callable
from typing import cast

import msgspec
from msgspec.structs import replace

from domain.engine.reducer import Reducer

from . import events as ev
from .content import content
from .state import Entity, Params, Plan, Rat, Rules, Status, TurnLog

evolve: Reducer[Rat] = Reducer("rat")


def _entity(s: Rat, key: str, **changes: object) -> Rat:
    return replace(s, entities={**s.entities, key: replace(s.entities[key], **changes)})


# Every effects tuple made so far, by value: a state gets the one object for each value, so
# that what the hooks worked out for it (`Hooks.plan`, by identity) serves every state, turn
# and battle with the same effects. Statuses are frozen and compare by value.
_EFFECTS: dict[tuple[Status, ...], tuple[Status, ...]] = {}
_EFFECTS_MAX = 4096


def _one(effects: tuple[Status, ...]) -> tuple[Status, ...]:
    """The tuple kept for the value of `effects` (`effects` itself, the first time)."""
    found = _EFFECTS.get(effects)
    if found is None:
        if len(_EFFECTS) >= _EFFECTS_MAX:
            _EFFECTS.clear()
        found = _EFFECTS[effects] = effects
    return found


def _kept(effects: tuple[Status, ...], keep: Callable[[Status], bool]) -> tuple[Status, ...]:
    """The effects `keep` keeps: the same tuple when it keeps them all."""
    kept = tuple(x for x in effects if keep(x))
    return effects if len(kept) == len(effects) else _one(kept)


def _without(s: Rat, owner: str, kind: str) -> Rat:
    return replace(s, effects=_kept(s.effects, lambda x: not (x.owner == owner and x.kind == kind)))


def _passives(members: tuple[Entity, ...]) -> tuple[Status, ...]:
    """Worn equipment's passive effects, in member and slot order."""
    worn = content().equipment
    return tuple(Status(kind=worn[item].effect, owner=m.id, source="equipment")
                 for m in members for item in m.equipment if worn[item].effect)


@evolve.on()
def _(e: ev.RatStarted, s: Rat | None) -> Rat:
    if e.enemy_hp is None:
        # A redacted copy has no enemy HP; replay playback refuses such a file on a TypeError.
        raise TypeError(f"{e.TOPIC} without the enemies' HP cannot be folded")
    hp = e.enemy_hp
    enemies = tuple(msgspec.convert({**x, "hp": hp[cast(str, x["id"])], "max_hp": hp[cast(str, x["id"])]}, type=Entity)
                    for x in e.enemies)
    return Rat(params=msgspec.convert(e.params, type=Params), rules=msgspec.convert(e.rules, type=Rules),
               formation=e.formation, seats=dict(e.seats), entities={m.id: m for m in enemies},
               effects=_one(_passives(enemies)))


@evolve.on()
def _(e: ev.PartyJoined, s: Rat) -> Rat:
    members = tuple(msgspec.convert(x, type=Entity) for x in e.members or ())
    return replace(s, entities={**{m.id: m for m in members}, **s.entities},
                   effects=_one(_passives(members) + s.effects))


# Events that only explain the log: the resolver need not call anything for them.
evolve.unchanged(ev.PartyShown, ev.DamageIgnored, ev.ActionFailed, ev.HpGauge, ev.TurnEnding)


@evolve.on()
def _(e: ev.ActionSkipped, s: Rat) -> Rat:
    return replace(s, acted=(*s.acted, e.actor))


@evolve.on()
def _(e: ev.TurnStarted, s: Rat) -> Rat:
    return replace(s, turn=e.turn, order=e.queue, acted=(), this_turn=(), plans={})


@evolve.on()
def _(e: ev.StatusesAged, s: Rat) -> Rat:
    aged = {(owner, kind): turns for owner, kind, turns in e.elapsed}
    return replace(s, effects=_one(tuple(replace(x, turns=aged[(x.owner, x.kind)]) if (x.owner, x.kind) in aged
                                         else x for x in s.effects)))


@evolve.on()
def _(e: ev.ActionPlanned, s: Rat) -> Rat:
    plan = Plan(actor=e.actor, action=e.action or "", target=e.target, move=e.move)
    return replace(s, plans={**s.plans, e.actor: plan})


@evolve.on()
def _(e: ev.EnemyChose, s: Rat) -> Rat:
    plan = Plan(actor=e.actor, action=e.action, target=e.target, move=e.move)
    return replace(s, plans={**s.plans, e.actor: plan}, this_turn=(*s.this_turn, plan), resolving=True)


@evolve.on()
def _(e: ev.ActionRevealed, s: Rat) -> Rat:
    plan = Plan(actor=e.actor, action=e.action, target=e.target, move=e.move)
    return replace(s, this_turn=(*s.this_turn, plan), resolving=True)


@evolve.on()
def _(e: ev.PriorityBoosted, s: Rat) -> Rat:
    return _entity(s, e.target, boost=s.entities[e.target].boost + e.amount)


@evolve.on()
def _(e: ev.ActionTaken, s: Rat) -> Rat:
    actor = s.entities[e.actor]
    changes: dict[str, object] = {}
    if e.pp is not None:
        changes["moves"] = {**actor.moves, e.action: e.pp}
        if e.action not in actor.used:
            changes["used"] = (*actor.used, e.action)
    if e.action == "strike":
        changes["strikes"] = actor.strikes + 1
    s = replace(s, acted=(*s.acted, e.actor))
    return _entity(s, e.actor, **changes) if changes else s


@evolve.on()
def _(e: ev.ConsumableUsed, s: Rat) -> Rat:
    actor = s.entities[e.actor]
    stack = actor.items[e.item]
    items = {**actor.items, e.item: replace(stack, count=stack.count - 1)}
    return _entity(replace(s, acted=(*s.acted, e.actor)), e.actor, items=items)


@evolve.on(ev.HpChanged, ev.EnemyHpChanged)
def _(e: ev.HpChanged | ev.EnemyHpChanged, s: Rat) -> Rat:
    entities = s.entities       # `_entity`, spelled out: the commonest event of a turn
    return replace(s, entities={**entities, e.target: replace(entities[e.target], hp=e.hp)})


@evolve.on()
def _(e: ev.KnockedOut, s: Rat) -> Rat:
    return _entity(s, e.target, hp=0, ko=True, ko_turn=e.turn)


@evolve.on()
def _(e: ev.KnockOutAverted, s: Rat) -> Rat:
    return _entity(s, e.target, saved=True) if e.by == "guardian_locket" else s


@evolve.on()
def _(e: ev.Revived, s: Rat) -> Rat:
    return _entity(s, e.target, ko=False)


@evolve.on()
def _(e: ev.Killed, s: Rat) -> Rat:
    target = s.entities[e.target]
    s = _entity(s, e.target, hp=0, ko=False, dead=True)
    effects = _kept(s.effects, lambda x: x.owner != e.target)
    killed = (*s.killed, e.target) if target.side == "enemies" else s.killed
    return replace(s, effects=effects, killed=killed)


@evolve.on()
def _(e: ev.StatusGained, s: Rat) -> Rat:
    return replace(s, effects=_one((*s.effects, Status(kind=e.kind, owner=e.target, source="ailment",
                                                       gained=e.turn))))


@evolve.on()
def _(e: ev.StatusRemoved, s: Rat) -> Rat:
    return _without(s, e.target, e.kind)


@evolve.on()
def _(e: ev.StatLevelChanged, s: Rat) -> Rat:
    target = s.entities[e.target]
    return _entity(s, e.target, levels={**target.levels, e.stat: e.level})


@evolve.on()
def _(e: ev.Protected, s: Rat) -> Rat:
    s = replace(s, effects=_one((*s.effects, Status(kind="protected", owner=e.target, source="protect",
                                                    gained=e.turn))))
    return _entity(s, e.target, protected_turn=e.turn)


@evolve.on()
def _(e: ev.Analyzed, s: Rat) -> Rat:
    s = _without(s, e.target, "analyzed")
    return replace(s, effects=_one((*s.effects, Status(kind="analyzed", owner=e.target,
                                                       source=f"analyze:{e.mode}"))))


@evolve.on()
def _(e: ev.WishMade, s: Rat) -> Rat:
    wish = Status(kind="wish", owner=e.target, source="wish", severity=e.amount, gained=e.turn)
    return replace(s, effects=_one((*s.effects, wish)))


@evolve.on()
def _(e: ev.WishGranted, s: Rat) -> Rat:
    first = next(x for x in s.effects if x.owner == e.target and x.kind == "wish")
    return replace(s, effects=_one(tuple(x for x in s.effects if x is not first)))


@evolve.on()
def _(e: ev.PpRestored, s: Rat) -> Rat:
    actor = s.entities[e.actor]
    return _entity(s, e.actor, moves={**actor.moves, e.move: e.pp})


@evolve.on()
def _(e: ev.TurnEnded, s: Rat) -> Rat:
    entities = {k: replace(x, boost=0) if x.boost else x for k, x in s.entities.items()}
    log = TurnLog(turn=e.turn, actions=s.this_turn, party_hp=dict(e.party_hp))
    return replace(s, entities=entities, effects=_kept(s.effects, lambda x: x.kind != "protected"),
                   history=(*s.history, log), resolving=False, plans={})


@evolve.on()
def _(e: ev.BattleDecided, s: Rat) -> Rat:
    return replace(s, result=(e.winner, e.reason))
