"""Clocks: how late the server appends a timeout, and what clock bookkeeping costs durable commands.

    python bench/clocks.py [--json] [--battles 10000] [--expiring 1000] [--window 60]
                           [--pairs 5] [--seconds 5] [--connections 16] [--command-battles N]
                           [--only timeouts|commands]

Timeouts: one `ringside serve` worker on a fresh SQLite file holds `--battles` clocked deckduel
battles, created over HTTP, in which nobody moves. Most are idle on a `correspondence` clock
(a day per turn); `--expiring` of them have a bank (no increment, 1 s of grace, no first-move
limit) spread evenly over `--window` seconds, so both seats' time runs out then and the
server's clock keeper appends a forfeit. The expiring battles are created last, longest bank
first: every deadline then falls after the last create (while creating them takes less
than the window), so the measure is of the keeper among the battles it holds, not of the
keeper beside a stream of creates. This process follows the commits itself, reading the
SQLite file (WAL mode lets a reader in beside the writer) every couple of milliseconds; a
timeout's lateness is the time it saw the `engine.TimedOut` committed less the battle's
expiry: its recorded `engine.ClockStarted.at_ms` plus its bank plus grace. It fails when an
expiring battle has no timeout within the window plus 30 s, or any battle has two, or an
idle battle has one.

Commands: `--pairs` alternating pairs of runs, each on a fresh server (SQLite, one worker):
deckduel battles created by wrk with `"clock": "rapid"` or with no clock, then wrk POSTs
keep-the-hand mulligans over them, as bench/commands.py measures commands. The figures are
the median rps of each kind, and the median over the pairs of with/without. Needs Debian's `wrk`.

Besides the figures the issue asks for, the JSON says: for timeouts, how many expired and
timed out once, the latest one, and the server's own decision time (`TimedOut.at_ms` less the
expiry: the rest of the lateness is the commit and this process seeing it); for commands, each
kind's p99, CPU ms a command (every process of the service) and non-2xx answers, each pair's
ratio, and `cpu_ratio` (CPU a command without clocks over with: steadier than rps when other
loads share the machine).
"""
from __future__ import annotations

import argparse
import math
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.commands import (COMMANDS_LUA, CREATE_BODY, CREATE_LUA, created_pairs, serving, settle,  # noqa: E402
                            wrk, wrk_cpu)
from tests.api.server import free_port, wait_until  # noqa: E402

PLAYERS = {"p1": "alice", "p2": "bob"}
IDLE_CLOCK = "correspondence"
COMMAND_CLOCK = "rapid"
GRACE_MS = 1000
LATE_SECONDS = 30.0         # beyond the window: an expiring battle with no timeout by then fails the run
LINGER_SECONDS = 1.5        # how long the log is still followed after the last timeout, for a second one
POLL_SECONDS = 0.002
CREATE_THREADS = 8
FOLLOWED = ("engine.ClockStarted", "engine.TimedOut")
TARGETS = {"timeouts": "p99 <= 100 ms after deadline + grace", "commands": "ratio >= 0.95 (median of the pairs)"}


class BenchFailure(RuntimeError):
    """The service broke a rule the bench checks (a missing or repeated timeout)."""


@dataclass(frozen=True)
class Server:
    url: str
    session: int        # the session id of the server and every process it starts
    db: Path
    port: int


@contextmanager
def ringside_server(workdir: Path) -> Iterator[Server]:
    """`ringside serve` with one worker on a fresh SQLite file in `workdir`, as bench/commands.py runs it."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    db = workdir / f"clocks-{port}.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}
    cmd = [str(Path(sys.executable).parent / "ringside"), "serve", "--port", str(port), "--db", f"sqlite:///{db}",
           "--workers", "1"]
    with serving(cmd, workdir, env, url, "/rulesets") as session:
        yield Server(url, session, db, port)


def create_body(clock: object) -> bytes:
    """A deckduel create request; `clock` None: no clock."""
    body: dict[str, object] = {"ruleset": "deckduel", "players": PLAYERS}
    if clock is not None:
        body["clock"] = clock
    return orjson.dumps(body)


def create_lua(body: bytes) -> str:
    """bench/commands.py's create script with another body in place of its own."""
    old, new = f"'{CREATE_BODY}'", f"'{body.decode()}'"
    if old not in CREATE_LUA or "'" in new[1:-1]:
        raise RuntimeError("bench/commands.py's CREATE_LUA no longer carries CREATE_BODY in single quotes")
    return CREATE_LUA.replace(old, new)


