"""Seek benchmark (never a timed test): the state and the view at random seqs of one
10,000-event battle stored in a SQLite file, as `GET /battles/{id}/at/{seq}` and
`ringside replay show --at` do it. Beside it, in the same run, the same seeks in a copy of
the battle stored without keyframes (every seek folds from the first event).

    python bench/seek.py [--events 10000] [--seeks 1000] [--every 100] [--json]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.ai.match import Match, play, seeded_bytes  # noqa: E402
from domain.battles import Battles  # noqa: E402
from domain.engine.events import SPECTATOR  # noqa: E402
from domain.engine.ruleset import get_ruleset  # noqa: E402
from domain.engine.bots import Bot  # noqa: E402
from domain.engine.content import param_bounds  # noqa: E402
from domain.engine.rng import Rng  # noqa: E402
from domain.rulesets.ring.commands import StrikeLeader  # noqa: E402
from domain.rulesets.ring.state import Params  # noqa: E402

TARGET_P99_MS = 5.0


class Skirmisher(Bot):
    """Random play that never strikes a leader, so the battle runs as long as asked."""
    name = "skirmisher"

    def choose(self, view: Mapping[str, Any] | None, legal: Sequence[Any], rng: Rng,
               memory: Any = None) -> Any:
        calm = [c for c in legal if not isinstance(c, StrikeLeader)]
        return rng.choice(calm or legal)


def long_battle(events: int) -> Match:
    """A ring battle of at least `events` events, or as long as ring's longest time limit allows."""
    ruleset = get_ruleset("ring")
    longest = param_bounds(Params)["max_turns"][1]
    turns = 50
    while True:
        setup = {**ruleset.fresh_setup(), "params": {"max_turns": turns}}
        match = play(ruleset, {s: Skirmisher() for s in ruleset.default_table().seats}, battle_id="00000000-0000-4000-8000-00000000beef",
                     revealed=seeded_bytes("seek", turns), bot_seed=seeded_bytes("seek-bots", turns), setup=setup)
        if len(match.records) >= events or turns == longest:
            return match
        turns = min(longest, int(turns * events / len(match.records) * 1.1) + 1)


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * pct / 100))]


def timed_seeks(store: Battles, battle_id: str, seqs: list[int], with_view: bool) -> list[float]:
    out = []
    for seq in seqs:
        started = time.perf_counter()
        if with_view:
            store.view(battle_id, SPECTATOR, at=seq)
        else:
            store.load(battle_id, at=seq)
        out.append((time.perf_counter() - started) * 1000)
    return out


def run(events: int, seeks: int, every: int) -> dict[str, float]:
    match = long_battle(events)
    battle_id = match.state.battle_id
    last = match.state.seq
    seqs = [random.Random(7).randint(1, last) for _ in range(seeks)]
    results: dict[str, float] = {"events": last, "seeks": seeks, "keyframe_every": every}
    with tempfile.TemporaryDirectory() as tmp:
        keyed, plain = f"sqlite:///{Path(tmp) / 'keyed.db'}", f"sqlite:///{Path(tmp) / 'plain.db'}"
        with Battles(keyed, snapshot_every=every) as store:
            store.save_battle(match.records, match.state)
        with Battles(plain, snapshot_every=0) as store:
            store.save_battle(match.records, match.state)
        with Battles(keyed, snapshot_every=every) as store:
            state = timed_seeks(store, battle_id, seqs, with_view=False)
            view = timed_seeks(store, battle_id, seqs, with_view=True)
        with Battles(plain, snapshot_every=0) as store:
            baseline = timed_seeks(store, battle_id, seqs[: max(20, seeks // 20)], with_view=False)
    for name, found in (("state", state), ("view", view), ("baseline_no_keyframes", baseline)):
        results[f"{name}_p50_ms"] = statistics.median(found)
        results[f"{name}_p99_ms"] = percentile(found, 99)
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seeks", type=int, default=1000)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = run(args.events, args.seeks, args.every)
    if args.json:
        print(orjson.dumps(results, option=orjson.OPT_INDENT_2).decode())
        return
    print(f"seek in a {results['events']:,}-event ring battle on SQLite, {args.seeks} random seqs, "
          f"a keyframe every {args.every} events")
    for key in ("state", "view", "baseline_no_keyframes"):
        p99 = results[f"{key}_p99_ms"]
        verdict = "" if key == "baseline_no_keyframes" else \
            f"  target p99 <= {TARGET_P99_MS} ms  {'met' if p99 <= TARGET_P99_MS else 'MISSED'}"
        print(f"  {key:<24} p50 {results[f'{key}_p50_ms']:7.2f} ms   p99 {p99:7.2f} ms{verdict}")


if __name__ == "__main__":
    main()
