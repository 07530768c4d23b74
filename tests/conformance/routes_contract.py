"""The leak contract over every route: two services hold the same set (same ids, seeds, tokens
and times) whose setups differ only in what one seat hides. Played with the same commands,
every route of its running battle, and the set's page and audit, give every other viewer the
same bytes, from the first event on; and no route carries any of the running battle's chain
hashes to anyone."""
from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from types import SimpleNamespace
from typing import Any

import orjson

from api.app import create_app
from api.services import Settings
from domain.engine.battle import seat_table
from domain.engine.events import Viewer
from domain.engine.ruleset import Ruleset

BATTLE_ID = "00000000-0000-4000-8000-00000000c0de"
SET_ID = "00000000-0000-4000-8000-00000000c5e7"
CREATED_AT = "2026-01-01T00:00:00.000Z"
STEPS = 12


@contextmanager
def service(url: str) -> Iterator[Any]:
    from fastapi.testclient import TestClient
    with TestClient(create_app(Settings(database_url=url))) as client:
        yield client


def auth(tokens: dict[str, str], seat: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {tokens[seat]}"} if seat else {}


def routes(client: Any, tokens: dict[str, str], seat: str | None) -> dict[str, bytes]:
    """What every read route of a battle, and the stream's catch-up, answer `seat` (None: a
    spectator)."""
    base, headers = f"/battles/{BATTLE_ID}", auth(tokens, seat)
    seq = client.get(base, headers=headers).json()["seq"]
    views = client.app.state.services.projections
    views.wait(views.head())        # the read models (list, memory, history) have every event
    paths = [base, f"{base}/events", f"{base}/at/{seq}", f"{base}/replay", f"/viewer/api/battles/{BATTLE_ID}/timeline",
             f"/sets/{SET_ID}", f"/sets/{SET_ID}/audit", "/battles?status=live", f"/players/player-{seat or next(iter(tokens))}",
             *((f"{base}/legal", f"{base}/memory") if seat else ())]
    found = {}
    for path in paths:
        response = client.get(path, headers=headers)
        assert response.status_code == 200, (path, response.text)
        found[path] = response.content
    query = f"?from=1&token={tokens[seat]}" if seat else "?from=1"
    with client.websocket_connect(f"{base}/stream{query}") as ws:
        found["stream"] = ws.receive_bytes()
    return found


def same_randomness(monkeypatch: Any, tokens: dict[str, str]) -> None:
    """Both services draw the same ids, seeds, tokens (in seat order) and times for the set and
    its battles."""
    import domain.sets.service as service_module
    in_order = itertools.cycle(tokens.values())
    monkeypatch.setattr(service_module, "secrets", SimpleNamespace(token_bytes=lambda n: b"routes".ljust(n, b"."),
                                                                   token_urlsafe=lambda n: next(in_order)))
    monkeypatch.setattr(service_module, "new_battle_id", lambda: BATTLE_ID)
    monkeypatch.setattr(service_module, "utc_now", lambda: CREATED_AT)


class RoutesContract:
    """Mixed into `RulesetContract`, whose `hidden_setup_variants()` names the setups."""
    ruleset_id: str
    ruleset: Ruleset[Any]

    def test_every_route_gives_other_viewers_the_same_bytes_whatever_one_seat_hides(self, tmp_path, monkeypatch):
        # A ruleset whose setups hide nothing is played once, for the chain check alone.
        variants = self.hidden_setup_variants()  # type: ignore[attr-defined]
        cases = variants[:1] if variants else [(self.ruleset.fresh_setup(), None, None)]
        for n, (a, b, owner) in enumerate(cases):
            seats = seat_table(self.ruleset, a).seats
            tokens = {seat: f"token-{seat}-{'x' * 40}" for seat in seats}
            same_randomness(monkeypatch, tokens)
            setups = [a] if b is None else [a, b]
            with ExitStack() as stack:
                clients = [stack.enter_context(service(f"sqlite:///{tmp_path / f'{n}{i}.db'}")) for i in range(len(setups))]
                for client, setup in zip(clients, setups):
                    client.app.state.services.sets.create(self.ruleset_id, {seat: f"player-{seat}" for seat in seats},
                                                          setup, games=3, set_id=SET_ID)
                self.play_alike(clients, tokens, seats, owner, random.Random(n))

    def play_alike(self, clients: list[Any], tokens: dict[str, str], seats: tuple[str, ...], owner: str | None,
                   rng: random.Random) -> None:
        """Compare every route for every viewer but `owner`, then play one command both
        services accept, while the battle runs. A viewer is compared for as long as the one
        redaction function gives it the same log in both: once the rules themselves show it
        something of the hidden difference (a card flipped face up), its views may differ."""
        watching = [viewer for viewer in (None, *seats) if (viewer != owner or owner is None) and len(clients) > 1]
        compared = 0
        for _ in range(STEPS):
            for viewer in list(watching):
                logs = [c.app.state.services.battles.events(BATTLE_ID, Viewer(seat=viewer)) for c in clients]
                if orjson.dumps(logs[0]) != orjson.dumps(logs[1]):
                    watching.remove(viewer)
                    continue
                seen = [routes(client, tokens, viewer) for client in clients]
                assert seen[0] == seen[1], (viewer, [p for p in seen[0] if seen[0][p] != seen[1].get(p)])
                compared += 1
            self.no_chain_reaches_anyone(clients[0], tokens, seats)
            if (len(clients) > 1 and not watching) or not self.step_both(clients, tokens, seats, rng):
                break
        if len(clients) > 1:
            assert compared > len(seats), "the battle revealed the hidden difference at once"

    def step_both(self, clients: list[Any], tokens: dict[str, str], seats: tuple[str, ...],
                  rng: random.Random) -> bool:
        for seat in seats:
            legal = [client.get(f"/battles/{BATTLE_ID}/legal", headers=auth(tokens, seat)).json() for client in clients]
            if any(answer["ended"] for answer in legal):
                return False
            shared = [c for c in legal[0]["legal"] if all(c in answer["legal"] for answer in legal)]
            if shared:
                command = rng.choice(shared)
                answers = [client.post(f"/battles/{BATTLE_ID}/commands", headers=auth(tokens, seat),
                                       json={"command": command}) for client in clients]
                assert {r.status_code for r in answers} == {200}, [r.text for r in answers]
                return not any(c.get(f"/battles/{BATTLE_ID}").json().get("ended") for c in clients)
        return False

    def no_chain_reaches_anyone(self, client: Any, tokens: dict[str, str], seats: tuple[str, ...]) -> None:
        battles = client.app.state.services.battles
        state = battles.load(BATTLE_ID)
        if state.public:
            return
        chains = [rec.chain.encode() for rec in battles.records(BATTLE_ID)]
        for viewer in (None, *seats):
            for path, body in routes(client, tokens, viewer).items():
                leaked = [c for c in chains if c in body]
                assert leaked == [], (viewer, path)
