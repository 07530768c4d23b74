"""The fast path for search: a command applied to a state, with no log kept.

A search bot plays thousands of battles per move that nobody will ever read. `step` applies
one command the way `decide_batch` does, the same `decide`, the same random draws (the batch's
cursor is its first event's seq), the same state, but it keeps no records: no event is
chained, hashed or encoded, and the battle-level state is not rebuilt for every event.

`Sim` is what a playout carries: the game, the seq the log would have reached (so that every
batch draws from the cursor the full path would), the seed and the outcome. `sim_of` starts
one from any `BattleState`; `step` and `playout` go on from it. The state `step` reaches is
the full path's own (`tests/conformance/playout_contract.py` checks that over thousands of random
steps in every ruleset), so a search can trust what it finds.

Commands are trusted: `step` takes a `Command` the rules listed as legal for an awaited seat,
so the checks a live command needs (whose turn, storable JSON, the clock) are left out;
`decide` still refuses an illegal one. Clocks are not run (a playout has no time), but a clocked
battle's batches still count their clock event, so the draws stay those of the full path.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .battle import BattleState
from .decision import Outcome
from .events import Command
from .rng import Rng, batch_cursor
from .ruleset import Ruleset


class Sim(NamedTuple):
    """A battle as a playout carries it."""
    game: Any
    seq: int                    # the seq the battle's log would have reached
    seed: bytes
    outcome: Outcome | None = None
    clocked: bool = False       # every command batch ends with a clock event


def sim_of(state: BattleState) -> Sim:
    """The playout state of a battle."""
    return Sim(state.game, state.seq, state.seed, state.outcome, state.clock is not None)


def step(ruleset: Ruleset[Any], sim: Sim, seat: str, command: Command) -> Sim:
    """`sim` after `seat` plays `command`: the state `decide_batch` would reach, without its log."""
    decision = ruleset.decide(sim.game, seat, command, Rng(sim.seed, batch_cursor(sim.seq + 1)))
    game = decision.state
    if game is None:
        game = sim.game
        evolve = ruleset.evolve
        for event in decision.events:
            game = evolve(game, event)
    seq = sim.seq + len(decision.events) + sim.clocked
    outcome = ruleset.outcome(game)
    if outcome is not None:
        seq += 1                # BattleEnded
    return Sim(game, seq, sim.seed, outcome, sim.clocked)


Chooser = Callable[[Any, str, Sequence[Command], Rng], Command]


def fresh_seed(rng: Rng) -> bytes:
    """A seed for the rules' draws of a playout, drawn from a bot's RNG: a seat never knows
    the battle's own, so a search plays each playout from one of its own."""
    return rng.next64().to_bytes(8, "big") * 4


def uniform(game: Any, seat: str, legal: Sequence[Command], rng: Rng) -> Command:
    """The random playout policy: any legal command, each as likely (the `random` bot's choice)."""
    return rng.choice(legal)


def playout(ruleset: Ruleset[Any], sim: Sim, rng: Rng, choose: Chooser = uniform,
            max_steps: int = 100_000) -> tuple[Sim, int]:
    """Play on from `sim` until the battle ends or `max_steps` commands were played: the first
    awaited seat (by name) moves each time, as `choose` picks among its legal commands.
    Returns the last state and how many commands were played."""
    steps = 0
    awaiting, legal_commands = ruleset.awaiting, ruleset.legal_commands
    while sim.outcome is None and steps < max_steps:
        waiting = awaiting(sim.game)
        if not waiting:
            raise RuntimeError(f"{ruleset.id}: nobody can act at seq {sim.seq} but the battle has not ended")
        seat = min(waiting)
        sim = step(ruleset, sim, seat, choose(sim.game, seat, legal_commands(sim.game, seat), rng))
        steps += 1
    return sim, steps
