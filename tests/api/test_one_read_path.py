"""One read path: a live battle that holds spectators back stops at the same seq on every
channel a spectator can read it through (REST, the stream, the viewer's timeline, the CLI, the
projections' battle view), and every channel shows the whole battle once it has ended."""
from __future__ import annotations

import asyncio
import random

import orjson
import pytest
from typer.testing import CliRunner

from api.cli import app as cli
from api.streams import Frame, open_feed
from domain.engine.events import SPECTATOR
from projections.runner import Views
from projections.store import MemoryViewStore
from replays import format as replay_format

from .helpers import auth, create, play_to_end, step

DELAY = 2


def horizon(action_seqs: list[int]) -> int:
    """The last seq a spectator may see: the one before the DELAY latest actions."""
    return action_seqs[max(0, len(action_seqs) - DELAY)] - 1


def ringside(*args: str) -> bytes:
    done = CliRunner().invoke(cli, list(args))
    assert done.exit_code == 0, (done.output, done.exception)
    return done.stdout_bytes


def seqs_of(frames: list[Frame]) -> list[int]:
    return [seq for frame in frames for seq in range(frame.first, frame.last + 1)]


def streamed(client, bid: str, count: int) -> list[int]:
    """The first `count` seqs a spectator's WebSocket sends, read as the frames they come in."""
    seqs: list[int] = []
    with client.websocket_connect(f"/battles/{bid}/stream?from=1") as ws:
        while len(seqs) < count:
            seqs += [event["seq"] for event in orjson.loads(ws.receive_bytes())]
    return seqs


def stream_reach(client, app, battle, rng) -> tuple[int, int, int]:
    """The last seq a spectator's stream shows before and after one more command (catch-up, a
    quiet spell, then that command's batch as the live fan-out brings it), and its action's seq."""
    async def follow() -> tuple[int, int, int]:
        feed = await open_feed(app.state.services, battle["battle_id"], None, 1)
        try:
            seqs = seqs_of(await feed.catch_up())
            seqs += seqs_of(await feed.next_frames(0.2))
            before = seqs[-1]
            answer = await asyncio.to_thread(step, client, battle, rng)
            while more := await feed.next_frames(0.5):
                seqs += seqs_of(more)
        finally:
            feed.close()
        assert seqs == list(range(1, len(seqs) + 1))
        return before, seqs[-1], answer["events"][0]["seq"]
    return asyncio.run(follow())


def reach(client, app, db: str, bid: str) -> dict[str, int]:
    """The last seq each channel shows a spectator now."""
    replay = replay_format.loads(client.get(f"/battles/{bid}/replay").content)
    log = ringside("log", bid, "--db", db).decode().splitlines()
    exported = replay_format.loads(ringside("replay", "export", bid, "--db", db))
    shown = orjson.loads(ringside("replay", "show", bid, "--db", db))
    views = Views(app.state.services.battles, MemoryViewStore(prefix="t"), ["battles"])
    views.catch_up()
    return {
        "view": client.get(f"/battles/{bid}").json()["seq"],
        "events": client.get(f"/battles/{bid}/events").json()["events"][-1]["seq"],
        "replay": replay.events[-1]["seq"],
        "timeline": client.get(f"/viewer/api/battles/{bid}/timeline").json()["seq"],
        "cli log": int(log[-1].split()[0]),
        "cli replay export": exported.events[-1]["seq"],
        "cli replay show": shown["view"]["seq"],
        "projection": views.store.get(views.store.key("battles", bid, "spectator"))["seq"],
    }


@pytest.mark.parametrize("actions", [1, 4])
def test_every_channel_holds_spectators_at_the_same_seq_then_shows_everything(client, app, sqlite_url, actions):
    battle = create(client, "deckduel", spectator_delay=DELAY)
    bid, p1 = battle["battle_id"], auth(battle["seat_tokens"]["p1"])
    rng = random.Random(5)
    action_seqs = [step(client, battle, rng)["events"][0]["seq"] for _ in range(actions)]
    before, after, action = stream_reach(client, app, battle, rng)
    assert before == horizon(action_seqs)
    horizon_now = horizon([*action_seqs, action])
    head = client.get(f"/battles/{bid}", headers=p1).json()["seq"]
    assert after == horizon_now < head
    assert streamed(client, bid, horizon_now) == list(range(1, horizon_now + 1))
    live = reach(client, app, sqlite_url, bid)
    assert set(live.values()) == {horizon_now}, live
    assert client.get(f"/battles/{bid}/at/{horizon_now}").status_code == 200
    assert client.get(f"/battles/{bid}/at/{horizon_now + 1}").json()["error"]["code"] == "seq_out_of_range"
    assert replay_format.loads(client.get(f"/battles/{bid}/replay").content).header["seed"]["revealed"] is None
    full = replay_format.loads(ringside("replay", "export", bid, "--as", "all", "--db", sqlite_url))
    assert full.events[-1]["seq"] == head

    play_to_end(client, battle, seed=9)
    last = client.get(f"/battles/{bid}", headers=p1).json()["seq"]
    ended = reach(client, app, sqlite_url, bid)
    assert set(ended.values()) == {last}, ended
    assert streamed(client, bid, last) == list(range(1, last + 1))
    replay = replay_format.loads(ringside("replay", "export", bid, "--db", sqlite_url))
    assert replay.header["seed"]["revealed"] is not None and all(e["chain"] for e in replay.events)


def test_the_action_seqs_kept_at_the_head_give_the_horizon_at_every_earlier_seq(client, app):
    """The projections ask for the horizon as of each event they fold, after the API has read
    the battle at its head: the kept action seqs must serve both."""
    battle = create(client, "deckduel", spectator_delay=DELAY)
    rng = random.Random(3)
    for _ in range(6):
        step(client, battle, rng)
    battles, bid = app.state.services.battles, battle["battle_id"]
    records = battles.records(bid)
    assert battles.reading.sight(bid, SPECTATOR).horizon < records[-1].seq
    for rec in records:
        actions = [r.seq for r in records[:rec.seq] if r.event.starts_batch()]
        state = battles.load(bid, at=rec.seq)
        assert battles.reading.horizon(state, SPECTATOR) == (horizon(actions) if actions else rec.seq)
