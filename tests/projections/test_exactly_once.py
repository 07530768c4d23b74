"""Kill the projection runner mid-stream (SIGKILL, in a subprocess), restart it, and every view
equals a rebuild from scratch: each event was applied exactly once."""
from __future__ import annotations

import os
import signal
import subprocess
import uuid

import redis as redis_lib

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.battles import Battles
from domain.engine.ruleset import get_ruleset
from domain.sets import Sets
from projections.runner import Views
from projections.store import RedisViewStore
from projections.views import PROJECTIONS
from tests.api.server import ROOT, stop, wait_until
from tests.cli.helpers import RINGSIDE, run

RULESET = get_ruleset("deckduel")
BOTS = {seat: get_policy("random", "deckduel") for seat in RULESET.default_table().seats}


def add_battles(battles: Battles, start: int, count: int) -> None:
    for i in range(start, start + count):
        players = {"p1": f"player{i % 5}", "p2": f"player{(i + 2) % 5}"}
        match = play(RULESET, BOTS, battle_id=str(uuid.UUID(int=i + 1)), revealed=seeded_bytes("x", i),
                     bot_seed=seeded_bytes("xb", i), players=players)
        battles.save_battle(match.records, match.state)


def dump(client: redis_lib.Redis, prefix: str) -> dict[str, object]:
    found: dict[str, object] = {}
    for raw in client.scan_iter(match=f"{prefix}:*", count=1000):
        key = raw.decode()
        kind = client.type(raw).decode()
        value = {"string": lambda: client.get(raw), "list": lambda: client.lrange(raw, 0, -1),
                 "hash": lambda: client.hgetall(raw), "zset": lambda: client.zrange(raw, 0, -1, withscores=True)}[kind]()
        found[key[len(prefix):]] = value
    return found


def runner(db: str, redis_url: str, prefix: str) -> subprocess.Popen:
    env = {**os.environ, "RINGSIDE_REDIS_PREFIX": prefix, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([RINGSIDE, "projections", "run", "--db", db, "--redis", redis_url], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def test_a_killed_runner_resumes_exactly_once(tmp_path, redis_url):
    db = f"sqlite:///{tmp_path / 'log.db'}"
    prefix, fresh = f"t{uuid.uuid4().hex[:10]}", f"t{uuid.uuid4().hex[:10]}"
    client = redis_lib.Redis.from_url(redis_url)
    try:
        with Battles(db) as battles:
            add_battles(battles, 0, 30)
            Sets(battles).simulate("deckduel", BOTS, games=3, mode="all", seed="x",
                                   players={"p1": "player0", "p2": "player1"})
            head = Views(battles, RedisViewStore(redis_url, prefix)).head()
            live = RedisViewStore(redis_url, prefix)
            first = runner(db, redis_url, prefix)
            wait_until(lambda: (live.position("memory") or 0) > head // 3, timeout=60, what="the runner to start")
            stop(first, signal.SIGKILL)                       # mid-stream, wherever it is
            killed_at = {name: live.position(name) for name in PROJECTIONS}
            assert min(p or 0 for p in killed_at.values()) < head, "the runner finished before the kill"
            add_battles(battles, 30, 5)                        # the log grows while it is down
            head = Views(battles, live).head()
            second = runner(db, redis_url, prefix)
            try:
                wait_until(lambda: all((live.position(n) or 0) >= head for n in PROJECTIONS), timeout=120,
                           what="the restarted runner to catch up")
            finally:
                stop(second)
            Views(battles, RedisViewStore(redis_url, fresh)).catch_up()
        assert dump(client, prefix) == dump(client, fresh)
        assert len(dump(client, prefix)) > 50
    finally:
        for p in (prefix, fresh):
            keys = list(client.scan_iter(match=f"{p}:*"))
            if keys:
                client.delete(*keys)
        client.close()


def test_rebuild_drops_a_view_and_rebuilds_it_from_the_log(tmp_path, redis_url):
    db = f"sqlite:///{tmp_path / 'log.db'}"
    prefix = f"t{uuid.uuid4().hex[:10]}"
    client = redis_lib.Redis.from_url(redis_url)
    env = {**os.environ, "RINGSIDE_REDIS_PREFIX": prefix}
    try:
        with Battles(db) as battles:
            add_battles(battles, 0, 4)
            Views(battles, RedisViewStore(redis_url, prefix)).catch_up()
        before = dump(client, prefix)
        client.delete(f"{prefix}:v:leaderboards:deckduel:ranking")      # a damaged view
        done = subprocess.run([RINGSIDE, "projections", "rebuild", "leaderboards", "--db", db, "--redis",
                               redis_url], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "rebuilt leaderboards from" in done.stdout
        assert dump(client, prefix) == before
        bad = run("projections", "rebuild", "nope", "--db", db, "--redis", redis_url, cwd=tmp_path)
        assert bad.returncode == 1 and bad.stderr.startswith("error: unknown view 'nope'")
    finally:
        keys = list(client.scan_iter(match=f"{prefix}:*"))
        if keys:
            client.delete(*keys)
        client.close()
