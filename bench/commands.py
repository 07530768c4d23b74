"""Durable commands, reads and battle creation through HTTP, measured by wrk from a separate process.

    python bench/commands.py [--json] [--store sqlite|postgres] [--seconds 5] [--connections 16] [--repeat 1]
                             [--battles N]

For each store, in one run: the baseline (bench/minimal.py, a minimal FastAPI + orjson POST
endpoint on the same server stack and worker count), then `ringside serve` on a fresh store
(SQLite: one worker, and the projection process it starts; PostgreSQL: the README's
production setup, two workers with `RINGSIDE_PROJECTIONS=external` and one
`ringside projections run` beside them, a fresh schema, Redis for views and fan-out):
  - creates: wrk POSTs /battles (deckduel); the answers' seat tokens feed the next steps
    (topped up, unmeasured, to --battles fresh battles: by default 1,500 a second of --seconds);
  - commands: wrk POSTs one real command per request: each deckduel battle opens with both
    seats awaited for the mulligan, so `keep the hand` is a durable command for each seat
    exactly once;
  - reads: wrk GETs /battles/{id}/legal with a seat token, across the battles, once the
    service has settled: the projections have caught up with the commands' events, so the
    measure is of reads, not of reads beside a projection backlog of varying size.
Each measure is `{rps, p50_ms, p99_ms, ratio}`, the ratio to that store's baseline, and
`cpu_ms`: the CPU time (user + system) that every process of the service used per request
(the server and its workers, the projection process or runner). With --repeat N each figure
is the median of N runs. Needs Debian's `wrk`.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.cpu import session_cpu  # noqa: E402
from tests.api.server import forget_prefix, free_port, stop, wait_until  # noqa: E402

PG = "postgresql://postgres@127.0.0.1:5432/test"
REDIS = "redis://127.0.0.1:6379/0"
COMMAND_BODY = '{"command":{"type":"mulligan","cards":[]}}'
CREATE_BODY = '{"ruleset":"deckduel","players":{"p1":"alice","p2":"bob"}}'

THREADS_LUA = r"""
threads_seen = {}
function setup(thread) thread:set("id", #threads_seen + 1); table.insert(threads_seen, thread) end
function done(summary, latency, requests)
  io.write(string.format("STATUS non2xx=%d\n", summary.errors.status))
end
"""
BASELINE_LUA = THREADS_LUA + r"""
wrk.method = "POST"; wrk.headers["Content-Type"] = "application/json"; wrk.body = '%s'
""" % COMMAND_BODY
CREATE_LUA = THREADS_LUA + r"""
local out
function init(args) out = io.open(args[1] .. "." .. wrk.thread:get("id"), "w") end
function request()
  return wrk.format("POST", "/battles", {["Content-Type"] = "application/json"}, '%s')
end
function response(status, headers, body) if status == 201 then out:write(body, "\n"); out:flush() end end
""" % CREATE_BODY
PAIRS_LUA = THREADS_LUA + r"""
local pairs, index = {}, 0
function init(args)
  local n = tonumber(wrk.thread:get("id"))
  for line in io.lines(args[1]) do
    local k, bid, token = line:match("(%d+) (%S+) (%S+)")
    if tonumber(k) % 2 == n - 1 then table.insert(pairs, {bid, token}) end
  end
end
"""
COMMANDS_LUA = PAIRS_LUA + r"""
function request()
  index = index + 1
  local p = pairs[index] or pairs[#pairs]
  return wrk.format("POST", "/battles/" .. p[1] .. "/commands",
    {["Authorization"] = "Bearer " .. p[2], ["Content-Type"] = "application/json"}, '%s')
end
""" % COMMAND_BODY
READS_LUA = PAIRS_LUA + r"""
function request()
  index = index %% #pairs + 1
  local p = pairs[index]
  return wrk.format("GET", "/battles/" .. p[1] .. "/legal", {["Authorization"] = "Bearer " .. p[2]})
end
""".replace("%%", "%")


def wrk(url: str, script: str, args: list[str], seconds: int, connections: int) -> dict[str, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script)
    done = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", f.name, url,
                           "--", *args], capture_output=True, text=True)
    os.unlink(f.name)
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed ({done.returncode}): {(done.stderr or done.stdout).strip()[:500]}")
    out = done.stdout

    def latency(label: str) -> float:
        found = re.search(rf"^\s+{label}\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        if found is None:
            raise RuntimeError(f"no {label} latency in wrk's output:\n{out}")
        value, unit = found.groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if rps is None:
        raise RuntimeError(f"no Requests/sec in wrk's output:\n{out}")
    non2xx = re.search(r"STATUS non2xx=(\d+)", out)
    return {"rps": float(rps.group(1)), "p50_ms": latency("50%"),
            "p99_ms": latency("99%"), "non_2xx": int(non2xx.group(1)) if non2xx else 0}


def settle(sessions: list[int], idle_share: float = 0.05, window: float = 0.25, timeout: float = 120.0) -> None:
    """Wait until the sessions' processes are idle (below `idle_share` of one core over a
    window): the projection process has caught up with what the last measure wrote."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        before = session_cpu(sessions)
        time.sleep(window)
        if session_cpu(sessions) - before < idle_share * window:
            return
    raise AssertionError(f"the service did not settle within {timeout:.0f}s")


def wrk_cpu(sessions: list[int], url: str, script: str, args: list[str], seconds: int,
            connections: int) -> dict[str, float]:
    """`wrk`, with the CPU the sessions' processes used per request meanwhile."""
    before = session_cpu(sessions)
    found = wrk(url, script, args, seconds, connections)
    found["cpu_ms"] = (session_cpu(sessions) - before) * 1000 / max(1.0, found["rps"] * seconds)
    return found


@contextmanager
def serving(cmd: list[str], cwd: Path, env: dict[str, str], url: str, probe: str) -> Iterator[int]:
    log_path = cwd / f"server-{uuid.uuid4().hex[:8]}.log"     # read it when a step fails
    log = open(log_path, "wb")
    server = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)

    def answering() -> bool:
        if server.poll() is not None:       # say why at once, rather than after the timeout
            tail = "\n".join(log_path.read_text(errors="replace").strip().splitlines()[-10:])
            raise RuntimeError(f"{' '.join(cmd[:2])} exited ({server.returncode}); the end of {log_path}:\n{tail}")
        return httpx.get(url + probe, timeout=1).status_code == 200

    try:
        wait_until(answering, timeout=60, what="the server")
        yield server.pid            # its session's id: every process it starts is in it
    finally:
        stop(server)
        log.close()


