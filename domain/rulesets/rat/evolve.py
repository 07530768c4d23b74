"""Rat's evolve: one small function per event type, with no rules in it."""
from __future__ import annotations

from typing import cast

import msgspec
from msgspec.structs import replace

from domain.engine.reducer import Reducer

from . import events as ev
from .content import content
from .state import Entity, Params, Plan, Rat, Rules, Status, TurnLog

evolve: Reducer[Rat] = Reducer("rat")


def _put(entities: dict[str, Entity], key: str, entity: Entity) -> dict[str, Entity]:
    """`{**entities, key: entity}`, which a copy and one item set make more cheaply. A handler
    gives `replace` the fields it changes by name, never as `**changes`: that costs a dict."""
    found = entities.copy()
    found[key] = entity
    return found


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


def _kept(effects: tuple[Status, ...], kept: list[Status]) -> tuple[Status, ...]:
    """The effects in `kept` (those of `effects` some test kept, in order): the same tuple
    when it kept them all. The callers test in a comprehension, without a call per effect."""
    return effects if len(kept) == len(effects) else _one(tuple(kept))


def _without(s: Rat, owner: str, kind: str) -> Rat:
    effects = s.effects
    return replace(s, effects=_kept(effects, [x for x in effects if x.owner != owner or x.kind != kind]))


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
    return replace(s, acted=s.acted + (e.actor,))


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
    plans = s.plans.copy()
    plans[e.actor] = Plan(actor=e.actor, action=e.action or "", target=e.target, move=e.move)
    return replace(s, plans=plans)


@evolve.on()
def _(e: ev.EnemyChose, s: Rat) -> Rat:
    plan = Plan(actor=e.actor, action=e.action, target=e.target, move=e.move)
    plans = s.plans.copy()
    plans[e.actor] = plan
    return replace(s, plans=plans, this_turn=s.this_turn + (plan,), resolving=True)


@evolve.on()
def _(e: ev.ActionRevealed, s: Rat) -> Rat:
    plan = Plan(actor=e.actor, action=e.action, target=e.target, move=e.move)
    return replace(s, this_turn=s.this_turn + (plan,), resolving=True)


@evolve.on()
def _(e: ev.PriorityBoosted, s: Rat) -> Rat:
    target = s.entities[e.target]
    return replace(s, entities=_put(s.entities, e.target, replace(target, boost=target.boost + e.amount)))


@evolve.on()
def _(e: ev.ActionTaken, s: Rat) -> Rat:
    # One new state for the actor's entity and `acted` together: an event of every action.
    actor = s.entities[e.actor]
    acted = s.acted + (e.actor,)
    if e.pp is not None:
        moves = actor.moves.copy()
        moves[e.action] = e.pp
        used = actor.used if e.action in actor.used else actor.used + (e.action,)
        if e.action == "strike":
            actor = replace(actor, moves=moves, used=used, strikes=actor.strikes + 1)
        else:
            actor = replace(actor, moves=moves, used=used)
    elif e.action == "strike":
        actor = replace(actor, strikes=actor.strikes + 1)
    else:
        return replace(s, acted=acted)
    entities = s.entities.copy()        # `_put`, spelled out
    entities[e.actor] = actor
    return replace(s, acted=acted, entities=entities)


@evolve.on()
def _(e: ev.ConsumableUsed, s: Rat) -> Rat:
    actor = s.entities[e.actor]
    items = actor.items.copy()
    stack = items[e.item]
    items[e.item] = replace(stack, count=stack.count - 1)
    return replace(s, acted=s.acted + (e.actor,), entities=_put(s.entities, e.actor, replace(actor, items=items)))


@evolve.on(ev.HpChanged, ev.EnemyHpChanged)
def _(e: ev.HpChanged | ev.EnemyHpChanged, s: Rat) -> Rat:
    entities = s.entities.copy()        # `_put`, spelled out: the commonest event of a turn
    entities[e.target] = replace(entities[e.target], hp=e.hp)
    return replace(s, entities=entities)


