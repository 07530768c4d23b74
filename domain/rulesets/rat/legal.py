"""Who plans next, what each entity may choose, and which targets each action allows.
`legal_commands`, `decide` and the enemy AI all read these, so they agree exactly."""
from __future__ import annotations

from domain.engine.errors import RuleViolation
from domain.engine.hooks import modify

from .commands import Act
from .content import CONTENT, Action
from .effects.queries import HOOKS, CanAct, Selectable
from .state import Entity, Rat, foe


def stopped(s: Rat, e: Entity) -> str:
    """Why `e` cannot act this turn ("" if it can): dead, knocked out, STUNNED, PARALYZED."""
    if e.dead:
        return "dead"
    if e.ko:
        return "knocked_out"
    if not s.effects:
        return ""
    return str(modify(HOOKS, s.effects, s, CanAct(entity=e.id, turn=s.turn))[0].reason)


def to_plan(s: Rat, side: str) -> list[str]:
    """The side's entities still to choose this turn, in queue order."""
    if s.result is not None or s.resolving:
        return []
    return [key for key in s.order if key not in s.plans and s.entities[key].side == side
            and not stopped(s, s.entities[key])]


def selectable(s: Rat, e: Entity, action: str) -> bool:
    if not s.effects:
        return True
    return bool(modify(HOOKS, s.effects, s, Selectable(entity=e.id, action=action))[0].allowed)


def actions_of(s: Rat, e: Entity) -> list[str]:
    """Moves with PP left, intrinsic moves, then consumables in stock, as the entity lists them."""
    found = [m for m, pp in e.moves.items() if pp > 0]
    found += list(e.intrinsic)
    found += [item for item, stack in e.items.items() if stack.count > 0]
    return [a for a in found if selectable(s, e, a)]


def targets(s: Rat, e: Entity, action: Action) -> list[str | None]:
    """Single targets may be knocked out (a kill, a PROTECT, a POTION), never dead."""
    kind = action.target
    own = [x.id for x in s.entities.values() if x.side == e.side and x.alive]
    other = [x.id for x in s.entities.values() if x.side == foe(e.side) and x.alive]
    if kind == "enemy":
        return list(other)
    if kind == "ally":
        return [x for x in own if x != e.id]
    if kind == "self":
        return [e.id]
    if kind == "self_or_ally":
        return list(own)
    if kind == "any":
        return [*own, *other]
    if kind in ("all_enemies", "all_allies"):
        return [None]
    raise ValueError(f"action {action.id}: unknown target kind {kind!r}")


def options(s: Rat, e: Entity) -> list[Act]:
    found = []
    for action_id in actions_of(s, e):
        action = CONTENT.actions[action_id]
        stutter = any(step.do == "stutter" for step in action.steps)
        moves: list[str | None] = [m for m, pp in e.moves.items() if pp == 0] if stutter else [None]
        for target in targets(s, e, action):
            for move in moves:
                found.append(Act(actor=e.id, action=action_id, target=target, move=move))
    return found


def checked(s: Rat, seat: str, cmd: Act) -> Act:
    """The command if `seat` may give it now; a RuleViolation saying why not otherwise."""
    side = s.seat_side(seat)
    waiting = to_plan(s, side) if side else []
    if not waiting:
        raise RuleViolation(f"{seat} has nothing to choose now")
    if cmd.actor != waiting[0]:
        raise RuleViolation(f"{waiting[0]!r} chooses next (the queue's order), not {cmd.actor!r}",
                            expected=waiting[0])
    e = s.entities[waiting[0]]
    if cmd not in options(s, e):
        usable = actions_of(s, e)
        if cmd.action not in usable:
            raise RuleViolation(f"{e.name} cannot use {cmd.action!r} now; usable: {', '.join(usable)}",
                                usable=usable)
        allowed = sorted({str(o.target) for o in options(s, e) if o.action == cmd.action})
        raise RuleViolation(f"{cmd.action} cannot target {cmd.target!r} (or that move) now; targets: "
                            f"{', '.join(allowed)}", targets=allowed)
    return cmd
