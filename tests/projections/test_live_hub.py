"""The live hub in one process: a batch is rendered once, off the committing thread, and its
frame is the same bytes for every subscriber of a kind; batches reach every subscriber in commit
order however many there are; an outbox that overflows, or a send stuck past its bound when the
next batch comes, marks the subscriber too far behind."""
from __future__ import annotations

import asyncio
import threading
import uuid

import orjson
import pytest

import projections.live as live
from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.engine.events import Viewer
from domain.engine.ruleset import get_ruleset
from projections.live import Batch, LiveHub, TooFarBehind

SPECTATOR = Viewer()


@pytest.fixture(scope="module")
def match():
    ruleset = get_ruleset("deckduel")
    bots = {seat: get_policy("random", "deckduel") for seat in ruleset.default_table().seats}
    return play(ruleset, bots, battle_id=str(uuid.UUID(int=7)), revealed=seeded_bytes("live", 1),
                bot_seed=seeded_bytes("live-bots", 1), players={"p1": "alice", "p2": "bob"})


def batch(first: int, last: int, bid: str = "b") -> Batch:
    events = [{"seq": seq, "type": "t", "data": {}, "chain": None} for seq in range(first, last + 1)]
    return Batch(bid, first, last, False, {"spectator": orjson.dumps(events)})


def test_a_batch_is_rendered_once_in_the_loop_and_every_subscriber_gets_the_same_frame(match, monkeypatch):
    rendered_in: list[str] = []
    wire_event = live.wire_event

    def counting(*args):
        rendered_in.append(threading.current_thread().name)
        return wire_event(*args)
    monkeypatch.setattr(live, "wire_event", counting)
    hub, records = LiveHub(), match.records[-3:]

    async def follow() -> list[bytes]:
        subs = [hub.subscribe(match.state.battle_id) for _ in range(3)]
        committing = threading.Thread(target=hub.publish, args=(match.state.battle_id, records, match.state),
                                      name="group-commit")
        committing.start()
        committing.join()
        assert rendered_in == []                    # nothing rendered in the committing thread
        got = [await sub.next(5) for sub in subs]
        return [b.frame_for(SPECTATOR) for b in got if b is not None]

    frames = asyncio.run(follow())
    assert len(frames) == 3 and frames[0] is frames[1] is frames[2]
    assert [e["seq"] for e in orjson.loads(frames[0])] == [r.seq for r in records]
    kinds = 1 + len(match.state.created.players)
    assert len(rendered_in) == kinds * len(records) and "group-commit" not in rendered_in


def test_frames_cross_redis_as_they_were_encoded(match):
    made = Batch.of(match.state.battle_id, match.records[-4:], match.state)
    origin, again = Batch.decode(made.encode("worker-a"))
    assert origin == "worker-a"
    assert (again.battle_id, again.first, again.last, again.ended) == (made.battle_id, made.first, made.last, True)
    assert again.frames == made.frames and set(made.frames) == {"spectator", "p1", "p2"}
    assert again.messages_for(Viewer(seat="p1")) == [orjson.dumps(e) for e in orjson.loads(made.frames["p1"])]


def test_many_subscribers_get_every_batch_in_commit_order():
    hub = LiveHub()
    count = live.WAKE_CHUNK * 3 + 5                 # several turns of the loop per batch

    async def follow() -> list[list[int]]:
        subs = [hub.subscribe("b") for _ in range(count)]
        for first in (1, 3, 6):
            hub.deliver(batch(first, first + (1 if first == 1 else 2)))
        return [[(await sub.next(5)).first for _ in range(3)] for sub in subs]

    assert asyncio.run(follow()) == [[1, 3, 6]] * count


def test_an_overflowing_outbox_is_too_far_behind_and_lets_its_batches_go():
    async def overflow() -> None:
        sub = LiveHub(outbox_batches=3).subscribe("b")
        for seq in range(1, 4):
            sub.put(batch(seq, seq))
        assert (await sub.next(1)).first == 1       # three waiting are allowed
        sub.put(batch(4, 4))
        sub.put(batch(5, 5))                        # a fourth is not
        assert sub.behind and not sub.outbox
        with pytest.raises(TooFarBehind):
            await sub.next(1)

    asyncio.run(overflow())


