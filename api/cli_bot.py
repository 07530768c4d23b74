"""`ringside bot`: play one seat of a battle through the HTTP API only.

The bot reads what its seat may know (its view, its legal commands, and its AI memory when
the policy uses one), acts when the battle awaits its seat, and otherwise waits on the
battle's event stream instead of polling.
"""
from __future__ import annotations

import uuid
from typing import Any

import httpx
import typer

from domain.ai import get_policy, policy_names
from domain.ai.match import seeded_bytes
from domain.ai.memory import Memory
from domain.engine.rng import Rng

from .cli_errors import fail


# Every registered policy, for the help of --policy and --bots.
POLICY_NAMES = ", ".join(policy_names())


class BotError(Exception):
    pass


class SeatClient:
    def __init__(self, url: str, battle_id: str, token: str, timeout: float):
        self.battle_id = battle_id
        self.http = httpx.Client(base_url=url.rstrip("/"), timeout=timeout,
                                 headers={"Authorization": f"Bearer {token}"})

    def get(self, path: str) -> Any:
        return self._check(self.http.get(f"/battles/{self.battle_id}{path}"))

    def act(self, command: dict[str, Any], expected_seq: int) -> httpx.Response:
        return self.http.post(f"/battles/{self.battle_id}/commands", json={"command": command, "expected_seq": expected_seq},
                              headers={"Idempotency-Key": uuid.uuid4().hex})

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


def play_seat(client: SeatClient, policy_name: str, seed: str, wait_seconds: float) -> dict[str, Any]:
    view = client.get("")
    policy = get_policy(policy_name, view["ruleset"])
    rng = Rng(seeded_bytes(seed, "bot", client.battle_id))
    while True:
        legal = client.get("/legal")
        if legal["ended"]:
            return client.get("")
        if not legal["legal"]:
            client.wait_after(legal["seq"], wait_seconds)
            continue
        view = client.get("")["state"] if policy.needs_view else None
        memory = Memory.from_json({"actions_at_turn": 0, **client.get("/memory")}) if policy.needs_memory else None
        choice = policy.choose(view, legal["legal"], rng, memory)
        response = client.act(choice, legal["seq"])
        if response.status_code == 409:
            continue            # the battle moved on (the other seat acted): look again
        SeatClient._check(response)


def bot(url: str = typer.Option(..., help="Base URL of the Ringside service."),
        battle: str = typer.Option(..., "--battle", help="Battle id."),
        token: str = typer.Option(..., help="This seat's token."),
        policy: str = typer.Option("random", help=f"Bot policy: {POLICY_NAMES}."),
        seed: str = typer.Option("0", help="Seed of the bot's own choices."),
        wait: float = typer.Option(60.0, help="Seconds to wait for the other side before giving up.")) -> None:
    """Play one seat of a battle over HTTP until it ends."""
    client = SeatClient(url, battle, token, timeout=wait)
    try:
        final = play_seat(client, policy, seed, wait)
    except BotError as exc:
        fail(str(exc))
    except httpx.HTTPError as exc:
        fail(f"cannot reach {url}: {exc}")
    outcome = final["outcome"] or {}
    typer.echo(f"battle {battle} ended: winner {outcome.get('winner') or 'none (draw)'} ({outcome.get('reason')})")
