"""Ringside benchmarks (never timed tests). Prints medians of several repeats, each beside a
baseline measured in the same run on the same data.

Simulation and verify are held to ratios of the chain-only baseline, measured interleaved with
them battle by battle: each battle simulated (or verified) is followed at once by the chain
hashing of its own events, so a moment in which the machine runs slower slows both sides of the
ratio alike. The ratio printed is the median over the repeats (`decisions_ratio`, `verify_ratio`).

`playout_ms` is one random playout from a battle's start on the fast path search uses
(`domain.engine.playout`), beside the same battle on the full path that records every event.

    python bench/run.py [--ruleset deckduel] [--battles 200] [--repeats 5] [--json]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.ai import get_policy  # noqa: E402
from domain.ai.match import Match, play, seeded_bytes  # noqa: E402
from domain.battles import Battles  # noqa: E402
from domain.engine.battle import fold, open_battle  # noqa: E402
from domain.engine.chain import GENESIS, chain_of  # noqa: E402
from domain.engine.events import event_data  # noqa: E402
from domain.engine.playout import playout, sim_of  # noqa: E402
from domain.engine.rng import Rng  # noqa: E402
from domain.engine.ruleset import Ruleset, get_ruleset  # noqa: E402
from replays.format import Replay, build  # noqa: E402
from replays.verify import verify  # noqa: E402

TARGETS = {"sim_events_per_s": 100_000, "rebuild_decoded_events_per_s": 300_000,
           "rebuild_sqlite_events_per_s": 50_000, "playout_speedup": 5}
# What search needs, as ratios to the chain-only baseline of the same run (20,000 decisions/s and
# 50,000 verified events/s on a ~700k baseline): a machine's speed varies by up to 3x from day
# to day, and these hold however fast it is today.
RATIO_TARGETS = {"decisions_per_s": 0.028, "verify_events_per_s": 0.07}
RATIO_OF = {"decisions_per_s": "decisions_ratio", "verify_events_per_s": "verify_ratio"}


def median_rate(fn: Callable[[], object], count: int, repeats: int) -> float:
    rates = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        rates.append(count / (time.perf_counter() - started))
    return statistics.median(rates)


# A slice of work and how much it counts: one battle played, verified or chained.
Slice = tuple[Callable[[], object], int]

# Passes of a battle's chain hashing after each slice of work: enough that the baseline's side
# of a slice takes a millisecond or more even in the shortest battles.
CHAIN_PASSES = 3


def interleaved_rate(work: Sequence[Slice], baseline: Sequence[Slice], repeats: int,
                     clock: Callable[[], float] = time.perf_counter) -> tuple[float, float, list[float]]:
    """(the median rate of `work`, the median over the repeats of its ratio to `baseline`, the
    baseline's rate in each repeat), timed by `clock`. The two alternate slice by slice, so that
    a slow spell of the machine, which may last a fraction of a second, falls on both sides of
    the ratio."""
    rates, ratios, bases = [], [], []
    for _ in range(repeats):
        spent, base_spent, done, base_done = 0.0, 0.0, 0, 0
        for (fn, count), (base, base_count) in zip(work, baseline, strict=True):
            started = clock()
            fn()
            between = clock()
            base()
            spent, base_spent = spent + between - started, base_spent + clock() - between
            done, base_done = done + count, base_done + base_count
        rate, base_rate = done / spent, base_done / base_spent
        rates.append(rate)
        bases.append(base_rate)
        ratios.append(rate / base_rate)
    return statistics.median(rates), statistics.median(ratios), bases


def simulate(ruleset: Ruleset, battles: int, policy: str = "random") -> list[Match]:
    bots = {seat: get_policy(policy, ruleset.id) for seat in ruleset.default_table().seats}
    return [play_one(ruleset, bots, i) for i in range(battles)]


def play_one(ruleset: Ruleset, bots: dict[str, Any], i: int) -> Match:
    """The bench's battle number `i`."""
    return play(ruleset, bots, battle_id=str(uuid.UUID(int=i)), revealed=seeded_bytes("bench", i),
                bot_seed=seeded_bytes("bench-bots", i))


def playout_ms(ruleset: Ruleset, battles: int, repeats: int) -> dict[str, float]:
    """One random playout from a battle's start, median ms: on the full path (`play`, every event
    chained and recorded) and on the fast path (`playout`), the same battles from the same seeds."""
    bots = {seat: get_policy("random", ruleset.id) for seat in ruleset.default_table().seats}
    players = {seat: {"bot": "random"} for seat in bots}
    full, fast = [], []
    for _ in range(repeats):
        for i in range(battles):
            battle_id, revealed, seed = str(uuid.UUID(int=i)), seeded_bytes("bench", i), seeded_bytes("bench-bots", i)
            started = time.perf_counter()
            play(ruleset, bots, battle_id=battle_id, revealed=revealed, bot_seed=seed)
            full.append(time.perf_counter() - started)
            started = time.perf_counter()
            state, _ = open_battle(ruleset, battle_id=battle_id, setup=ruleset.fresh_setup(), players=players,
                                   revealed=revealed, created_at="1970-01-01T00:00:00Z")
            playout(ruleset, sim_of(state), Rng(seed))
            fast.append(time.perf_counter() - started)
    full_ms, fast_ms = 1000 * statistics.median(full), 1000 * statistics.median(fast)
    return {"playout_ms": fast_ms, "baseline_full_path_playout_ms": full_ms, "playout_speedup": full_ms / fast_ms}


def chain_only(m: Match) -> None:
    """The baseline's slice for one battle: its events hashed into a chain, `CHAIN_PASSES` times."""
    for _ in range(CHAIN_PASSES):
        chain = GENESIS
        for r in m.records:
            chain = chain_of(chain, r.seq, r.event.TOPIC, event_data(r.event))


def run(ruleset_id: str, battles: int, repeats: int) -> dict[str, float]:
    ruleset = get_ruleset(ruleset_id)
    matches = simulate(ruleset, battles)
    events = sum(len(m.records) for m in matches)
    decisions = sum(m.decisions for m in matches)
    results: dict[str, float] = {"battles": battles, "events": events, "decisions": decisions}

    baseline = [(partial(chain_only, m), CHAIN_PASSES * len(m.records)) for m in matches]
    bots = {seat: get_policy("random", ruleset.id) for seat in ruleset.default_table().seats}
    battles_played = [(partial(play_one, ruleset, bots, i), m.decisions) for i, m in enumerate(matches)]
    results["decisions_per_s"], results["decisions_ratio"], bases = interleaved_rate(
        battles_played, baseline, repeats)
    results["sim_events_per_s"] = results["decisions_per_s"] * events / decisions

    def rebuild_decoded() -> None:
        for m in matches:
            state = None
            for r in m.records:
                state = fold(ruleset, state, r)
    results["rebuild_decoded_events_per_s"] = median_rate(rebuild_decoded, events, repeats)

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        with Battles(url, snapshot_every=0) as store:
            for m in matches:
                store.save_battle(m.records, m.state)
        with Battles(url, snapshot_every=0, cache_size=1) as store:
            ids = [m.state.battle_id for m in matches]

            def rebuild_sqlite() -> None:
                for bid in ids:
                    store.cache.drop(bid)
                    store.load(bid)

            def raw_select() -> None:
                for bid in ids:
                    list(store.store.recorder.select_events(uuid.UUID(bid)))
            results["rebuild_sqlite_events_per_s"] = median_rate(rebuild_sqlite, events, repeats)
            results["baseline_sqlite_select_events_per_s"] = median_rate(raw_select, events, repeats)

    replays = [orjson.loads(orjson.dumps(build(m.state, m.records).__dict__)) for m in matches]

    def verify_one(r: dict[str, Any]) -> None:
        assert verify(Replay(r["header"], r["events"])).ok
    verified = [(partial(verify_one, r), len(m.records)) for r, m in zip(replays, matches)]
    results["verify_events_per_s"], results["verify_ratio"], more = interleaved_rate(verified, baseline, repeats)
    results["baseline_chain_only_events_per_s"] = statistics.median(bases + more)
    results.update(playout_ms(ruleset, battles, repeats))
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ruleset", default="deckduel")
    parser.add_argument("--battles", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = run(args.ruleset, args.battles, args.repeats)
    if args.json:
        print(orjson.dumps(results, option=orjson.OPT_INDENT_2).decode())
        return
    print(f"{args.ruleset}: {results['battles']} battles, {results['events']} events, "
          f"{results['decisions']} decisions; medians of {args.repeats} runs, one core")
    for key, value in results.items():
        if key.endswith(("_per_s", "_ms", "_speedup")):
            print(f"  {key:<38} {value:>12,.{2 if value < 100 else 0}f}{verdict(key, value, results)}")


def verdict(key: str, value: float, results: dict[str, float]) -> str:
    """The target a figure is held to, and whether it was met: absolute, or a ratio to the
    chain-only baseline (the median of each run's ratio to the baseline measured right after it)."""
    if key in RATIO_TARGETS:
        ratio, target = results[RATIO_OF[key]], RATIO_TARGETS[key]
        return f"  {ratio:.4f} x baseline, target >= {target}  {'met' if ratio >= target else 'MISSED'}"
    if key in TARGETS:
        target = TARGETS[key]
        return f"  target >= {target:,}  {'met' if value >= target else 'MISSED'}"
    return ""

if __name__ == "__main__":
    main()
