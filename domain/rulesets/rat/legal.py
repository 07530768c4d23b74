"""Who rat awaits, who plans next, what each entity may choose, which targets each action
allows, and the plan a seat whose clock ran out makes. `legal_commands`, `decide` and the
enemy AI all read these, so they agree exactly."""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any

from domain.engine.errors import RuleViolation
from domain.engine.hooks import modify

from .answers import answers
from .commands import Act
from .content import Action, Content, content
from .hooks import HOOKS, CanAct, Row, Selectable, in_play
from .state import ENEMIES, PARTY, Entity, Rat


def awaiting(s: Rat) -> frozenset[str]:
    """The seats with an entity to choose for, worked out once per state object."""
    found = answers(s)
    seats: frozenset[str] | None = found.get("awaiting")
    if seats is None:
        seats = found["awaiting"] = frozenset([seat for side, seat in s.seats.items()
                                               if seat is not None and _waiting(s, side, found)])
    return seats


def legal_commands(s: Rat, seat: str) -> list[Act]:
    side = s.seat_side(seat)
    found = answers(s)
    first = _waiting(s, side, found) if side else ()
    return list(_known_options(s, s.entities[first[0]], found)) if first else []


def default_command(s: Rat, seat: str) -> Act:
    """The plan for a seat whose clock ran out (README, "seed silent: clocks"): its next entity
    in queue order PROTECTs itself, the seed's "traditional jRPG block command" (2.2). One
    without PROTECT (WILDCARD, FEATHERED_HEAD, the enemies) takes its first intrinsic action,
    STRIKE on the first foe in entity order, which spends no PP and no consumable. It is one of
    that entity's options, read from the seat's own side and the public board."""
    side = s.seat_side(seat)
    first = waiting(s, side) if side else ()
    if not first:
        raise RuleViolation(f"{seat} has nothing to choose now")
    e = s.entities[first[0]]
    found = options(s, e)
    block = Act(actor=e.id, action="protect", target=e.id)
    if block in found:
        return block
    actions = content().actions
    return next((o for o in found if actions[o.action].kind == "intrinsic"), found[0])


def stopped(s: Rat, e: Entity, hooks: list[Row] | None = None) -> str:
    """Why `e` cannot act this turn ("" if it can): dead, knocked out, STUNNED, PARALYZED.
    `hooks`: the hooks on `CanAct` in play, if looked up already."""
    return _stopped(s, e, in_play(CanAct, s.effects) if hooks is None else hooks)


def _stopped(s: Rat, e: Entity, hooks: list[Row]) -> str:
    """`stopped`, given the hooks on `CanAct` in play (`in_play(CanAct, s.effects)`)."""
    if e.dead:
        return "dead"
    if e.ko:
        return "knocked_out"
    if not hooks:
        return ""
    return str(modify(HOOKS, s.effects, s, CanAct(entity=e.id, turn=s.turn))[0].reason)


def to_plan(s: Rat, side: str) -> list[str]:
    """The side's entities still to choose this turn, in queue order."""
    return list(waiting(s, side))


def waiting(s: Rat, side: str) -> tuple[str, ...]:
    """`to_plan`, worked out once per state object, content and side."""
    return _waiting(s, side, answers(s))


def _waiting(s: Rat, side: str, found: dict[Hashable, Any]) -> tuple[str, ...]:
    """`waiting`, given the answers about `s` (`answers.answers`)."""
    question = ("waiting", side)
    listed: tuple[str, ...] | None = found.get(question)
    if listed is None:
        listed = found[question] = choosers(s, side)
    return listed


def planned(before: Rat, after: Rat, side: str, actor: str, known: dict[Hashable, Any] | None = None) -> bool:
    """`after` is `before` with only `actor`'s plan added (the reducer of `ActionPlanned`
    alone made it), `actor` the first of `side` to choose on `before`: who waits on `after`
    is who waited on `before`, less `actor`, since a plan changes neither the queue nor what
    stops an entity. Kept as the answers about `after`, so that `awaiting` and the next
    `legal_commands` need not go through the queue again. True if `side` still has an
    entity to choose for, so that nothing resolves yet. `known`: the answers about `before`,
    if at hand."""
    if known is None:
        known = answers(before)
    first: tuple[str, ...] | None = known.get(("waiting", side))
    if not first or first[0] != actor:
        return False
    found = answers(after)
    rest = found[("waiting", side)] = first[1:]
    other = ENEMIES if side == PARTY else PARTY
    theirs = known.get(("waiting", other))
    if theirs is not None:
        found[("waiting", other)] = theirs
    seats = known.get("awaiting")
    if rest and seats is not None:      # the side still waits, and no other side changed
        found["awaiting"] = seats
    return bool(rest)


def choosers(s: Rat, side: str) -> tuple[str, ...]:
    """`waiting`, worked out afresh and kept nowhere: for a state made to be asked once."""
    if s.result is not None or s.resolving:
        return ()
    hooks, entities, plans = in_play(CanAct, s.effects), s.entities, s.plans
    return tuple([key for key in s.order if key not in plans and entities[key].side == side
                  and not _stopped(s, entities[key], hooks)])


def selectable(s: Rat, e: Entity, action: str) -> bool:
    if not in_play(Selectable, s.effects):
        return True
    return bool(modify(HOOKS, s.effects, s, Selectable(entity=e.id, action=action))[0].allowed)


def forbids_protect(e: Entity) -> bool:
    """FEATHERED_HEAD (seed 003, Equipment Slots): its wearer may not choose PROTECT."""
    return not content().forbidding.isdisjoint(e.equipment)