async def stalled_socket(frame: bytes) -> None:
    await asyncio.get_running_loop().create_future()       # a peer that never reads


async def stalled_send(sub: live.Subscription) -> asyncio.Task[None]:
    """A send of `sub`'s stream, under way and stalled."""
    sending = asyncio.create_task(sub.send(stalled_socket, b"[]"))
    await asyncio.sleep(0)
    return sending


def test_a_send_stuck_past_its_bound_is_cut_short_when_the_next_batch_comes():
    async def stuck() -> None:
        sub = LiveHub(send_seconds=-1.0).subscribe("b")     # any send under way is stuck
        sending = await stalled_send(sub)
        sub.put(batch(1, 1))
        with pytest.raises(TooFarBehind):
            await sending
        with pytest.raises(TooFarBehind):
            await sub.send(stalled_socket, b"[]")

    asyncio.run(stuck())


def test_a_stream_cancelled_from_outside_during_a_send_is_cancelled_not_behind():
    async def cancelled() -> None:
        sub = LiveHub().subscribe("b")
        sending = await stalled_send(sub)
        sending.cancel()
        with pytest.raises(asyncio.CancelledError):
            await sending
        assert not sub.behind

    asyncio.run(cancelled())


def test_a_waiting_stream_that_takes_a_batch_on_the_spot_is_not_woken_and_queues_nothing():
    async def direct() -> None:
        sub = LiveHub().subscribe("b")
        taken: list[int] = []
        sub.direct = lambda b: taken.append(b.first) or b.first != 3      # it declines the batch at 3
        waiting = asyncio.create_task(sub.next(5))
        await asyncio.sleep(0)
        sub.put(batch(1, 2))
        await asyncio.sleep(0)
        assert taken == [1] and not sub.outbox and not waiting.done()
        sub.put(batch(3, 3))                        # declined: queued, and the stream woken for it
        sub.put(batch(4, 4))                        # the stream has a batch to take first: queued
        assert taken == [1, 3]
        assert (await waiting).first == 3
        assert (await sub.next(5)).first == 4

    asyncio.run(direct())


def test_a_stream_not_waiting_is_never_handed_a_batch_on_the_spot():
    async def busy() -> None:
        sub = LiveHub().subscribe("b")
        sub.direct = lambda b: pytest.fail("handed on the spot while the stream was busy")
        sub.put(batch(1, 1))                        # the stream is catching up, say: not in next()
        assert (await sub.next(5)).first == 1

    asyncio.run(busy())


def test_a_wait_in_which_batches_were_taken_on_the_spot_is_no_quiet_spell():
    async def wait() -> None:
        sub = LiveHub().subscribe("b")
        sub.direct = lambda b: True
        waiting = asyncio.create_task(sub.next(0.2))
        await asyncio.sleep(0.05)
        sub.put(batch(1, 1))                        # news within the first 0.2 s
        await asyncio.sleep(0.25)
        assert not waiting.done()                   # so the wait went on, unwoken
        assert await asyncio.wait_for(waiting, 1) is None      # and the next 0.2 s were quiet

    asyncio.run(wait())


def test_streams_that_took_the_battles_last_batch_on_the_spot_wake_to_close_once_all_have_it():
    async def ended() -> None:
        hub, handed = LiveHub(), []
        subs = [hub.subscribe("b") for _ in range(live.WAKE_CHUNK + 1)]      # two turns of the loop
        waiting = []
        for sub in subs:
            sub.direct = lambda b, sub=sub: handed.append(sub) or True
            waiting.append(asyncio.create_task(sub.next(5)))
        await asyncio.sleep(0)
        last = batch(1, 3)
        last.ended = True
        live.offer_all(subs, last)                  # the first turn: a chunk handed it, none woken
        assert len(handed) == live.WAKE_CHUNK and not any(s._waiter.done() for s in subs)
        results = await asyncio.wait_for(asyncio.gather(*waiting), 1)
        assert handed == subs and results == [None] * len(subs) and not any(s.outbox for s in subs)

    asyncio.run(ended())
