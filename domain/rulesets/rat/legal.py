"""Who rat awaits, who plans next, what each entity may choose, which targets each action
allows, and the plan a seat whose clock ran out makes. `legal_commands`, `decide` and the
enemy AI all read these, so they agree exactly."""
from __future__ import annotations

from domain.engine.errors import RuleViolation
from domain.engine.hooks import modify

from .commands import Act
from .content import Action, content
from .hooks import HOOKS, CanAct, Selectable
from .state import Entity, Rat


def awaiting(s: Rat) -> frozenset[str]:
    return frozenset(seat for side, seat in s.seats.items() if seat is not None and to_plan(s, side))


def legal_commands(s: Rat, seat: str) -> list[Act]:
    side = s.seat_side(seat)
    waiting = to_plan(s, side) if side else []
    return list(options(s, s.entities[waiting[0]])) if waiting else []


def default_command(s: Rat, seat: str) -> Act:
    """The plan for a seat whose clock ran out (README, "seed silent: clocks"): its next entity
    in queue order PROTECTs itself, the seed's "traditional jRPG block command" (2.2). One
    without PROTECT (WILDCARD, FEATHERED_HEAD, the enemies) takes its first intrinsic action,
    STRIKE on the first foe in entity order, which spends no PP and no consumable. It is one of
    that entity's options, read from the seat's own side and the public board."""
    side = s.seat_side(seat)
    waiting = to_plan(s, side) if side else []
    if not waiting:
        raise RuleViolation(f"{seat} has nothing to choose now")
    e = s.entities[waiting[0]]
    found = options(s, e)
    block = Act(actor=e.id, action="protect", target=e.id)
    if block in found:
        return block
    actions = content().actions
    return next((o for o in found if actions[o.action].kind == "intrinsic"), found[0])


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


def forbids_protect(e: Entity) -> bool:
    """FEATHERED_HEAD (seed 003, Equipment Slots): its wearer may not choose PROTECT."""
    return any(content().equipment[item].forbids_protect for item in e.equipment)


def actions_of(s: Rat, e: Entity) -> list[str]:
    """Moves with PP left, intrinsic moves, then consumables in stock, as the entity lists them."""
    found = [m for m, pp in e.moves.items() if pp > 0]
    found += [a for a in e.intrinsic if a != "protect" or not forbids_protect(e)]
    found += [item for item, stack in e.items.items() if stack.count > 0]
    return [a for a in found if selectable(s, e, a)]


Sides = tuple[list[str], list[str]]


def sides(s: Rat, e: Entity) -> Sides:
    """The living entities of `e`'s side and of the other, in entity order."""
    own: list[str] = []
    other: list[str] = []
    for x in s.entities.values():
        if not x.dead:
            (own if x.side == e.side else other).append(x.id)
    return own, other


def targets(s: Rat, e: Entity, action: Action, lists: Sides | None = None) -> list[str | None]:
    """Single targets may be knocked out (a kill, a PROTECT, a POTION), never dead."""
    own, other = lists or sides(s, e)
    kind = action.target
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


def _moves_for(e: Entity, action: Action) -> list[str | None]:
    """STUTTER_POTION names one of the user's moves at 0 PP; other actions name none."""
    if any(step.do == "stutter" for step in action.steps):
        return [m for m, pp in e.moves.items() if pp == 0]
    return [None]


def options(s: Rat, e: Entity) -> list[Act]:
    found = []
    lists = sides(s, e)
    for action_id in actions_of(s, e):
        action = content().actions[action_id]
        moves = _moves_for(e, action)
        for target in targets(s, e, action, lists):
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
    usable = actions_of(s, e)
    if cmd.action not in usable:
        raise RuleViolation(f"{e.name} cannot use {cmd.action!r} now; usable: {', '.join(usable)}", usable=usable)
    action = content().actions[cmd.action]
    allowed = targets(s, e, action)
    if cmd.target not in allowed:
        shown = ", ".join(str(t) for t in allowed)
        raise RuleViolation(f"{cmd.action} cannot target {cmd.target!r} now; targets: {shown}",
                            targets=[str(t) for t in allowed])
    moves = _moves_for(e, action)
    if cmd.move not in moves:
        raise RuleViolation(f"{cmd.action} takes move {' or '.join(str(m) for m in moves) or 'none at 0 PP'}, "
                            f"not {cmd.move!r}", moves=[str(m) for m in moves])
    return cmd
