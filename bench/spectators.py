"""WebSocket spectators of one battle: delay from commit to delivery.

    python bench/spectators.py [--json] [--only one_worker|two_workers] [--runs 3] [--commands 60]
                               [--no-compression] [--profile DIR] [--spectators N]

- one_worker: 1,000 spectators on `ringside serve`, one worker, a SQLite file (and the
  projection process it starts).
- two_workers: 5,000 spectators across two `ringside serve` processes (one worker each) sharing
  a SQLite file and Redis (127.0.0.1:6379, a fresh prefix), with one `ringside projections
  run` beside them (`RINGSIDE_PROJECTIONS=external`, the README's production setup). Half the spectators are on each;
  commands go to the first, so the second hears of every batch only through Redis. Two ports
  rather than `--workers 2` on one shared port, so that the bench, not the kernel, decides
  which worker each spectator lands on.

Spectators run in client processes of their own (uvloop, a minimal WebSocket client, fd
limits raised), apart from the servers. They offer permessage-deflate as browsers do, unless
--no-compression (`ringside serve` declines it: see api/cli_serve.py). Commands are
sent one at a time, 0.25 s apart (latency, not a backlog). A batch's commit time is taken when
its command's HTTP answer arrives; clients stamp each frame on arrival (CLOCK_MONOTONIC, one
clock for every process) and read it after the run. A delivery is one event reaching one
spectator. Every spectator must get every seq once, in order: a run with a gap or a repeat
fails. Each part runs --runs times on fresh servers and reports the medians of the runs' p50
and p99, beside a baseline from the same runs: the command's round trip; and the servers' CPU
time per command. With --profile DIR, py-spy records each server during the commands (raw
folded stacks).
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.cpu import process_cpu  # noqa: E402
from tests.api.server import forget_prefix, free_port, stop, wait_until  # noqa: E402

REDIS = "redis://127.0.0.1:6379/0"


@dataclass(frozen=True)
class Part:
    spectators: int
    servers: int
    clients: int            # client processes the spectators are spread over
    target: str


PARTS = {"one_worker": Part(spectators=1000, servers=1, clients=2, target="p99 <= 50 ms"),
         "two_workers": Part(spectators=5000, servers=2, clients=4, target="p99 <= 150 ms")}
CONNECTING = 100            # handshakes in flight per client process
GAP_SECONDS = 0.25          # between commands


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# -- a client process: `spectators.py client COUNT [--no-compression] URL...` ------------------
class Spectator(asyncio.Protocol):
    """A minimal WebSocket client: the handshake (offering permessage-deflate as browsers do,
    unless told not to), then frames read as they come and stamped on arrival. Lean on purpose:
    thousands share two cores with the servers, and their cost must not be what is measured."""

    def __init__(self, target: str, compress: bool, frames: list[tuple[float, bytes]],
                 opened: asyncio.Future[None]):
        self.target, self.compress, self.frames, self.opened = target, compress, frames, opened
        self.buffer = bytearray()
        self.upgraded = False
        self.inflater: Any = None
        self.parts: list[bytes] = []
        self.compressed = False

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        host, _, path = self.target.partition("/")
        key = base64.b64encode(os.urandom(16)).decode()
        offer = "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n" if self.compress else ""
        transport.write((f"GET /{path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{offer}\r\n").encode())

    def data_received(self, data: bytes) -> None:
        arrived = time.monotonic()
        self.buffer += data
        if not self.upgraded:
            head, found, _ = bytes(self.buffer).partition(b"\r\n\r\n")
            if not found:
                return
            if not head.startswith(b"HTTP/1.1 101"):
                self.opened.set_exception(RuntimeError(head.decode(errors="replace")))
                return
            del self.buffer[:len(head) + 4]
            self.upgraded = True
            if b"permessage-deflate" in head.lower():
                self.inflater = zlib.decompressobj(-15)
            self.opened.set_result(None)
        while (frame := self.next_frame()) is not None:
            self.handle(arrived, *frame)

    def next_frame(self) -> tuple[int, bool, bool, bytes] | None:
        """(opcode, fin, rsv1, payload) of the next whole frame in the buffer (the server's
        frames are not masked), or None."""
        buf = self.buffer
        if len(buf) < 2:
            return None
        length, start = buf[1] & 0x7F, 2
        if length >= 126:
            start = 4 if length == 126 else 10
            if len(buf) < start:
                return None
            length = int.from_bytes(buf[2:start], "big")
        if len(buf) < start + length:
            return None
        payload = bytes(buf[start:start + length])
        head = buf[0]
        del buf[:start + length]
        return head & 0x0F, bool(head & 0x80), bool(head & 0x40), payload

    def handle(self, arrived: float, opcode: int, fin: bool, rsv1: bool, payload: bytes) -> None:
        if opcode == 0x9:                       # ping: answer, as every client must
            self.reply(0xA, payload)
        elif opcode == 0x8:
            self.reply(0x8, payload[:2])
            self.transport.close()
        elif opcode in (0x0, 0x1, 0x2):
            self.compressed = rsv1 if opcode else self.compressed
            self.parts.append(payload)
            if fin:
                message = b"".join(self.parts)
                self.parts = []
                if self.compressed:
                    message = self.inflater.decompress(message + b"\x00\x00\xff\xff")
                self.frames.append((arrived, message))      # read once the run is over

    def reply(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)


async def spectate(target: str, compress: bool, frames: list[tuple[float, bytes]],
                   gate: asyncio.Semaphore) -> None:
    loop = asyncio.get_running_loop()
    async with gate:
        opened = loop.create_future()
        host, _, _ = target.partition("/")
        address, port = host.split(":")
        await loop.create_connection(lambda: Spectator(target, compress, frames, opened), address, int(port))
        await asyncio.wait_for(opened, 120)


async def client(count: int, urls: list[str], compress: bool) -> None:
    """Open `count` spectators round-robin over `urls`, say `ready`, then record frames until the
    commit times arrive on stdin; answer with the delays and how many spectators got every seq."""
    gate = asyncio.Semaphore(CONNECTING)
    received: list[list[tuple[float, bytes]]] = [[] for _ in range(count)]
    targets = [url.removeprefix("ws://") for url in urls]
    await asyncio.gather(*(spectate(targets[i % len(targets)], compress, received[i], gate) for i in range(count)))
    print("ready", flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    committed = {int(seq): at for seq, at in orjson.loads(line).items()}
    expected = sorted(committed)
    deadline = time.monotonic() + 60         # stragglers still count, late as they are
    while time.monotonic() < deadline and any(not f or orjson.loads(f[-1][1])[-1]["seq"] < expected[-1]
                                              for f in received):
        await asyncio.sleep(0.1)
    delays, complete = [], 0
    for received_frames in received:
        frames = [(arrived, [event["seq"] for event in orjson.loads(message)])
                  for arrived, message in received_frames]
        seqs = [seq for _, batch in frames for seq in batch]
        complete += seqs == expected
        delays += [(arrived - committed[seq]) * 1000 for arrived, batch in frames for seq in batch if seq in committed]
    sys.stdout.buffer.write(orjson.dumps({"delays": delays, "complete": complete}) + b"\n")
    sys.stdout.flush()
    os._exit(0)     # thousands of sockets: let the kernel close them


# -- the orchestrator ------------------------------------------------------------------------
@contextmanager
def servers(count: int, workdir: Path) -> Iterator[list[tuple[str, subprocess.Popen]]]:
    """`count` ringside serve processes on one SQLite file; with two, sharing Redis too."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}
    redis_args = ["--redis", REDIS] if count > 1 else []
    env["RINGSIDE_REDIS_PREFIX"] = f"bench{uuid.uuid4().hex[:8]}"
    started: list[tuple[str, subprocess.Popen]] = []
    runner = None
    ringside = str(Path(sys.executable).parent / "ringside")
    db = f"sqlite:///{workdir / 'bench.db'}"
    if count > 1:           # the README's production setup: one projection runner beside the workers
        env["RINGSIDE_PROJECTIONS"] = "external"
    try:
        for _ in range(count):      # one after the other: the first creates the store's tables
            port = free_port()
            proc = subprocess.Popen([ringside, "serve", "--port", str(port), "--db", db, *redis_args],
                                    cwd=workdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    start_new_session=True, preexec_fn=raise_fd_limit)
            url = f"http://127.0.0.1:{port}"
            started.append((url, proc))
            wait_until(lambda: answering(proc, url), timeout=60, what=f"the server on {url}")
        if count > 1:
            runner = subprocess.Popen([ringside, "projections", "run", "--db", db, *redis_args], cwd=workdir, env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        yield started
    finally:
        for proc in [p for _, p in started] + ([runner] if runner else []):
            stop(proc)
        if count > 1:
            forget_prefix(REDIS, env["RINGSIDE_REDIS_PREFIX"])


def answering(proc: subprocess.Popen, url: str) -> bool:
    if proc.poll() is not None:         # say so at once, rather than after the timeout
        raise RuntimeError(f"ringside serve exited ({proc.returncode}) before {url} answered")
    return httpx.get(url + "/rulesets", timeout=1).status_code == 200


def start_clients(count: int, processes: int, urls: list[str], compress: bool) -> list[subprocess.Popen]:
    shares = [count // processes + (i < count % processes) for i in range(processes)]
    flags = [] if compress else ["--no-compression"]
    clients = [subprocess.Popen([sys.executable, __file__, "client", str(share), *flags, *urls], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, preexec_fn=raise_fd_limit) for share in shares]
    for proc in clients:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != b"ready":
            raise RuntimeError("a spectator client failed to connect")
    return clients


@contextmanager
def profiling(profile: Path | None, name: str, procs: list[subprocess.Popen]) -> Iterator[None]:
    """py-spy recording each server while the block runs."""
    spies = []
    if profile is not None:
        profile.mkdir(parents=True, exist_ok=True)
        spy = str(Path(sys.executable).parent / "py-spy")
        spies = [subprocess.Popen([spy, "record", "-f", "raw", "-o", str(profile / f"{name}-server{i}.txt"),
                                   "--pid", str(proc.pid), "--nonblocking"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for i, proc in enumerate(procs)]
        time.sleep(1.0)     # py-spy attaches
    try:
        yield
    finally:
        for spy_proc in spies:
            spy_proc.send_signal(signal.SIGINT)
            spy_proc.wait(timeout=60)


def commands(http: httpx.Client, battle: dict, limit: int) -> tuple[dict[int, float], list[float]]:
    """Random legal commands, one at a time; each event's commit time and each round trip."""
    bid, rng = battle["battle_id"], random.Random(1)
    committed: dict[int, float] = {}
    round_trips: list[float] = []
    for _ in range(limit):
        for token in battle["seat_tokens"].values():
            headers = {"Authorization": f"Bearer {token}"}
            legal = http.get(f"/battles/{bid}/legal", headers=headers).json()
            if legal["ended"] or not legal["legal"]:
                continue
            sent = time.monotonic()
            answer = http.post(f"/battles/{bid}/commands", headers=headers,
                               json={"command": rng.choice(legal["legal"])}).json()
            done = time.monotonic()
            round_trips.append((done - sent) * 1000)
            committed.update((event["seq"], done) for event in answer["events"])
            time.sleep(GAP_SECONDS)
            break
        else:
            break           # the battle has ended
    return committed, round_trips


def sized(part: str, spectators: int | None) -> Part:
    """The part as declared, or with `spectators` over at most as many client processes."""
    spec = PARTS[part]
    if spectators is None:
        return spec
    return replace(spec, spectators=spectators, clients=min(spec.clients, spectators))


def one_run(part: str, args: argparse.Namespace, run: int) -> dict[str, float]:
    spec = sized(part, args.spectators)
    workdir = Path(tempfile.mkdtemp(prefix="ringside-bench-"))
    with servers(spec.servers, workdir) as started, httpx.Client(base_url=started[0][0], timeout=30) as http:
        battle = http.post("/battles", json={"ruleset": "deckduel", "players": {"p1": "a", "p2": "b"}}).json()
        head = http.get(f"/battles/{battle['battle_id']}").json()["seq"]
        urls = [url.replace("http", "ws") + f"/battles/{battle['battle_id']}/stream?from={head + 1}"
                for url, _ in started]
        clients = start_clients(spec.spectators, spec.clients, urls, not args.no_compression)
        time.sleep(1.0)
        server_procs = [proc for _, proc in started]
        with profiling(args.profile, f"{part}-run{run}", server_procs):
            cpu_before = cpu_seconds(server_procs)
            committed, round_trips = commands(http, battle, args.commands)
            time.sleep(2.0)
            cpu = cpu_seconds(server_procs) - cpu_before
        delays, complete = collect(clients, committed)
    shutil.rmtree(workdir, ignore_errors=True)
    if complete != spec.spectators:
        raise RuntimeError(f"{part}: only {complete} of {spec.spectators} spectators got every seq once")
    return {"p50_ms": statistics.median(delays), "p99_ms": percentile(delays, 99), "deliveries": len(delays),
            "commands": len(round_trips), "round_trip_p50_ms": statistics.median(round_trips),
            "round_trip_p99_ms": percentile(round_trips, 99),
            "server_cpu_ms_per_command": cpu * 1000 / len(round_trips)}


def collect(clients: list[subprocess.Popen], committed: dict[int, float]) -> tuple[list[float], int]:
    """Every delivery's delay, and how many spectators got every seq once, from the clients."""
    delays, complete = [], 0
    for proc in clients:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(orjson.dumps({str(seq): at for seq, at in committed.items()}) + b"\n")
        proc.stdin.flush()
        found = orjson.loads(proc.stdout.readline())
        delays += found["delays"]
        complete += found["complete"]
        proc.wait()
    return delays, complete


def cpu_seconds(procs: list[subprocess.Popen]) -> float:
    """The CPU time the servers themselves have used (bench/cpu.py)."""
    return sum(found[1] for found in map(process_cpu, (proc.pid for proc in procs)) if found is not None)


def measure(part: str, args: argparse.Namespace) -> dict[str, object]:
    found = [one_run(part, args, run) for run in range(args.runs)]
    median = {key: round(statistics.median(run[key] for run in found), 1) for key in found[0]}
    return {"spectators": sized(part, args.spectators).spectators,
            "p50_ms": median["p50_ms"], "p99_ms": median["p99_ms"],
            "round_trip_p50_ms": median["round_trip_p50_ms"], "round_trip_p99_ms": median["round_trip_p99_ms"],
            "server_cpu_ms_per_command": median["server_cpu_ms_per_command"],
            "runs": [[round(run["p50_ms"], 1), round(run["p99_ms"], 1)] for run in found],
            "deliveries": int(median["deliveries"]), "commands": int(median["commands"])}


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["client"]:
        raise_fd_limit()
        urls = [arg for arg in argv[2:] if arg != "--no-compression"]
        uvloop.run(client(int(argv[1]), urls, "--no-compression" not in argv))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", choices=list(PARTS))
    parser.add_argument("--runs", type=int, default=3, help="runs per part; figures are medians")
    parser.add_argument("--commands", type=int, default=60, help="at most this many (the battle may end first)")
    parser.add_argument("--profile", type=Path, help="record each server with py-spy into this folder")
    parser.add_argument("--no-compression", action="store_true",
                        help="spectators do not offer permessage-deflate (browsers do)")
    parser.add_argument("--spectators", type=int,
                        help="spectators in each part (default: 1,000 one worker, 5,000 two workers)")
    args = parser.parse_args(argv)
    raise_fd_limit()
    result = {part: measure(part, args)
              for part in ([args.only] if args.only else PARTS)}
    if args.json:
        print(orjson.dumps(result).decode())
        return
    for part, row in result.items():
        print(f"{part}: {row['spectators']} spectators, {row['commands']} commands, {row['deliveries']} deliveries "
              f"a run; median of {args.runs} runs; 2 cores shared")
        print(f"  commit -> delivery: p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms (target {PARTS[part].target})")
        print(f"  baseline, command round trip: p50 {row['round_trip_p50_ms']} ms, p99 {row['round_trip_p99_ms']} ms")
        print(f"  server CPU: {row['server_cpu_ms_per_command']} ms a command (its batch to every spectator)")


if __name__ == "__main__":
    main()
