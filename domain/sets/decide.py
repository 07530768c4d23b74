"""What a finished battle does to its set: the one pure decision every path takes.

A live set (its commit listener, a read, the sweep), a simulated set and the set audit all
ask `decide_battle_end` and record exactly what it returns: the battle's
`SetBattleFinished`, then the next battle's `SetBattleStarted` with the setup to open it
from, or `SetEnded`. A ruleset that carries state from battle to battle (ring's LP and
EXS) declares `set_rules`; without them every battle of a set starts from the same setup.

Nothing here reads a clock, draws a random number or touches storage: the next battle's id
is an input, like a command's arrival time.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.engine.battle import BattleState
from domain.engine.events import Event
from domain.engine.ruleset import Ruleset
from domain.engine.table import Side

from .events import SetBattleFinished, SetBattleStarted, SetEnded
from .state import SetState, evolve, score, set_over, set_winner


@dataclass(frozen=True, slots=True)
class BattleResult:
    """What a set needs from a finished battle."""
    winner: Side | None         # the winning side; None for a draw
    head: str                   # the battle's last chain hash
    game: Any                   # the final game state, which the set rules read for the carry-over

    @classmethod
    def of(cls, battle: BattleState) -> BattleResult:
        if battle.outcome is None:
            raise ValueError(f"battle {battle.battle_id} has not ended")
        return cls(winner=battle.outcome.winner, head=battle.chain, game=battle.game)


@dataclass(frozen=True, slots=True)
class SetDecision:
    """The set events to record, in order, and the setup of the battle they start (None when
    they end the set)."""
    events: tuple[Event, ...]
    next_setup: dict[str, Any] | None = None


def battle_setup(ruleset: Ruleset[Any], base: Mapping[str, Any], carry: Mapping[str, Any] | None) -> dict[str, Any]:
    """The setup a battle of the set starts from: the set's, with the carry-over applied."""
    rules = ruleset.set_rules
    return dict(rules.apply_carry(dict(base), carry)) if rules is not None else dict(base)


def carry_after(ruleset: Ruleset[Any], carry: Mapping[str, Any] | None, setup: Mapping[str, Any],
                battle: BattleResult | BattleState) -> dict[str, Any] | None:
    """What the next battle starts from after `battle`, which was played from `setup`."""
    rules = ruleset.set_rules
    if rules is None:
        return None
    result = battle if isinstance(battle, BattleResult) else BattleResult.of(battle)
    return rules.next_carry(carry, dict(setup), result.game, result.winner)


def start_battle(state: SetState, ruleset: Ruleset[Any], battle_id: str) -> SetDecision:
    """The set's next battle (its first, on creation): it starts from the set's carry-over."""
    started = SetBattleStarted(set_id=state.set_id, index=len(state.battles), battle_id=battle_id,
                               carry=state.carry)
    return SetDecision((started,), battle_setup(ruleset, state.created.setup or {}, state.carry))


def decide_battle_end(state: SetState, result: BattleResult, ruleset: Ruleset[Any],
                      next_battle_id: str) -> SetDecision:
    """The set events for the end of its battle in progress: `SetBattleFinished`, then
    `SetBattleStarted` for battle `next_battle_id` (with its setup) or `SetEnded`."""
    current = state.in_progress
    if current is None:
        raise ValueError(f"set {state.set_id} has no battle in progress")
    setup = battle_setup(ruleset, state.created.setup or {}, current.carry)
    finished = SetBattleFinished(set_id=state.set_id, index=current.index, battle_id=current.battle_id,
                                 winner=result.winner, head=result.head,
                                 carry=carry_after(ruleset, current.carry, setup, result))
    after = evolve(finished, state)
    if not set_over(after):
        following = start_battle(after, ruleset, next_battle_id)
        return SetDecision((finished, *following.events), following.next_setup)
    tally = score(after)
    return SetDecision((finished, SetEnded(set_id=state.set_id, ruleset=state.created.ruleset,
                                           players=state.created.players, winner=set_winner(tally),
                                           score=tally)))