def create(url: str, bodies: list[bytes]) -> list[str]:
    """POST /battles once per body, from a pool of clients, roughly in order; the battle ids,
    as the log writes them (hex)."""
    local = threading.local()
    clients: list[httpx.Client] = []

    def one(body: bytes) -> str:
        client = getattr(local, "client", None)
        if client is None:
            client = local.client = httpx.Client(base_url=url, timeout=60)
            clients.append(client)
        answer = client.post("/battles", content=body, headers={"Content-Type": "application/json"})
        if answer.status_code != 201:
            raise RuntimeError(f"POST /battles answered {answer.status_code}: {answer.text[:300]}")
        return uuid.UUID(answer.json()["battle_id"]).hex

    try:
        with ThreadPoolExecutor(CREATE_THREADS) as pool:
            return list(pool.map(one, bodies))
    finally:
        for client in clients:
            client.close()


class Follower:
    """Follows the commits of a SQLite store from this process: every `ClockStarted` (the
    expiry a battle started with) and every `TimedOut`, with the wall time this process saw it."""

    def __init__(self, db: Path):
        self._conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, check_same_thread=False)
        self._position = 0
        self._lock = threading.Lock()
        self.expiries: dict[str, int | None] = {}       # battle -> bank expiry (ms), None for other clocks
        self.timeouts: dict[str, list[tuple[float, int]]] = {}     # battle -> (seen ms, TimedOut.at_ms), each
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="follower", daemon=True)

    def __enter__(self) -> Follower:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        self._thread.join(timeout=10)
        self._conn.close()

    def _run(self) -> None:
        while not self._stopping.is_set():
            self.poll()
            time.sleep(POLL_SECONDS)

    def poll(self) -> None:
        """Read what was committed since the last poll (each poll a read transaction of its own)."""
        marks = ",".join("?" * len(FOLLOWED))
        rows = self._conn.execute(f"SELECT rowid, originator_id, topic, state FROM stored_events "
                                  f"WHERE rowid > ? AND topic IN ({marks}) ORDER BY rowid",
                                  (self._position, *FOLLOWED)).fetchall()
        seen_ms = time.time() * 1000
        if not rows:
            return
        with self._lock:
            for _, originator, topic, state in rows:
                battle, data = uuid.UUID(str(originator)).hex, orjson.loads(state)["data"]
                if topic == "engine.TimedOut":
                    self.timeouts.setdefault(battle, []).append((seen_ms, data["at_ms"]))
                else:
                    self.expiries[battle] = bank_expiry(data)
            self._position = rows[-1][0]

    def snapshot(self) -> tuple[dict[str, int | None], dict[str, list[tuple[float, int]]]]:
        with self._lock:
            return dict(self.expiries), {b: list(found) for b, found in self.timeouts.items()}


def bank_expiry(started: dict[str, object]) -> int | None:
    """When a battle started with a bank alone (no turn or first-move limit) may be timed out:
    its start plus its bank plus grace. None for any other clock (the idle ones)."""
    spec = started["spec"]
    assert isinstance(spec, dict)
    if spec["bank_ms"] is None or spec["turn_max_ms"] is not None or spec["first_move_ms"] is not None:
        return None
    at_ms = started["at_ms"]
    assert isinstance(at_ms, int)
    return at_ms + int(spec["bank_ms"]) + int(spec["grace_ms"])


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value that `share` of the values are at or below."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def timeouts(battles: int, expiring: int, window: float) -> dict[str, float]:
    """The timeouts measure (see the module's docstring)."""
    workdir = Path(tempfile.mkdtemp(prefix="ringside-bench-"))
    try:
        with ringside_server(workdir) as server:
            create(server.url, [create_body(IDLE_CLOCK)] * (battles - expiring))
            settle([server.session])        # the projections have caught up with the idle battles
            window_ms = window * 1000
            banks = [max(1, round(window_ms * k / expiring)) for k in range(expiring, 0, -1)]
            with Follower(server.db) as follower:
                started = time.time()
                due = set(create(server.url, [create_body({"bank_ms": bank, "increment_ms": 0, "grace_ms": GRACE_MS,
                                                           "first_move_ms": None}) for bank in banks]))
                created_s = time.time() - started
                give_up = started + window + LATE_SECONDS
                while time.time() < give_up and not due <= set(follower.snapshot()[1]):
                    time.sleep(0.05)
                time.sleep(LINGER_SECONDS)
            expiries, seen = follower.snapshot()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return lateness(due, expiries, seen, battles, window) | {"create_s": round(created_s, 2)}


