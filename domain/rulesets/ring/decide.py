"""Ring rules: who is awaited, the legal commands, and what each command decides."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.engine.errors import RuleViolation
from domain.engine.events import Command
from domain.engine.rng import Rng
from domain.engine.ruleset import Decision, Outcome

from . import prebattle, turn
from .commands import (ChooseBattlefield, EndTurn, PickRing, PickTeam, StrikeLeader, Swap, UseAbility, UseItem,
                       UseLeaderAbility)
from .effects.moves import RingResolver
from .state import SEATS, Ring, opponent
from .targets import actions, eligible, listed

# Each action's check and the action itself (turn.py); each takes the command class it is
# keyed by, which one callable type cannot say.
Check = Callable[[Ring, str, Any], None]
Act = Callable[[RingResolver, str, Any], None]
BATTLE_ACTIONS: dict[type[Command], tuple[Check, Act]] = {
    UseAbility: (turn.check_ability, turn.use_ability),
    UseLeaderAbility: (turn.check_leader_ability, turn.use_leader_ability),
    UseItem: (turn.check_item, turn.use_item),
    StrikeLeader: (turn.check_strike, turn.strike_leader),
    EndTurn: (turn.check_end, turn.yield_turn),
}


# The side whose turn it is, as `awaiting` answers: one set per seat rather than one per call.
_ONLY = {seat: frozenset((seat,)) for seat in SEATS}
_NOBODY: frozenset[str] = frozenset()


def awaiting(s: Ring) -> frozenset[str]:
    if s.phase == "battle" and s.p1.leader_hp > 0 and s.p2.leader_hp > 0 and s.time_limit is None:
        # `outcome` is None in battle while both leaders stand and time is left: asked before
        # and after every command, this is the question's common case, answered first.
        return _ONLY[s.active] if s.active else _NOBODY
    if outcome(s) is not None:
        return frozenset()
    if s.phase == "battlefield":
        return frozenset((s.initiative,)) if s.battlefield is None and s.initiative else frozenset()
    if s.phase in ("team", "ring"):
        return prebattle.awaiting_pick(s)
    return frozenset((s.active,)) if s.active else frozenset()


def legal_commands(s: Ring, seat: str) -> list[Command]:
    if seat not in awaiting(s):
        return []
    return actions(s, seat)


def decide(s: Ring, seat: str, cmd: Command, rng: Rng) -> Decision[Ring]:
    b = RingResolver(s, rng)
    battle_action = BATTLE_ACTIONS.get(type(cmd))
    if battle_action is not None:          # most commands: asked about first
        turn.in_battle(s)
        check, act = battle_action
        if not listed(s, seat, cmd):
            check(s, seat, cmd)
        act(b, seat, cmd)
    elif isinstance(cmd, Swap):
        if s.phase != "battle":
            raise RuleViolation(f"the battle has not begun: {s.phase} comes first")
        turn.swap(b, seat, cmd)
    elif isinstance(cmd, ChooseBattlefield):
        prebattle.choose_battlefield(b, seat, cmd)
    elif isinstance(cmd, PickTeam):
        prebattle.pick_team(b, seat, cmd)
    elif isinstance(cmd, PickRing):
        prebattle.pick_ring(b, seat, cmd)
    else:
        raise RuleViolation(f"ring has no command {type(cmd).__name__}")
    return b.decision()


def outcome(s: Ring) -> Outcome | None:
    if s.p1.leader_hp <= 0 or s.p2.leader_hp <= 0:
        if s.p1.leader_hp <= 0 and s.p2.leader_hp <= 0:
            # Both at once can only come from the active side's own action: its blow lands.
            return Outcome(winner=s.active, reason="both leaders fell; the active side struck last")
        loser = "p1" if s.p1.leader_hp <= 0 else "p2"
        return Outcome(winner=opponent(loser), reason=f"{loser}'s leader is down")
    if s.time_limit is not None:
        return Outcome(winner=s.time_limit[0], reason=s.time_limit[1])
    if s.phase in ("battlefield", "team"):
        # A set can leave a deck without a unit to pick; once teams stand, leaders decide.
        out = [seat for seat in SEATS if not eligible(s, seat)]
        if len(out) == 1:
            return Outcome(winner=opponent(out[0]), reason=f"{out[0]} has no unit with LP left")
        if len(out) == 2:
            return Outcome(winner=None, reason="neither side has a unit with LP left")
    return None
