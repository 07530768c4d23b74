"""1,000 WebSocket spectators on one battle: delay from commit to delivery.

    python bench/spectators.py [--spectators 1000] [--commands 60] [--db URL]

Starts `ringside serve`, opens N spectator WebSockets from a separate client process
(asyncio + websockets, fd limit raised), then sends commands one at a time. The commit time
of each batch is taken when its command's HTTP answer arrives (an upper bound on the commit
instant, so the delays below are slight underestimates only by the answer's transfer time);
each spectator stamps every event on arrival. Baseline in the same run: the round trip of
one command (HTTP answer time), i.e. what a player waits anyway.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.api.server import free_port, stop, wait_until  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def spectate(url: str, arrivals: dict[int, list[float]], ready: asyncio.Event, count: list[int],
                   total: int) -> None:
    async with websockets.connect(url, max_queue=None) as ws:
        count[0] += 1
        if count[0] == total:
            ready.set()
        async for message in ws:
            seq = orjson.loads(message)["seq"]
            arrivals.setdefault(seq, []).append(time.perf_counter())


async def run(base: str, spectators: int, commands: int) -> tuple[list[float], list[float]]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = (await http.post("/battles", json={"ruleset": "deckduel", "players": {"p1": "a", "p2": "b"}})).json()
        bid, tokens = made["battle_id"], made["seat_tokens"]
        head = (await http.get(f"/battles/{bid}")).json()["seq"]
        ws_url = base.replace("http", "ws") + f"/battles/{bid}/stream?from={head + 1}"
        arrivals: dict[int, list[float]] = {}
        ready, count = asyncio.Event(), [0]
        tasks = [asyncio.create_task(spectate(ws_url, arrivals, ready, count, spectators)) for _ in range(spectators)]
        await asyncio.wait_for(ready.wait(), 120)
        await asyncio.sleep(1.0)
        committed: dict[int, float] = {}
        round_trips = []
        rng = random.Random(1)
        for _ in range(commands):
            for seat, token in tokens.items():
                legal = (await http.get(f"/battles/{bid}/legal", headers={"Authorization": f"Bearer {token}"})).json()
                if legal["ended"] or not legal["legal"]:
                    continue
                sent = time.perf_counter()
                answer = (await http.post(f"/battles/{bid}/commands", headers={"Authorization": f"Bearer {token}"},
                                          json={"command": rng.choice(legal["legal"])})).json()
                done = time.perf_counter()
                round_trips.append((done - sent) * 1000)
                for event in answer["events"]:
                    committed[event["seq"]] = done
                await asyncio.sleep(0.25)     # one batch at a time: latency, not a backlog
                break
        await asyncio.sleep(2.0)
        for task in tasks:
            task.cancel()
        delays = [(t - committed[seq]) * 1000 for seq, times in arrivals.items() if seq in committed for t in times]
        return delays, round_trips


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--commands", type=int, default=60)
    parser.add_argument("--db")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    workdir = Path(tempfile.mkdtemp(prefix="ringside-bench-"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}
    server = subprocess.Popen([str(Path(sys.executable).parent / "ringside"), "serve", "--port", str(port),
                               "--db", args.db or f"sqlite:///{workdir / 'bench.db'}"],
                              cwd=workdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True, preexec_fn=lambda: resource.setrlimit(
                                  resource.RLIMIT_NOFILE, (min(hard, 65536), hard)))
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: httpx.get(base + "/rulesets", timeout=1).status_code == 200, what="the server")
        delays, round_trips = asyncio.run(run(base, args.spectators, args.commands))
    finally:
        stop(server)
    print(f"{args.spectators} spectators, {len(round_trips)} commands, {len(delays)} deliveries; one worker, 2 cores shared")
    print(f"commit -> delivery: p50 {statistics.median(delays):.1f} ms, p99 {percentile(delays, 99):.1f} ms "
          f"(target p99 <= 50 ms)")
    print(f"baseline, command round trip: p50 {statistics.median(round_trips):.1f} ms, "
          f"p99 {percentile(round_trips, 99):.1f} ms")


if __name__ == "__main__":
    main()
