"""Seed 003, AI: one turn is (1) start-of-turn effects, (2) the sort, (3) every entity
chooses, (4) the actions resolve in priority order, (5) end-of-turn effects."""
from __future__ import annotations

from . import events as ev
from .ai import choose_for_enemies
from .content import Action, content
from .hooks import Aging, StrikeQuery
from .hp import decide_end, heal
from .legal import stopped, to_plan
from .resolver import RatResolver
from .state import ENEMIES, PARTY, Plan, Rat
from .stats import order_key, queue
from .steps import STEPS, Use


def begin_turn(r: RatResolver) -> None:
    """Ailment counters advance (expired ones are cured), due WISHes heal, then the sort."""
    s = r.state
    turn = s.turn + 1
    if turn > s.params.max_turns:
        r.emit(ev.BattleDecided(winner=None, reason="turn_limit"))
        return
    aged, expired = [], []
    for status in s.effects:
        if status.source != "ailment":
            continue
        step = r.query(Aging(entity=status.owner, kind=status.kind, turn=turn)).step
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
    for key in s.order:
        reason = stopped(s, s.entities[key]) if key not in s.plans and s.entities[key].alive else ""
        if reason:          # never asked to choose: the log says why
            r.emit(ev.ActionSkipped(actor=key, reason=reason))
    if s.seats.get(ENEMIES) is None:
        for plan in choose_for_enemies(s, r.rng):
            r.emit(ev.EnemyChose(actor=plan.actor, ai=s.entities[plan.actor].ai, action=plan.action,
                                 target=plan.target, move=plan.move))
    for key in s.order:
        planned = s.plans.get(key)
        seat = s.seats.get(s.entities[key].side)
        if planned is not None and seat is not None:
            r.emit(ev.ActionRevealed(seat=seat, actor=key, action=planned.action, target=planned.target,
                                     move=planned.move))
    for plan in r.state.this_turn:
        boost = content().actions[plan.action].priority
        if boost:
            r.emit(ev.PriorityBoosted(target=plan.actor, amount=boost, by=plan.actor))


def next_up(s: Rat) -> Plan | None:
    """The next action: recomputed after each one, since priority and SPD change mid-turn."""
    waiting = [p for p in s.this_turn if p.actor not in s.acted]
    if not waiting:
        return None
    return min(waiting, key=lambda p: order_key(s, s.entities[p.actor]))


def resolve(r: RatResolver) -> None:
    while r.state.result is None:
        plan = next_up(r.state)
        if plan is None:
            return
        act(r, plan)


def act(r: RatResolver, plan: Plan) -> None:
    s = r.state
    actor = s.entities[plan.actor]
    action = content().actions[plan.action]
    reason = stopped(s, actor)
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
        cheese = r.query(StrikeQuery(entity=actor.id)).heal_pct if action.id == "strike" else 0
        pp = actor.moves[action.id] - 1 if action.kind == "move" else None
        r.emit(ev.ActionTaken(actor=actor.id, action=action.id, target=plan.target, pp=pp))
        if cheese:
            heal(r, actor.id, actor.max_hp * cheese // 100, "mouse_sized_cheese", actor.id)
            return
    use = Use(actor=actor.id, action=action, move=plan.move)
    for target in resolve_targets(r.state, plan):
        if r.state.result is not None:
            return
        if blocked(r.state, target, action):
            r.emit(ev.DamageIgnored(target=target, reason="protected", by=actor.id))
            continue
        for step in action.steps:
            if r.state.result is None and not r.state.entities[target].dead:
                STEPS[step.do](r, use, step, target)


def resolve_targets(s: Rat, plan: Plan) -> list[str]:
    action = content().actions[plan.action]
    actor = s.entities[plan.actor]
    if action.target == "all_enemies":
        return [k for k in s.order if s.entities[k].side != actor.side and s.entities[k].alive]
    if action.target == "all_allies":
        return [k for k in s.order if s.entities[k].side == actor.side and s.entities[k].alive]
    return [plan.target] if plan.target is not None else []


def blocked(s: Rat, target: str, action: Action) -> bool:
    """PROTECT: no damage, ailment or lowered stat lands; a move that only raises stats (or
    heals) still does (seed 003, PROTECT)."""
    return s.has(target, "protected") and (action.damaging or action.afflicting or action.lowering)


def end_turn(r: RatResolver) -> None:
    s = r.state
    for key in s.order:
        if r.state.result is None and r.state.entities[key].alive and r.state.statuses(key):
            r.emit(ev.TurnEnding(turn=s.turn, entity=key))
    if r.state.result is None:
        party_hp = {m.id: m.hp for m in r.state.side(PARTY)}
        r.emit(ev.TurnEnded(turn=s.turn, party_hp=party_hp))
        if all(not m.standing for m in r.state.side(PARTY)):
            r.emit(ev.BattleDecided(winner=ENEMIES, reason="party_knocked_out"))
        decide_end(r)


def advance(r: RatResolver) -> None:
    """Run the turn on while no seat has anything to choose."""
    while r.state.result is None and not any(to_plan(r.state, side) for side, seat in r.state.seats.items()
                                             if seat is not None):
        if not r.state.resolving:
            reveal(r)
        resolve(r)
        if r.state.result is None:
            end_turn(r)
        if r.state.result is None:
            begin_turn(r)
