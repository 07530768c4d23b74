"""Seed 003, AI: one turn is (1) start-of-turn effects, (2) the sort, (3) every entity
chooses, (4) the actions resolve in priority order, (5) end-of-turn effects."""
from __future__ import annotations

from collections.abc import Iterable

from . import events as ev
from .ai import choose_for_enemies
from .content import Action, content
from .hooks import Aging, CanAct, Row, StatQuery, StrikeQuery, in_play
from .hp import decide_end, heal
from .legal import stopped, waiting
from .resolver import RatResolver
from .state import ENEMIES, PARTY, Plan, Rat
from .stats import OrderKeys, kept_keys, order_key, queue
from .steps import STEP_FNS, Use


def begin_turn(r: RatResolver) -> None:
    """Ailment counters advance (expired ones are cured), due WISHes heal, then the sort."""
    s = r.state
    turn = s.turn + 1
    if turn > s.params.max_turns:
        r.emit(ev.BattleDecided(winner=None, reason="turn_limit"))
        return
    aged, expired = [], []
    aging = in_play(Aging, s.effects)       # with no hook in play, every counter advances by 1
    for status in s.effects:
        if status.source != "ailment":
            continue
        step = r.query(Aging(entity=status.owner, kind=status.kind, turn=turn)).step if aging else 1
        elapsed = status.turns + step
        aged.append((status.owner, status.kind, elapsed))
        duration = content().ailments[status.kind].duration
        if duration and elapsed >= duration:
            expired.append(status)
    if aged:
        r.emit(ev.StatusesAged(turn=turn, elapsed=tuple(aged)))
    for status in expired:
        r.emit(ev.StatusRemoved(target=status.owner, kind=status.kind, reason="expired"))
    for wish in [x for x in r.state.effects if x.kind == "wish" and x.gained + s.params.wish_delay == turn]:
        r.emit(ev.WishGranted(target=wish.owner, amount=wish.severity))
        heal(r, wish.owner, wish.severity, "wish", None)
    r.emit(ev.TurnStarted(turn=turn, queue=queue(r.state)))


def reveal(r: RatResolver) -> None:
    """Every side has chosen: the rules' AI chooses for the enemies (from public knowledge
    only), then every seat's plans are made public, and priority boosts apply."""
    s = r.state
    hooks, entities, plans = in_play(CanAct, s.effects), s.entities, s.plans
    for key in s.order:
        e = entities[key]
        reason = stopped(s, e, hooks) if key not in plans and not e.dead else ""
        if reason:          # never asked to choose: the log says why
            r.emit(ev.ActionSkipped(actor=key, reason=reason))
    if s.seats.get(ENEMIES) is None:
        for plan in choose_for_enemies(s, r.rng):
            r.emit(ev.EnemyChose(actor=plan.actor, ai=entities[plan.actor].ai, action=plan.action,
                                 target=plan.target, move=plan.move))
    for key in s.order:
        planned = plans.get(key)
        if planned is None:
            continue
        seat = s.seats.get(entities[key].side)
        if seat is not None:
            r.emit(ev.ActionRevealed(seat=seat, actor=key, action=planned.action, target=planned.target,
                                     move=planned.move))
    actions = content().actions
    for plan in r.state.this_turn:
        boost = actions[plan.action].priority
        if boost:
            r.emit(ev.PriorityBoosted(target=plan.actor, amount=boost, by=plan.actor))


def next_up(s: Rat, keys: OrderKeys | None = None, plans: Iterable[Plan] | None = None) -> Plan | None:
    """The next action: recomputed after each one, since priority and SPD change mid-turn.
    `keys` keeps each actor's queue key as worked out for its entity object and the effects
    tuple in play, under the battle's rules and content (`stats.kept_keys`); a key for the same
    two objects is the same (`stats.order_key`: the stat hooks in play are those of the
    effects, and each reads only its owner's entity). `plans`: this turn's plans with those
    that have acted left out or not, in order."""
    effects, entities, acted = s.effects, s.entities, s.acted
    if keys is None:
        keys = {}
    hooks: list[Row] | None = None
    best, best_key = None, None
    for plan in s.this_turn if plans is None else plans:
        actor = plan.actor
        if actor in acted:
            continue
        e = entities[actor]
        kept = keys.get(actor)
        if kept is None or kept[0] is not e or kept[1] is not effects:
            if hooks is None:
                hooks = in_play(StatQuery, effects)
            kept = keys[actor] = (e, effects, order_key(s, e, hooks))
        if best_key is None or kept[2] < best_key:      # the first of equals, as min() picks
            best, best_key = plan, kept[2]
    return best