def lateness(due: set[str], expiries: dict[str, int | None], seen: dict[str, list[tuple[float, int]]],
             battles: int, window: float) -> dict[str, float]:
    """The figures of the timeouts seen; BenchFailure if a battle has none, two, or one it was not due."""
    missing = sorted(due - set(seen))
    repeated = sorted(b for b, found in seen.items() if len(found) > 1)
    stray = sorted(set(seen) - due)
    unstarted = sorted(b for b in due if expiries.get(b) is None)
    problems = [f"{len(found)} {what}: {', '.join(found[:5])}" for found, what in (
        (missing, f"expiring battles with no timeout within {window + LATE_SECONDS:g} s"),
        (repeated, "battles with more than one timeout"), (stray, "idle battles timed out"),
        (unstarted, "expiring battles with no bank-only ClockStarted")) if found]
    if problems:
        raise BenchFailure("; ".join(problems))
    late = [seen[b][0][0] - expiry for b in due if (expiry := expiries[b]) is not None]
    decided = [float(seen[b][0][1] - expiry) for b in due if (expiry := expiries[b]) is not None]
    return {"battles": battles, "p50_ms": round(statistics.median(late), 2),
            "p99_ms": round(percentile(late, 0.99), 2), "expiring": len(due),
            "timed_out": sum(len(seen[b]) == 1 for b in due), "late_max_ms": round(max(late), 2),
            "decided_p50_ms": round(statistics.median(decided), 2),
            "decided_p99_ms": round(percentile(decided, 0.99), 2)}


def command_run(clock: str | None, seconds: int, connections: int, battles: int) -> dict[str, float]:
    """One server's command throughput over fresh battles (with `clock`, or none), as
    bench/commands.py's `measure` takes it: battles created by wrk (topped up to `battles`),
    the views caught up with them, then wrk's keep-the-hand commands."""
    workdir = Path(tempfile.mkdtemp(prefix="ringside-bench-"))
    try:
        with ringside_server(workdir) as server:
            prefix, script = workdir / f"created-{server.port}", create_lua(create_body(clock))
            for part in range(7):
                if part and len(created_pairs(prefix)) >= 2 * battles:
                    break
                wrk(server.url, script, [f"{prefix}.{part}"], seconds, connections)
            pairs = created_pairs(prefix)
            wait_until(lambda: pairs[-1][0] in {b["battle_id"] for b in
                                                httpx.get(server.url + "/battles?limit=500").json()["battles"]},
                       timeout=300, what="the views to catch up")
            listing = workdir / f"pairs-{server.port}.txt"
            listing.write_text("".join(f"{i} {b} {t}\n" for i, (b, t) in enumerate(pairs)))
            return wrk_cpu([server.session], server.url, COMMANDS_LUA, [str(listing)], seconds, connections)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def commands(pairs: int, seconds: int, connections: int, battles: int) -> dict[str, object]:
    """Alternating pairs of runs (the order flips each pair, so a drift of the machine favours neither)."""
    runs: list[dict[str, dict[str, float]]] = []
    for pair in range(pairs):
        order = [COMMAND_CLOCK, None] if pair % 2 else [None, COMMAND_CLOCK]
        found = {str(clock): command_run(clock, seconds, connections, battles) for clock in order}
        runs.append({"with": found[COMMAND_CLOCK], "without": found["None"]})
    ratios = [run["with"]["rps"] / run["without"]["rps"] for run in runs]
    cpu_ratios = [run["without"]["cpu_ms"] / run["with"]["cpu_ms"] for run in runs]

    def median(kind: str, key: str) -> float:
        return round(statistics.median(run[kind][key] for run in runs), 3 if key == "cpu_ms" else 2)

    return {"with_clocks_rps": median("with", "rps"), "without_clocks_rps": median("without", "rps"),
            "ratio": round(statistics.median(ratios), 3), "pairs": pairs,
            "with_clocks_p99_ms": median("with", "p99_ms"), "without_clocks_p99_ms": median("without", "p99_ms"),
            "with_clocks_cpu_ms": median("with", "cpu_ms"), "without_clocks_cpu_ms": median("without", "cpu_ms"),
            "with_clocks_non_2xx": median("with", "non_2xx"), "without_clocks_non_2xx": median("without", "non_2xx"),
            "ratios": [round(r, 3) for r in ratios], "cpu_ratio": round(statistics.median(cpu_ratios), 3)}


