"""`ringside bot`: play one seat of a battle through the HTTP API only.

The bot reads what its seat may know (its view, its legal commands, and its AI memory when
the policy uses one), acts when the battle awaits its seat, and otherwise waits on the
battle's event stream instead of polling.

In a clocked battle it reads its seat's time left from the view's `clock` (a running clock
ticks down from the view's `at_ms`; the bot's wall clock is taken to agree with the server's).
A searching policy reads its seat's knowledge (`GET /battles/{id}/knowledge`) and searches
here, with the rules of the battle's own version; its iteration budget shrinks with its time
left. Every other policy chooses at once, so a move costs its round trips. Each request of a
move may take at most half the seat's time left. It waits for the other
seats for `--wait` seconds, or for as long as their running clocks (and grace) have left, as
the server ends their turn by then; a move refused with `time_out` waits for the server's
timeout instead of trying again.
"""
from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

import httpx
import msgspec
import typer

from domain.ai import get_policy, policy_names
from domain.ai.match import seeded_bytes
from domain.ai.memory import Memory
from domain.engine.bots import Bot, Seen
from domain.engine.errors import RingsideError
from domain.engine.rng import Rng
from domain.engine.ruleset import pinned_ruleset
from domain.engine.table import MAX_ITERATIONS
from domain.writer import wall_ms

from .cli_errors import fail


# Every registered policy, for the help of --policy and --bots.
POLICY_NAMES = ", ".join(policy_names())
MOVE_SHARE = 0.5                # of the seat's time left, the most one request of a move may take
MIN_REQUEST_SECONDS = 0.5
WAIT_MARGIN_SECONDS = 5.0       # past the others' time and grace: the server's timeout is on its way


class BotError(Exception):
    pass


def _timeout(seconds: float | None) -> Any:
    """A request's own timeout, or (None) the client's."""
    return httpx.USE_CLIENT_DEFAULT if seconds is None else seconds


class SeatClient:
    def __init__(self, url: str, battle_id: str, token: str, timeout: float):
        self.battle_id = battle_id
        self.http = httpx.Client(base_url=url.rstrip("/"), timeout=timeout,
                                 headers={"Authorization": f"Bearer {token}"})

    def get(self, path: str, timeout: float | None = None) -> Any:
        return self._check(self.http.get(f"/battles/{self.battle_id}{path}", timeout=_timeout(timeout)))

    def act(self, command: dict[str, Any], expected_seq: int, timeout: float | None = None) -> httpx.Response:
        return self.http.post(f"/battles/{self.battle_id}/commands", json={"command": command, "expected_seq": expected_seq},
                              headers={"Idempotency-Key": uuid.uuid4().hex}, timeout=_timeout(timeout))

    def wait_after(self, seq: int, timeout: float) -> None:
        """Block until the stream shows an event after `seq` (or the battle's end)."""
        with self.http.stream("GET", f"/battles/{self.battle_id}/stream.sse", params={"from": seq + 1},
                              timeout=httpx.Timeout(timeout, read=timeout)) as response:
            self._check(response, streamed=True)
            for line in response.iter_lines():
                if line.startswith("data:") or line.startswith("event: end"):
                    return

    @staticmethod
    def _check(response: httpx.Response, streamed: bool = False) -> Any:
        if response.status_code >= 400:
            if streamed:
                response.read()
            try:
                message = response.json()["error"]["message"]
            except Exception:
                message = response.text[:200]
            raise BotError(f"HTTP {response.status_code}: {message}")
        return None if streamed else response.json()


def time_left_ms(clock: Mapping[str, Any] | None, seat: str, now_ms: int) -> int | None:
    """The seat's time left at `now_ms`, from a view's `clock` (None: no clock, or no such seat)."""
    if not clock or seat not in clock["seats"]:
        return None
    found = clock["seats"][seat]
    elapsed = max(0, now_ms - clock["at_ms"]) if found["running"] else 0
    return max(0, found["remaining_ms"] - elapsed)


def move_timeout(clock: Mapping[str, Any] | None, seat: str, now_ms: int, wait: float) -> float:
    """The most one request of the seat's move may take: `wait`, or half its time left."""
    left = time_left_ms(clock, seat, now_ms)
    if left is None:
        return wait
    return max(MIN_REQUEST_SECONDS, min(wait, MOVE_SHARE * left / 1000))


