"""Shared parts of every ruleset's `default_command` tests: the battles to sweep, and the check
each awaited seat's default passes wherever it is asked for.

A seat whose clock runs out under `on_timeout: "auto"` gets the rules' default, so that default
must be one of the seat's legal commands, and `decide` must accept it, in any state the seat
may be awaited in. Two sweeps reach such states: random moves with one seat timing out on
every move (the default alone then carries it to the end), and random bots' matches folded
back from their records."""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.engine.battle import BattleState, decide_batch, fold, open_battle, seat_table
from domain.engine.events import Recorded
from domain.engine.rng import Rng
from domain.engine.ruleset import Ruleset

TIMED_OUT = "p2"        # the seat whose clock runs out on every move, in every other random walk


def battle_id(i: int) -> str:
    return f"00000000-0000-4000-8000-{i:012d}"


def opened(ruleset: Ruleset[Any], setup: Mapping[str, Any], seed: int = 1) -> BattleState:
    """A battle of `setup` as created, its seed drawn from `seed`."""
    state, _ = open_battle(ruleset, battle_id=battle_id(seed), setup=setup,
                           players={seat: f"player-{seat}" for seat in seat_table(ruleset, setup).seats},
                           revealed=seeded_bytes("default-command", seed), created_at="2026-01-01T00:00:00.000Z")
    return state


def checked_defaults(ruleset: Ruleset[Any], state: BattleState) -> list[dict[str, Any]]:
    """Each awaited seat's default, as wire JSON in seat order, once it is found among the seat's
    legal commands and `decide_batch` has accepted it."""
    default_command = ruleset.default_command
    assert default_command is not None, f"{ruleset.id} has no default command"
    codec, found = ruleset.codec, []
    for seat in sorted(ruleset.awaiting(state.game)):
        wire = codec.wire(default_command(state.game, seat))
        legal = [codec.wire(c) for c in ruleset.legal_commands(state.game, seat)]
        assert wire in legal, (state.battle_id, state.seq, seat, wire)
        decide_batch(ruleset, state, seat, wire)
        found.append(wire)
    return found


def random_walks(ruleset: Ruleset[Any], setups: Sequence[Mapping[str, Any]]) -> Iterator[BattleState]:
    """Every state of battle i, one per setup, played to its end by the first awaited seat's
    random legal moves; in every other battle TIMED_OUT plays its default on every move instead."""
    default_command = ruleset.default_command
    assert default_command is not None, f"{ruleset.id} has no default command"
    for i, setup in enumerate(setups):
        state = opened(ruleset, setup, seed=i)
        moves = Rng(seeded_bytes("default-command-moves", i))
        while state.outcome is None:
            yield state
            seat = sorted(ruleset.awaiting(state.game))[0]
            if i % 2 == 1 and seat == TIMED_OUT:
                move = default_command(state.game, seat)
            else:
                move = moves.choice(ruleset.legal_commands(state.game, seat))
            state, _ = decide_batch(ruleset, state, seat, move)


def batch_ends(ruleset: Ruleset[Any], records: Sequence[Recorded]) -> Iterator[BattleState]:
    """The state after each batch of `records` while the battle is under way: the states a
    seat may act in (a batch ends where the next record starts one, or the log ends)."""
    state = None
    for rec in records:
        state = fold(ruleset, state, rec)
        ends = rec.seq == len(records) or records[rec.seq].event.starts_batch()
        if ends and state.game is not None and state.outcome is None:
            yield state


def bot_matches(ruleset: Ruleset[Any], setups: Sequence[Mapping[str, Any]]) -> Iterator[BattleState]:
    """Every state a seat may act in of battle i, one per setup, played to its end by random bots."""
    for i, setup in enumerate(setups):
        bots = {seat: get_policy("random", ruleset.id) for seat in seat_table(ruleset, setup).seats}
        match = play(ruleset, bots, battle_id=battle_id(i), setup=setup,
                     revealed=seeded_bytes(f"{ruleset.id}-default", i),
                     bot_seed=seeded_bytes(f"{ruleset.id}-default-bots", i))
        yield from batch_ends(ruleset, match.records)