def baseline(workdir: Path, workers: int, seconds: int, connections: int) -> dict[str, float]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, str(ROOT / "bench" / "minimal.py"), "--port", str(port), "--workers", str(workers)]
    with serving(cmd, workdir, dict(os.environ), url, "/docs") as session:
        return wrk_cpu([session], url + "/echo", BASELINE_LUA, [], seconds, connections)


def created_pairs(prefix: Path) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for part in sorted(prefix.parent.glob(prefix.name + ".*")):
        for line in part.read_text().splitlines():
            made = orjson.loads(line)
            pairs.extend((made["battle_id"], token) for token in made["seat_tokens"].values())
    return pairs


def ringside(workdir: Path, db: str, redis: str | None, workers: int, seconds: int,
             connections: int, battles: int) -> dict[str, dict[str, float]]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}
    env["RINGSIDE_REDIS_PREFIX"] = f"bench{uuid.uuid4().hex[:8]}"
    ringside_cmd = str(Path(sys.executable).parent / "ringside")
    cmd = [ringside_cmd, "serve", "--port", str(port), "--db", db, "--workers", str(workers),
           *(["--redis", redis] if redis else [])]
    runner = None
    if redis:       # the production setup: one projection runner beside the workers
        env["RINGSIDE_PROJECTIONS"] = "external"
        runner = subprocess.Popen([ringside_cmd, "projections", "run", "--db", db, "--redis", redis], cwd=workdir,
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        with serving(cmd, workdir, env, url, "/rulesets") as session:
            return measure(url, workdir, port, seconds, connections, battles,
                           [session, *([runner.pid] if runner else [])])
    finally:
        if runner is not None:
            stop(runner)
        if redis:
            forget_prefix(redis, env["RINGSIDE_REDIS_PREFIX"])


def measure(url: str, workdir: Path, port: int, seconds: int, connections: int, battles: int,
            sessions: list[int]) -> dict[str, dict[str, float]]:
    """Creates, then commands and reads over the battles created (at least `battles` of them,
    two seats each)."""
    prefix = workdir / f"created-{port}"
    creates = wrk_cpu(sessions, url, CREATE_LUA, [str(prefix)], seconds, connections)
    # Enough fresh battles for the commands (two per battle), topped up unmeasured.
    for part in range(1, 7):
        if len(created_pairs(prefix)) >= 2 * battles:
            break
        wrk(url, CREATE_LUA, [str(workdir / f"more{part}-{port}")], seconds, connections)
        for extra in workdir.glob(f"more{part}-{port}.*"):
            extra.rename(prefix.parent / f"{prefix.name}.x{part}{extra.suffix}")
    pairs = created_pairs(prefix)
    # Let the projections finish the creations before measuring.
    wait_until(lambda: pairs[-1][0] in {b["battle_id"] for b in httpx.get(url + "/battles?limit=500").json()["battles"]},
               timeout=300, what="the views to catch up")
    listing = workdir / f"pairs-{port}.txt"
    listing.write_text("".join(f"{i} {b} {t}\n" for i, (b, t) in enumerate(pairs)))
    commands = wrk_cpu(sessions, url, COMMANDS_LUA, [str(listing)], seconds, connections)
    settle(sessions)
    reads = wrk_cpu(sessions, url, READS_LUA, [str(listing)], seconds, connections)
    return {"creates": creates, "commands": commands, "reads": reads}


def fresh_postgres() -> str:
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect("host=127.0.0.1 port=5432 dbname=test user=postgres", autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    return f"{PG}?schema={schema}"


def drop_postgres(url: str) -> None:
    import psycopg

    schema = url.rsplit("schema=", 1)[1]
    with psycopg.connect("host=127.0.0.1 port=5432 dbname=test user=postgres", autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def one_run(store: str, seconds: int, connections: int, battles: int) -> dict[str, dict[str, float]]:
    workdir = Path(tempfile.mkdtemp(prefix="ringside-bench-"))
    workers = 1 if store == "sqlite" else 2
    base = baseline(workdir, workers, seconds, connections)
    if store == "sqlite":
        found = ringside(workdir, f"sqlite:///{workdir / 'bench.db'}", None, 1, seconds, connections, battles)
    else:
        db = fresh_postgres()
        try:
            found = ringside(workdir, db, REDIS, workers, seconds, connections, battles)
        finally:
            drop_postgres(db)
    shutil.rmtree(workdir, ignore_errors=True)
    return {"baseline": base, **found}


def summary(runs: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Each figure's median over the runs; the ratio is taken per run, against that run's baseline."""
    out: dict[str, dict[str, float]] = {}
    for measure in ("baseline", "commands", "reads", "creates"):
        rows = [run[measure] for run in runs]
        out[measure] = {key: round(statistics.median(row[key] for row in rows), 3 if key == "cpu_ms" else 2)
                        for key in ("rps", "p50_ms", "p99_ms", "non_2xx", "cpu_ms")}
        out[measure]["ratio"] = round(statistics.median(run[measure]["rps"] / run["baseline"]["rps"]
                                                        for run in runs), 3)
    return out


TARGETS = {"sqlite": ">= 2,000 commands/s, p99 <= 15 ms, >= 30% of the baseline; reads >= 50%; creates >= 500/s",
           "postgres": ">= 1,000 commands/s, p99 <= 30 ms (2 workers)"}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", choices=["sqlite", "postgres"], action="append",
                        help="the store(s) to measure (default: both)")
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=1, help="runs per store; figures are medians")
    parser.add_argument("--battles", type=int,
                        help="fresh battles for the commands, created first (default: 1,500 a second)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        sys.exit("error: this benchmark needs wrk (scripts/wrk installs it)")
    battles = 1500 * args.seconds if args.battles is None else args.battles
    result = {store: summary([one_run(store, args.seconds, args.connections, battles) for _ in range(args.repeat)])
              for store in args.store or ["sqlite", "postgres"]}
    if args.json:
        print(orjson.dumps(result).decode())
        return
    for store, measures in result.items():
        print(f"{store}: wrk -t2 -c{args.connections} -d{args.seconds}s, median of {args.repeat}; 2 cores shared")
        print(f"{'measure':<10}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'ratio':>8}{'non-2xx':>9}{'CPU ms':>8}")
        for name, row in measures.items():
            print(f"{name:<10}{row['rps']:>10,.0f}{row['p50_ms']:>10.2f}{row['p99_ms']:>10.2f}"
                  f"{row['ratio']:>8.2f}{row['non_2xx']:>9.0f}{row['cpu_ms']:>8.3f}")
        print(f"target: {TARGETS[store]}")


if __name__ == "__main__":
    main()
