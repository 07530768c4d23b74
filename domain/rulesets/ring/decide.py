"""Ring rules: what each command decides (`COMMANDS`), the outcome, and the turn count."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.engine.dispatch import CommandTable
from domain.engine.rng import Rng
from domain.engine.ruleset import Decision, Outcome

from . import effects  # noqa: F401  (registers the Dynamics' hooks before any battle resolves)
from .commands import (ChooseBattlefield, EndTurn, PickRing, PickTeam, RingCommand, StrikeLeader, Swap, UseAbility,
                       UseItem, UseLeaderAbility)
from .moves import RESOLVING, RingResolver
from .picks import choose_battlefield, pick_ring, pick_team
from .state import SEATS, Ring, opponent
from .targets import eligible, listed
from .turn import (check_ability, check_end, check_item, check_leader_ability, check_strike, in_battle, strike_leader,
                   swap, use_ability, use_item, use_leader_ability, yield_turn)

# A handler takes the command class it is keyed by, which one callable type cannot say.
Check = Callable[[Ring, str, Any], None]
Handler = Callable[[RingResolver, str, Any], None]


@dataclass(frozen=True, slots=True)
class BattleAction:
    """A battle action (turn.py) as its handler: the battle must be under way, the rules'
    check refuses what they forbid, and the action runs. A command found among the state's
    listed battle actions (`targets.listed`) skips the check, which they already made."""
    check: Check
    act: Handler

    def __call__(self, b: RingResolver, seat: str, cmd: Any) -> None:
        s = b.state
        in_battle(s)
        if not listed(s, seat, cmd):
            self.check(s, seat, cmd)
        self.act(b, seat, cmd)


COMMANDS: CommandTable[Handler] = CommandTable({
    UseAbility: BattleAction(check_ability, use_ability),
    UseLeaderAbility: BattleAction(check_leader_ability, use_leader_ability),
    UseItem: BattleAction(check_item, use_item),
    StrikeLeader: BattleAction(check_strike, strike_leader),
    EndTurn: BattleAction(check_end, yield_turn),
    Swap: swap,
    ChooseBattlefield: choose_battlefield,
    PickTeam: pick_team,
    PickRing: pick_ring,
})


def decide(s: Ring, seat: str, cmd: RingCommand, rng: Rng) -> Decision[Ring]:
    b = RESOLVING(s, rng)
    COMMANDS.handler(cmd)(b, seat, cmd)
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


def turn(s: Ring) -> int:
    return s.turn