def resolve(r: RatResolver) -> None:
    keys = kept_keys(r.state)               # the queue's, for the entities it sorted that are unchanged
    plans = list(r.state.this_turn)         # shortened as they act: the next is sought among fewer
    while r.state.result is None:
        if len(plans) < 2:        # one plan left (or none): no order to work out
            plan = plans[0] if plans and plans[0].actor not in r.state.acted else None
        else:
            plan = next_up(r.state, keys, plans)
        if plan is None:
            return
        act(r, plan)
        if plan.actor in r.state.acted:
            plans.remove(plan)


def act(r: RatResolver, plan: Plan) -> None:
    s = r.state
    actor = s.entities[plan.actor]
    action = content().actions[plan.action]
    hooks = in_play(CanAct, s.effects)
    reason = stopped(s, actor, hooks)
    if not reason and plan.target is not None and s.entities[plan.target].dead:
        reason = "target_gone"
    if reason:
        r.emit(ev.ActionSkipped(actor=actor.id, reason=reason))
        return
    if action.kind == "consumable":
        seat = s.seats.get(actor.side)
        r.emit(ev.ConsumableUsed(actor=actor.id, item=action.id, target=plan.target, seat=seat,
                                 left=actor.items[action.id].count - 1))
    else:
        # A STRIKE asks its hooks (MOUSE_SIZED_CHEESE) only where one is in play: none changes it otherwise.
        cheese = r.query(StrikeQuery(entity=actor.id)).heal_pct \
            if action.id == "strike" and in_play(StrikeQuery, s.effects) else 0
        pp = actor.moves[action.id] - 1 if action.kind == "move" else None
        r.emit(ev.ActionTaken(actor=actor.id, action=action.id, target=plan.target, pp=pp))
        if cheese:
            heal(r, actor.id, actor.max_hp * cheese // 100, "mouse_sized_cheese", actor.id)
            return
    use = Use(actor.id, action, plan.move)
    for target in resolve_targets(r.state, plan, action):
        if r.state.result is not None:
            return
        if blocked(r.state, target, action):
            r.emit(ev.DamageIgnored(target=target, reason="protected", by=actor.id))
            continue
        for step in action.steps:
            if r.state.result is None and not r.state.entities[target].dead:
                STEP_FNS[step.do](r, use, step, target)


def resolve_targets(s: Rat, plan: Plan, action: Action) -> list[str]:
    """`plan`'s targets (`action` is its action): one, or a whole side in queue order."""
    kind = action.target
    if kind == "all_enemies" or kind == "all_allies":
        side, entities = s.entities[plan.actor].side, s.entities
        own = kind == "all_allies"
        return [k for k in s.order if (entities[k].side == side) is own and not entities[k].dead]
    return [plan.target] if plan.target is not None else []


def blocked(s: Rat, target: str, action: Action) -> bool:
    """PROTECT: no damage, ailment or lowered stat lands; a move that only raises stats (or
    heals) still does (seed 003, PROTECT)."""
    return action.id in content().blockable and s.has(target, "protected")


def end_turn(r: RatResolver) -> None:
    s = r.state
    effects, owners = None, set()
    for key in s.order:
        now = r.state
        if now.effects is not effects:          # `affected`, for every entity of the tuple at once
            effects, owners = now.effects, {x.owner for x in now.effects}
        if now.result is None and not now.entities[key].dead and key in owners:
            r.emit(ev.TurnEnding(turn=s.turn, entity=key))
    if r.state.result is None:
        party_hp = {m.id: m.hp for m in r.state.side(PARTY)}
        r.emit(ev.TurnEnded(turn=s.turn, party_hp=party_hp))
        for m in r.state.side(PARTY):
            if not m.dead and not m.ko:         # one standing: the party can act
                break
        else:
            r.emit(ev.BattleDecided(winner=ENEMIES, reason="party_knocked_out"))
        decide_end(r)


def advance(r: RatResolver) -> None:
    """Run the turn on while no seat has anything to choose."""
    while r.state.result is None and not choosing(r.state):
        if not r.state.resolving:
            reveal(r)
        resolve(r)
        if r.state.result is None:
            end_turn(r)
        if r.state.result is None:
            begin_turn(r)


def choosing(s: Rat) -> bool:
    """Whether some seat has an entity to choose for."""
    for side, seat in s.seats.items():
        if seat is not None and waiting(s, side):
            return True
    return False