@evolve.on()
def _(e: ev.KnockedOut, s: Rat) -> Rat:
    target = replace(s.entities[e.target], hp=0, ko=True, ko_turn=e.turn)
    return replace(s, entities=_put(s.entities, e.target, target))


@evolve.on()
def _(e: ev.KnockOutAverted, s: Rat) -> Rat:
    if e.by != "guardian_locket":
        return s
    return replace(s, entities=_put(s.entities, e.target, replace(s.entities[e.target], saved=True)))


@evolve.on()
def _(e: ev.Revived, s: Rat) -> Rat:
    return replace(s, entities=_put(s.entities, e.target, replace(s.entities[e.target], ko=False)))


@evolve.on()
def _(e: ev.Killed, s: Rat) -> Rat:
    target = s.entities[e.target]
    effects = _kept(s.effects, [x for x in s.effects if x.owner != e.target])
    killed = s.killed + (e.target,) if target.side == "enemies" else s.killed
    return replace(s, entities=_put(s.entities, e.target, replace(target, hp=0, ko=False, dead=True)),
                   effects=effects, killed=killed)


@evolve.on()
def _(e: ev.StatusGained, s: Rat) -> Rat:
    gained = Status(kind=e.kind, owner=e.target, source="ailment", gained=e.turn)
    return replace(s, effects=_one(s.effects + (gained,)))


@evolve.on()
def _(e: ev.StatusRemoved, s: Rat) -> Rat:
    return _without(s, e.target, e.kind)


@evolve.on()
def _(e: ev.StatLevelChanged, s: Rat) -> Rat:
    target = s.entities[e.target]
    levels = target.levels.copy()
    levels[e.stat] = e.level
    return replace(s, entities=_put(s.entities, e.target, replace(target, levels=levels)))


@evolve.on()
def _(e: ev.Protected, s: Rat) -> Rat:
    protected = Status(kind="protected", owner=e.target, source="protect", gained=e.turn)
    return replace(s, effects=_one(s.effects + (protected,)),
                   entities=_put(s.entities, e.target, replace(s.entities[e.target], protected_turn=e.turn)))


@evolve.on()
def _(e: ev.Analyzed, s: Rat) -> Rat:
    s = _without(s, e.target, "analyzed")
    mark = Status(kind="analyzed", owner=e.target, source=f"analyze:{e.mode}")
    return replace(s, effects=_one(s.effects + (mark,)))


@evolve.on()
def _(e: ev.WishMade, s: Rat) -> Rat:
    wish = Status(kind="wish", owner=e.target, source="wish", severity=e.amount, gained=e.turn)
    return replace(s, effects=_one(s.effects + (wish,)))


@evolve.on()
def _(e: ev.WishGranted, s: Rat) -> Rat:
    first = next(x for x in s.effects if x.owner == e.target and x.kind == "wish")
    return replace(s, effects=_one(tuple([x for x in s.effects if x is not first])))


@evolve.on()
def _(e: ev.PpRestored, s: Rat) -> Rat:
    actor = s.entities[e.actor]
    moves = actor.moves.copy()
    moves[e.move] = e.pp
    return replace(s, entities=_put(s.entities, e.actor, replace(actor, moves=moves)))


@evolve.on()
def _(e: ev.TurnEnded, s: Rat) -> Rat:
    entities = s.entities
    for x in entities.values():
        if x.boost:         # priority boosts end with the turn: the entities anew, once one has one
            entities = {k: replace(x, boost=0) if x.boost else x for k, x in entities.items()}
            break
    log = TurnLog(turn=e.turn, actions=s.this_turn, party_hp=dict(e.party_hp))
    effects = _kept(s.effects, [x for x in s.effects if x.kind != "protected"])
    return replace(s, entities=entities, effects=effects, history=s.history + (log,), resolving=False, plans={})


@evolve.on()
def _(e: ev.BattleDecided, s: Rat) -> Rat:
    return replace(s, result=(e.winner, e.reason))
