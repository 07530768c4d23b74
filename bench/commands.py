"""Durable commands per second through HTTP, measured by wrk from a separate process.

    python bench/commands.py [--db URL] [--seconds 5] [--connections 16] [--battles 4000]

Starts `ringside serve` (one worker) on a fresh SQLite file (or --db), creates battles over
HTTP, then has wrk POST one real command per request: each deckduel battle opens with both
seats awaited for the mulligan, so `keep the hand` is a legal, durable command for each seat
exactly once. Baseline in the same run: wrk on a read endpoint (GET /battles/{id}/legal).
Reports requests/s and wrk's p50/p99 latencies. Needs Debian's `wrk`.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.api.server import free_port, stop, wait_until  # noqa: E402

COMMANDS_LUA = r"""
local pairs, index = {}, 0
function setup(thread) thread:set("id", #threads_seen + 1); table.insert(threads_seen, thread) end
threads_seen = {}
function init(args)
  local n, count = tonumber(wrk.thread:get("id")), tonumber(args[2])
  for line in io.lines(args[1]) do
    local k, bid, token = line:match("(%d+) (%S+) (%S+)")
    if tonumber(k) % count == n - 1 then table.insert(pairs, {bid, token}) end
  end
end
function request()
  index = index + 1
  local p = pairs[index] or pairs[#pairs]
  return wrk.format("POST", "/battles/" .. p[1] .. "/commands",
    {["Authorization"] = "Bearer " .. p[2], ["Content-Type"] = "application/json"},
    '{"command":{"type":"mulligan","cards":[]}}')
end
function done(summary, latency, requests)
  io.write(string.format("STATUS non2xx=%d\n", summary.errors.status))
end
"""

READ_LUA = r"""
function init(args) wrk.headers["Authorization"] = "Bearer " .. args[1] end
"""


def wrk(url: str, script: str, args: list[str], seconds: int, connections: int) -> dict[str, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script)
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", f.name, url, "--", *args],
                         capture_output=True, text=True, check=True).stdout
    os.unlink(f.name)

    def latency(label: str) -> float:
        value, unit = re.search(rf"^\s+{label}\s+([\d.]+)(us|ms|s)$", out, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    non2xx = re.search(r"STATUS non2xx=(\d+)", out)
    return {"requests_per_s": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "p50_ms": latency("50%"), "p99_ms": latency("99%"),
            "non_2xx": int(non2xx.group(1)) if non2xx else int((re.search(r"Non-2xx.*?(\d+)", out) or [0, 0])[1])}


def create_battles(url: str, count: int) -> list[tuple[str, str]]:
    body = {"ruleset": "deckduel", "players": {"p1": "alice", "p2": "bob"}}

    def one(_: int) -> list[tuple[str, str]]:
        made = httpx.post(url + "/battles", json=body, timeout=30).json()
        return [(made["battle_id"], token) for token in made["seat_tokens"].values()]

    with ThreadPoolExecutor(8) as pool:
        return [pair for pairs in pool.map(one, range(count)) for pair in pairs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--battles", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    parser.add_argument("--external-projections", action="store_true",
                        help="the server runs no projections (as in production, where a runner process does)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("error: this benchmark needs wrk (apt-get install -y wrk)")
    workdir = Path(tempfile.mkdtemp(prefix="ringside-bench-"))
    db = args.db or f"sqlite:///{workdir / 'bench.db'}"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}
    if args.external_projections:
        env["RINGSIDE_PROJECTIONS"] = "external"
    server = subprocess.Popen([str(Path(sys.executable).parent / "ringside"), "serve", "--port", str(port), "--db", db,
                               "--workers", str(args.workers)],
                              cwd=workdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: httpx.get(url + "/rulesets", timeout=1).status_code == 200, what="the server")
        started = time.perf_counter()
        pairs = create_battles(url, args.battles)
        created = args.battles / (time.perf_counter() - started)
        # Let the projection runner finish the creations before measuring.
        wait_until(lambda: True, what="nothing") if args.external_projections else wait_until(lambda: pairs[-1][0] in {b["battle_id"] for b in httpx.get(url + "/battles?limit=50").json()["battles"]},
                   timeout=300, what="the views to catch up")
        (workdir / "pairs.txt").write_text("".join(f"{i} {b} {t}\n" for i, (b, t) in enumerate(pairs)))
        baseline = wrk(f"{url}/battles/{pairs[0][0]}/legal", READ_LUA, [pairs[0][1]], args.seconds,
                       args.connections)
        commands = wrk(url, COMMANDS_LUA, [str(workdir / "pairs.txt"), "2"], args.seconds, args.connections)
    finally:
        stop(server)
    store = "PostgreSQL" if db.startswith("postgres") else "SQLite file"
    where = "projections in another process" if args.external_projections else "projections in-process"
    print(f"store: {store}; {args.workers} uvicorn worker(s), {where}; wrk -t2 -c{args.connections} -d{args.seconds}s; 2 cores shared")
    print(f"battles created over HTTP: {created:,.0f}/s")
    print(f"{'measure':<44}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'non-2xx':>9}")
    for name, row in (("baseline: GET /battles/{id}/legal (read)", baseline),
                      ("durable commands: POST /battles/{id}/commands", commands)):
        print(f"{name:<44}{row['requests_per_s']:>10,.0f}{row['p50_ms']:>10.2f}{row['p99_ms']:>10.2f}{row['non_2xx']:>9}")
    print("target: >= 2,000 commands/s with p99 <= 15 ms on SQLite")


if __name__ == "__main__":
    main()
