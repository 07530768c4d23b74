"""Competitive sets: N battles (or best of N) between the same players, one deck each.

- `events`: what a set records (importing this package registers their topics);
- `state`: the set folded from its events, and its score;
- `decide`: what a finished battle does to its set, as one pure function;
- `service`: `Sets`, which creates, stores, reads and advances sets;
- `sweep`: the background sweep that advances sets a failed commit listener left behind.
"""
from .decide import BattleResult, SetDecision, battle_setup, carry_after, decide_battle_end, start_battle
from .events import MODES, SetBattleFinished, SetBattleStarted, SetCreated, SetEnded
from .service import CreatedSet, Sets, UnknownSet
from .state import SET_CLOCK, SetBattle, SetState, chain_events, evolve_set, score, set_clock, set_over, set_winner
from .sweep import SetSweep

__all__ = ["MODES", "SET_CLOCK", "BattleResult", "CreatedSet", "SetBattle", "SetBattleFinished",
           "SetBattleStarted", "SetCreated", "SetDecision", "SetEnded", "SetState", "SetSweep", "Sets", "UnknownSet",
           "battle_setup", "carry_after", "chain_events", "decide_battle_end", "evolve_set", "score", "set_clock",
           "set_over", "set_winner", "start_battle"]