def actions_of(s: Rat, e: Entity) -> list[str]:
    """Moves with PP left, intrinsic moves, then consumables in stock, as the entity lists them."""
    found = [m for m, pp in e.moves.items() if pp > 0]
    if "protect" in e.intrinsic and forbids_protect(e):
        found += [a for a in e.intrinsic if a != "protect"]
    else:
        found += e.intrinsic
    for item, stack in e.items.items():
        if stack.count > 0:
            found.append(item)
    if not s.effects or not in_play(Selectable, s.effects):
        return found
    return [a for a in found if selectable(s, e, a)]


Sides = tuple[list[str], list[str]]


def sides(s: Rat, e: Entity) -> Sides:
    """The living entities of `e`'s side and of the other, in entity order."""
    party, enemies = living(s.entities)
    return (list(party), list(enemies)) if e.side == PARTY else (list(enemies), list(party))


# The entities of the state last asked about (a strong reference, so that no other object can
# take its address while it is kept), and their living ids, party first.
_LIVING: list[Any] = [None, ((), ())]


def living(entities: dict[str, Entity]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The living party members and enemies of `entities`, in entity order. States are frozen
    and `evolve` builds a new dict of entities for every change, so the answer for the same
    dict object stays right: the states of one turn's choices share theirs."""
    if _LIVING[0] is entities:
        return _LIVING[1]
    party: list[str] = []
    enemies: list[str] = []
    for x in entities.values():
        if not x.dead:
            (party if x.side == PARTY else enemies).append(x.id)
    found = _LIVING[1] = (tuple(party), tuple(enemies))
    _LIVING[0] = entities
    return found


def targets(s: Rat, e: Entity, action: Action, lists: Sides | None = None) -> list[str | None]:
    """Single targets may be knocked out (a kill, a PROTECT, a POTION), never dead."""
    own, other = lists or sides(s, e)
    return _targets(e.id, action, own, other)


def _targets(actor: str, action: Action, own: Sequence[str], other: Sequence[str]) -> list[str | None]:
    kind = action.target
    if kind == "enemy":
        return list(other)
    if kind == "ally":
        return [x for x in own if x != actor]
    if kind == "self":
        return [actor]
    if kind == "self_or_ally":
        return list(own)
    if kind == "any":
        return [*own, *other]
    if kind in ("all_enemies", "all_allies"):
        return [None]
    raise ValueError(f"action {action.id}: unknown target kind {kind!r}")


def _moves_for(e: Entity, action: Action) -> list[str | None]:
    """STUTTER_POTION names one of the user's moves at 0 PP; other actions name none."""
    if action.id in content().stutters:
        return [m for m, pp in e.moves.items() if pp == 0]
    return [None]


def options(s: Rat, e: Entity) -> tuple[Act, ...]:
    """Every command `e` may give now: its actions, each with its targets and moves."""
    if s.entities.get(e.id) is not e:
        return _options(s, e, tuple(actions_of(s, e)))
    return _known_options(s, e, answers(s))


def _known_options(s: Rat, e: Entity, found: dict[Hashable, Any]) -> tuple[Act, ...]:
    """`options` of an entity of `s`, given the answers about `s` (`answers.answers`)."""
    question = ("options", e.id)
    listed: tuple[Act, ...] | None = found.get(question)
    if listed is None:
        listed = found[question] = _options(s, e, tuple(actions_of(s, e)))
    return listed


def action_options(s: Rat, e: Entity, action_id: str) -> tuple[Act, ...]:
    """`e`'s options with one of its actions, as `options` lists them."""
    return _options(s, e, (action_id,))


def _options(s: Rat, e: Entity, actions: tuple[str, ...]) -> tuple[Act, ...]:
    known = content()
    party, enemies = living(s.entities)
    own, other = (party, enemies) if e.side == PARTY else (enemies, party)
    zero_pp = tuple(m for m, pp in e.moves.items() if pp == 0) if not known.stutters.isdisjoint(actions) else ()
    return _listed(known, e.id, actions, own, other, zero_pp)


@lru_cache(maxsize=4096)
def _listed(known: Content, actor: str, actions: tuple[str, ...], own: tuple[str, ...], other: tuple[str, ...],
            zero_pp: tuple[str, ...]) -> tuple[Act, ...]:
    """The options of `actor` with `actions`, its side's living entities `own` and the other's
    `other`, and its moves at 0 PP `zero_pp`: a function of these alone (commands are frozen),
    so one answer serves every state and battle that asks the same."""
    found = []
    for action_id in actions:
        action = known.actions[action_id]
        moves: tuple[str | None, ...] = zero_pp if action_id in known.stutters else (None,)
        for target in _targets(actor, action, own, other):
            for move in moves:
                found.append(Act(actor, action_id, target, move))
    return tuple(found)


def checked(s: Rat, seat: str, cmd: Act, found: dict[Hashable, Any] | None = None) -> Act:
    """The command if `seat` may give it now; a RuleViolation saying why not otherwise.
    `found`: the answers about `s`, if at hand."""
    side = s.seat_side(seat)
    if found is None:
        found = answers(s)
    first = _waiting(s, side, found) if side else ()
    if not first:
        raise RuleViolation(f"{seat} has nothing to choose now")
    if cmd.actor != first[0]:
        raise RuleViolation(f"{first[0]!r} chooses next (the queue's order), not {cmd.actor!r}",
                            expected=first[0])
    listed = found.get(("options", cmd.actor))
    if listed is not None and cmd in listed:      # `options` made every check below
        return cmd
    e = s.entities[first[0]]
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
