"""The fast path's part of the ruleset contract: `step` reaches the very state the full path
(`decide_batch`, which chains and records every event) reaches, step by step, over thousands
of random steps, clocked battles included; and `playout` plays the battle the `random` bot
plays from the same seeds."""
from __future__ import annotations

from typing import Any, ClassVar

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.engine.battle import BattleState, decide_batch, open_battle
from domain.engine.clock import PRESETS
from domain.engine.playout import Sim, playout, sim_of, step
from domain.engine.rng import Rng
from domain.engine.ruleset import Ruleset, get_ruleset

START_MS = 1_000_000


def opened(ruleset: Ruleset[Any], i: int, clocked: bool = False) -> BattleState:
    seats = ruleset.default_table().seats
    state, _ = open_battle(ruleset, battle_id=f"00000000-0000-4000-8000-{i:012d}", setup=ruleset.fresh_setup(),
                           players={seat: {"bot": "random"} for seat in seats}, revealed=seeded_bytes("fast", i),
                           created_at="1970-01-01T00:00:00Z", clock=PRESETS["correspondence"] if clocked else None,
                           clock_at_ms=START_MS if clocked else None)
    return state


def assert_same(full: BattleState, fast: Sim, where: str) -> None:
    assert fast.seq == full.seq, f"{where}: the fast path is at seq {fast.seq}, the full path at {full.seq}"
    assert fast.outcome == full.outcome, where
    assert fast.game == full.game, f"{where}: the states differ at seq {full.seq}"


class PlayoutContract:
    ruleset_id: ClassVar[str]
    fast_steps: ClassVar[int] = 2000        # random steps compared, over as many battles as that takes

    def test_the_fast_path_reaches_the_full_paths_state_at_every_step(self):
        ruleset = get_ruleset(self.ruleset_id)
        steps, battle = 0, 0
        while steps < self.fast_steps:
            full = opened(ruleset, battle, clocked=battle % 3 == 2)
            fast, rng, at_ms = sim_of(full), Rng(seeded_bytes("fast-choices", battle)), START_MS
            while True:
                assert_same(full, fast, f"battle {battle}, step {steps}")
                if full.outcome is not None:
                    break
                seat = min(ruleset.awaiting(full.game))
                command = rng.choice(ruleset.legal_commands(full.game, seat))
                at_ms += 10
                full, _ = decide_batch(ruleset, full, seat, command, at_ms=at_ms if full.clock else None)
                fast = step(ruleset, fast, seat, command)
                steps += 1
            battle += 1

    def test_a_playout_plays_the_battle_the_random_bot_plays(self):
        ruleset = get_ruleset(self.ruleset_id)
        for i in range(3):
            bots = {seat: get_policy("random", ruleset.id) for seat in ruleset.default_table().seats}
            match = play(ruleset, bots, battle_id=f"00000000-0000-4000-8000-{i:012d}", revealed=seeded_bytes("fast", i),
                         bot_seed=seeded_bytes("fast-bots", i))
            start = opened(ruleset, i)
            end, steps = playout(ruleset, sim_of(start), Rng(seeded_bytes("fast-bots", i)))
            assert steps == match.decisions
            assert_same(match.state, end, f"battle {i}")