def report(result: dict[str, dict[str, object]], args: argparse.Namespace) -> None:
    """The figures for a reader, with the targets."""
    print("one `ringside serve` worker on a fresh SQLite file per server; 2 cores shared")
    found = result.get("timeouts")
    if found is not None:
        print(f"timeouts: {found['battles']:,} clocked battles held, {found['expiring']:,} expiring over "
              f"{args.window:g} s (created in {found['create_s']} s); {found['timed_out']:,} timed out once each")
        print(f"  lateness after deadline + grace, seen committed by this process: p50 {found['p50_ms']:.1f} ms, "
              f"p99 {found['p99_ms']:.1f} ms, max {found['late_max_ms']:.1f} ms "
              f"(the server's decision: p50 {found['decided_p50_ms']} ms, p99 {found['decided_p99_ms']} ms)")
        print(f"  target: {TARGETS['timeouts']}")
    found = result.get("commands")
    if found is not None:
        print(f"commands: wrk -t2 -c{args.connections} -d{args.seconds}s, {found['pairs']} alternating pairs of runs")
        for kind, label in (("with", f"with clocks ({COMMAND_CLOCK})"), ("without", "without clocks")):
            print(f"  {label:<22}{found[kind + '_clocks_rps']:>8,.0f} req/s, p99 {found[kind + '_clocks_p99_ms']} ms, "
                  f"{found[kind + '_clocks_cpu_ms']} CPU ms a command, non-2xx {found[kind + '_clocks_non_2xx']:.0f}")
        ratios = found["ratios"]
        assert isinstance(ratios, list)
        print(f"  ratio {found['ratio']:.3f} (median of the pairs: {', '.join(map(str, ratios))}); "
              f"CPU per command, without over with: {found['cpu_ratio']}")
        print(f"  target: {TARGETS['commands']}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=10_000, help="clocked battles held (timeouts)")
    parser.add_argument("--expiring", type=int, default=1_000, help="of them, the ones whose time runs out")
    parser.add_argument("--window", type=float, default=60.0, help="seconds over which the expiring run out")
    parser.add_argument("--pairs", type=int, default=5, help="pairs of command runs, with and without clocks")
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--command-battles", type=int,
                        help="fresh battles for each command run (default: 1,500 a second of --seconds)")
    parser.add_argument("--only", choices=["timeouts", "commands"], help="one of the two measures")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not 1 <= args.expiring <= args.battles:
        parser.error("--expiring must be from 1 to --battles")
    if args.window <= 0 or args.pairs < 1 or args.seconds < 1 or args.connections < 2:
        parser.error("--window must be above 0, --pairs and --seconds at least 1, --connections at least 2")
    if shutil.which("wrk") is None and args.only != "timeouts":
        sys.exit("error: this benchmark needs wrk (scripts/wrk installs it)")
    battles = 1500 * args.seconds if args.command_battles is None else args.command_battles
    result: dict[str, dict[str, object]] = {}
    try:
        if args.only != "commands":
            result["timeouts"] = dict(timeouts(args.battles, args.expiring, args.window))
        if args.only != "timeouts":
            result["commands"] = commands(args.pairs, args.seconds, args.connections, battles)
    except BenchFailure as failure:
        sys.exit(f"error: {failure}")
    if args.json:
        print(orjson.dumps(result).decode())
    else:
        report(result, args)


if __name__ == "__main__":
    main()
