"""Leaderboard benchmark: finished sets per second rated by the leaderboards projection and
visible in the Redis ranking, beside baselines measured in the same run on the same data.

    python bench/leaderboard.py [--sets 300] [--players 50] [--repeats 5] [--redis URL] [--json]

The log holds `--sets` best-of-3 deckduel sets played by bots (every battle's events too, as in
production). Each repeat rebuilds the leaderboards view from the whole log into a fresh Redis
prefix and then checks every set was rated (games add up, every player ranked).

Baselines, on the same sets:
- `zincrby`: raw pipelined ZINCRBY, two members per set (the cheapest "visible in a sorted set");
- `openskill`: rating the sets in memory with openskill alone (no log, no Redis);
- `log_read`: reading and decoding the whole log alone (what any rebuild must pay).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.ai import get_policy  # noqa: E402
from domain.battles import Battles  # noqa: E402
from domain.engine.ruleset import get_ruleset  # noqa: E402
from domain.engine.table import player_id  # noqa: E402
from domain.sets import SetEnded, Sets  # noqa: E402
from domain.store import BLOB_TOPICS  # noqa: E402
from projections.runner import Views  # noqa: E402
from projections.store import RedisViewStore  # noqa: E402


def build_log(battles: Battles, sets: int, players: int) -> list[SetEnded]:
    ruleset = get_ruleset("deckduel")
    bots = {seat: get_policy("random", "deckduel") for seat in ruleset.default_table().seats}
    played = Sets(battles)
    ended = []
    for i in range(sets):
        a, b = i % players, (i * 7 + 1 + i // players) % players
        b = b if b != a else (a + 1) % players
        done = played.simulate("deckduel", bots, games=3, mode="best_of", seed="bench-lb", number=i,
                               players={"p1": f"player-{a}", "p2": f"player-{b}"})
        assert done.ended is not None, "a simulated set is played to its end"
        ended.append(done.ended)
    return ended


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def clean(store: RedisViewStore) -> None:
    keys = list(store.redis.scan_iter(match=f"{store.prefix}:*", count=1000))
    if keys:
        store.redis.delete(*keys)


def rebuild_once(battles: Battles, redis_url: str, ended: list[SetEnded]) -> float:
    store = RedisViewStore(redis_url, prefix=f"bench-lb-{uuid.uuid4().hex[:8]}")
    try:
        views = Views(battles, store, ["leaderboards"])
        seconds = timed(views.catch_up)
        stats = store.hgetall(store.key("leaderboards", "deckduel", "stats"))
        ranked = store.redis.zcard(store.key("leaderboards", "deckduel", "ranking"))
        players = {player_id(p) for e in ended for p in e.players.values()}
        if sum(row["games"] for row in stats.values()) != 2 * len(ended) or ranked != len(players):
            raise SystemExit(f"leaderboard incomplete: {len(stats)} rows, {ranked} ranked")
        return seconds
    finally:
        clean(store)
        store.close()


def zincrby_once(redis_url: str, ended: list[SetEnded]) -> float:
    store = RedisViewStore(redis_url, prefix=f"bench-lb-{uuid.uuid4().hex[:8]}")
    key = f"{store.prefix}:ranking"

    def run() -> None:
        pipe = store.redis.pipeline(transaction=False)
        for e in ended:
            for seat, player in e.players.items():
                pipe.zincrby(key, 1 if e.winner == seat else 0, player_id(player))
        pipe.execute()

    try:
        return timed(run)
    finally:
        clean(store)
        store.close()


def openskill_once(ended: list[SetEnded]) -> float:
    from openskill.models import PlackettLuce, PlackettLuceRating

    model = PlackettLuce()

    def run() -> None:
        ratings: dict[str, PlackettLuceRating] = {}
        for e in ended:
            seats = sorted(e.players)
            names = [player_id(e.players[s]) for s in seats]
            teams = [[ratings.get(name) or model.rating(name=name)] for name in names]
            rated = model.rate(teams, ranks=[0 if e.winner in (None, s) else 1 for s in seats])
            for name, (rating,) in zip(names, rated):
                ratings[name] = rating

    return timed(run)


def log_read_once(battles: Battles) -> float:
    recorder, mapper = battles.store.recorder, battles.store.mapper

    def run() -> None:
        start = None
        while page := recorder.select_notifications(start, 500, inclusive_of_start=start is None):
            for note in page:
                if note.topic not in BLOB_TOPICS:
                    mapper.to_domain_event(note)
            start = page[-1].id

    return timed(run)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=int, default=300)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, Battles(f"sqlite:///{tmp}/bench.db") as battles:
        ended = build_log(battles, args.sets, args.players)
        records = battles.store.recorder.max_notification_id()
        sets = len(ended)
        rows = {
            "leaderboards_sets_per_s": [sets / rebuild_once(battles, args.redis, ended) for _ in range(args.repeats)],
            "baseline_zincrby_sets_per_s": [sets / zincrby_once(args.redis, ended) for _ in range(args.repeats)],
            "baseline_openskill_sets_per_s": [sets / openskill_once(ended) for _ in range(args.repeats)],
            "baseline_log_read_sets_per_s": [sets / log_read_once(battles) for _ in range(args.repeats)],
        }
    results = {"sets": sets, "logged_records": records, "repeats": args.repeats,
               **{name: round(statistics.median(rates), 1) for name, rates in rows.items()}}
    if args.json:
        print(orjson.dumps(results).decode())
        return
    print(f"{sets} finished best-of-3 sets, {records} logged records, median of {args.repeats}")
    for name, value in results.items():
        if name.endswith("_per_s"):
            print(f"  {name:32s} {value:>12,.1f}")


if __name__ == "__main__":
    main()