def others_wait(clock: Mapping[str, Any] | None, seat: str, now_ms: int, wait: float, grace_ms: int) -> float:
    """How long to wait for the other seats: `wait`, or longer while a running clock of theirs
    (and its grace, the control's `grace_ms`) has time left, since the server records their
    timeout by then."""
    if not clock:
        return wait
    running = [time_left_ms(clock, other, now_ms) or 0 for other, found in clock["seats"].items()
               if other != seat and found["running"]]
    if not running:
        return wait
    return max(wait, (max(running) + grace_ms) / 1000 + WAIT_MARGIN_SECONDS)


def refused_for_time(response: httpx.Response) -> bool:
    try:
        return bool(response.json()["error"]["code"] == "time_out")
    except Exception:
        return False


def searched(client: SeatClient, policy: Bot, legal: list[dict[str, Any]], rng: Rng,
             timeout: float) -> dict[str, Any]:
    """A searching bot's move: from the seat's knowledge (`GET /battles/{id}/knowledge`) and the
    rules of the battle's own version, searched here."""
    raw = client.get("/knowledge", timeout)
    ruleset = pinned_ruleset(raw["ruleset"], raw["version"], raw["content_hash"])
    if ruleset is None:
        raise BotError(f"this client does not play {raw['ruleset']} {raw['version']}, the battle's version")
    seen = Seen(ruleset, raw["seat"], msgspec.convert(raw["knowledge"], type=ruleset.state_type), raw["sides"],
                raw["time_left_ms"])
    commands = [ruleset.codec.parse(wire) for wire in legal]
    return ruleset.codec.wire(policy.choose(seen, commands, rng))


def chosen(client: SeatClient, policy: Bot, view: dict[str, Any], legal: list[dict[str, Any]], rng: Rng,
           timeout: float) -> dict[str, Any]:
    """The policy's move, from what it reads: its knowledge, or its view (and memory)."""
    if policy.searches:
        return searched(client, policy, legal, rng, timeout)
    memory = Memory.from_json({"actions_at_turn": 0, **client.get("/memory", timeout)}) \
        if policy.needs_memory else None
    choice: dict[str, Any] = policy.choose(view["state"] if policy.needs_view else None, legal, rng, memory)
    return choice


def play_seat(client: SeatClient, policy_name: str, seed: str, wait_seconds: float,
              iterations: int | None = None) -> dict[str, Any]:
    view = client.get("")
    policy = get_policy(policy_name, view["ruleset"], iterations)
    rng = Rng(seeded_bytes(seed, "bot", client.battle_id))
    clocked = "clock" in view
    while True:
        legal = client.get("/legal")
        if legal["ended"]:
            return client.get("")
        view = client.get("") if policy.needs_view or clocked else {}
        clock, seat = view.get("clock"), legal["seat"]
        if not legal["legal"]:
            grace_ms = (view.get("clock_spec") or {}).get("grace_ms", 0)
            client.wait_after(legal["seq"], others_wait(clock, seat, wall_ms(), wait_seconds, grace_ms))
            continue
        budget = move_timeout(clock, seat, wall_ms(), wait_seconds)
        try:
            response = client.act(chosen(client, policy, view, legal["legal"], rng, budget), legal["seq"], budget)
        except httpx.ReadTimeout:
            continue            # past its share of the seat's time: look again (expected_seq refuses a repeat)
        if response.status_code == 409:
            if refused_for_time(response):      # the server records the timeout: wait for it
                client.wait_after(legal["seq"], wait_seconds)
            continue            # the battle moved on (the other seat acted): look again
        SeatClient._check(response)


def bot(url: str = typer.Option(..., help="Base URL of the Ringside service."),
        battle: str = typer.Option(..., "--battle", help="Battle id."),
        token: str = typer.Option(..., help="This seat's token."),
        policy: str = typer.Option("random", help=f"Bot policy: {POLICY_NAMES}."),
        seed: str = typer.Option("0", help="Seed of the bot's own choices."),
        iterations: int = typer.Option(None, min=1, max=MAX_ITERATIONS,
                                       help="A searching bot's iterations per move (its difficulty)."),
        wait: float = typer.Option(60.0, help="Seconds to wait for the other side before giving up (in a clocked "
                                               "battle, longer while the other side's clock runs).")) -> None:
    """Play one seat of a battle over HTTP until it ends."""
    client = SeatClient(url, battle, token, timeout=wait)
    try:
        final = play_seat(client, policy, seed, wait, iterations)
    except (BotError, RingsideError) as exc:
        fail(str(exc))
    except httpx.HTTPError as exc:
        fail(f"cannot reach {url}: {exc}")
    outcome = final["outcome"] or {}
    typer.echo(f"battle {battle} ended: winner {outcome.get('winner') or 'none (draw)'} ({outcome.get('reason')})")
