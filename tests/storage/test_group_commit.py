"""Group commit: commands that arrive together are decided against their own battles' states
and saved in one transaction, and nothing about a battle's log, chain or idempotency changes.

16 client threads submit to 50 battles through one `Battles`, each command with an
Idempotency-Key and each sent twice at once (the repeat often lands in the same group as the
first); afterwards every battle's log is gap-free, its chain verifies, every accepted batch is
in the log exactly as answered, nothing else is, and every repeat got the first answer.

A group that conflicts with another process's write is decided afresh and saved as a group.
"""
from __future__ import annotations

import random
import threading

from domain.battles import Battles, Submitted
from domain.committer import Read
from domain.engine.chain import GENESIS, chain_of
from domain.engine.errors import RingsideError, RuleViolation, StaleState
from domain.engine.events import event_data
from tests.storage.helpers import PLAYERS, RULESET, fold_records, raw_versions

BATTLES = 50
CLIENTS = 16
COMMANDS_PER_CLIENT = 30


def client(battles: Battles, battle_ids: list[str], number: int, answers: list[tuple[str, Submitted]],
           repeats: list[tuple[Submitted, Submitted]], errors: list[BaseException]) -> None:
    rng = random.Random(number)
    try:
        for n in range(COMMANDS_PER_CLIENT):
            bid = rng.choice(battle_ids)
            state = battles.load(bid)
            if state.outcome is not None:
                continue
            seat = sorted(RULESET.awaiting(state.game))[0]
            command = rng.choice(battles.legal(bid, seat, state))
            key = f"client{number}-{n}"
            first, again = (battles.submit_later(bid, command, seat=seat, idempotency_key=key) for _ in range(2))
            try:
                answer = first.result(30)
            except RingsideError:       # another client moved the battle on first
                continue
            answers.append((bid, answer))
            repeats.append((answer, again.result(30)))
    except BaseException as exc:  # noqa: BLE001 - surfaced by the test
        errors.append(exc)


def check_battle(battles: Battles, bid: str, answers: list[Submitted], create_seq: int) -> None:
    records = battles.records(bid)
    n = records[-1].seq
    assert [r.seq for r in records] == list(range(1, n + 1)), "gap or duplicate in the log"
    assert raw_versions(battles, bid) == list(range(1, n + 1))
    chain = GENESIS
    for rec in records:
        chain = chain_of(chain, rec.seq, rec.event.TOPIC, event_data(rec.event))
        assert rec.chain == chain, f"chain broken at seq {rec.seq}"
    by_seq = {r.seq: r for r in records}
    covered = list(range(1, create_seq + 1))
    for answer in answers:
        assert [by_seq[r.seq] for r in answer.records] == answer.records
        covered.extend(r.seq for r in answer.records)
    assert sorted(covered) == list(range(1, n + 1)), "an event was lost or written twice"
    assert battles.load(bid) == fold_records(records)


def test_fifty_battles_sixteen_clients_keep_every_log_whole(db_url):
    with Battles(db_url, snapshot_every=10) as battles:
        made = [battles.create("deckduel", PLAYERS, revealed=bytes([i]) * 32) for i in range(BATTLES)]
        ids = [m.battle_id for m in made]
        answers: list[tuple[str, Submitted]] = []
        repeats: list[tuple[Submitted, Submitted]] = []
        errors: list[BaseException] = []
        threads = [threading.Thread(target=client, args=(battles, ids, i, answers, repeats, errors))
                   for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not errors, errors[0]
        assert len(answers) > BATTLES, "too few commands were accepted to exercise anything"
        assert all(first == again for first, again in repeats), "a repeat did not get the first answer"
    with Battles(db_url) as cold:
        for bid, created in zip(ids, made):
            check_battle(cold, bid, [a for b, a in answers if b == bid], created.seq)


def test_commands_arriving_together_commit_as_one_group_and_refusals_block_nothing(sqlite_url):
    with Battles(sqlite_url) as battles:
        a, b, c = (battles.create("deckduel", PLAYERS, revealed=bytes([i]) * 32) for i in (1, 2, 3))
        keep = {"type": "mulligan", "cards": []}
        groups_before = battles.committer.groups
        with battles.writer.write_lock:       # the writer waits here; meanwhile the rest queue up
            futures = [battles.submit_later(a.battle_id, keep, seat="p1"),     # may commit first, alone
                       battles.submit_later(b.battle_id, keep, seat="p1"),
                       battles.submit_later(b.battle_id, keep, seat="p1"),     # p1 has already chosen
                       battles.submit_later(b.battle_id, keep, seat="p2"),     # decided after b's p1
                       battles.submit_later(c.battle_id, keep, seat="p1", expected_seq=1),  # stale
                       battles.submit_later(c.battle_id, keep, seat="p2")]
        done = [f.exception(30) or f.result() for f in futures]
        assert battles.committer.groups - groups_before <= 2
        assert isinstance(done[2], RuleViolation) and isinstance(done[4], StaleState)
        accepted = [d for d in done if isinstance(d, Submitted)]
        assert len(accepted) == 4
        # b's two choices landed back to back, the second revealing both, in arrival order.
        assert done[3].records[0].seq == done[1].records[-1].seq + 1
        assert "engine.ChoicesRevealed" in [r.event.TOPIC for r in done[3].records]
    with Battles(sqlite_url) as cold:
        for created in (a, b, c):
            records = cold.records(created.battle_id)
            assert [r.seq for r in records] == list(range(1, records[-1].seq + 1))


def hold_writer(battles: Battles) -> threading.Event:
    """Keep `battles`' writer busy (in a read of its own) until the event returned is set, so
    that what is submitted meanwhile queues up and is taken as one group."""
    entered, gate = threading.Event(), threading.Event()
    battles.committer.submit(Read(lambda: (entered.set(), gate.wait(30))))
    assert entered.wait(30)
    return gate


def test_a_group_that_conflicts_is_decided_afresh_and_saved_as_one_group(db_url):
    keep = {"type": "mulligan", "cards": []}
    with Battles(db_url) as a, Battles(db_url) as b:
        x, y = (a.create("deckduel", PLAYERS, revealed=bytes([i]) * 32) for i in (4, 5))
        # Given A's writer held busy while two commands queue up behind it, one for battle x
        # and one for battle y
        gate = hold_writer(a)
        first = a.submit_later(x.battle_id, keep, seat="p2")
        second = a.submit_later(y.battle_id, keep, seat="p1")
        # and process B acting in x right after A's group has synced with the log
        moved: list[Submitted] = []
        real_sync = a.follower.sync

        def sync() -> None:
            real_sync()
            if not moved:
                moved.append(b.submit(x.battle_id, "p1", keep))
        a.follower.sync = sync          # type: ignore[method-assign]
        writes: list[int] = []
        real_write = a.writer.write

        def write(items):
            writes.append(len(items))
            return real_write(items)
        a.writer.write = write                 # type: ignore[method-assign]
        # When the group is let go
        gate.set()
        answers = [first.result(30), second.result(30)]
        # Then its first transaction, both jobs' batches, conflicted and stored nothing: x's
        # was decided on the state before B's command (p2's locked choice: 1 event; y's: 1);
        # the group was decided afresh and saved in one more transaction holding both batches
        # (x's now reveals both choices and plays on), and no job was saved on its own
        assert a.committer.conflicts == 1
        assert writes == [2, sum(len(s.records) for s in answers)]
        # and x's command was decided on B's state: its batch follows B's
        assert answers[0].records[0].seq == moved[0].seq + 1
        assert answers[1].records[0].seq == y.seq + 1
    with Battles(db_url) as cold:
        for created, answer in ((x, answers[0]), (y, answers[1])):
            records = cold.records(created.battle_id)
            assert [r.seq for r in records] == list(range(1, answer.seq + 1))
            assert records[-len(answer.records):] == answer.records


def test_a_command_cancelled_while_queued_is_never_written_and_the_others_are_answered(sqlite_url):
    keep = {"type": "mulligan", "cards": []}
    with Battles(sqlite_url) as battles:
        x, y = (battles.create("deckduel", PLAYERS, revealed=bytes([i]) * 32) for i in (6, 7))
        # Given three commands queued behind a busy writer
        gate = hold_writer(battles)
        before = battles.submit_later(x.battle_id, keep, seat="p1")
        cancelled = battles.submit_later(y.battle_id, keep, seat="p1")
        after = battles.submit_later(x.battle_id, keep, seat="p2")
        # When the middle one's caller gives up before the writer has taken it (its request was
        # cancelled: the client went away)
        assert cancelled.cancel()
        gate.set()
        # Then the others are committed and answered as usual, in one group
        first, last = before.result(30), after.result(30)
        assert last.records[0].seq == first.seq + 1
        # and the cancelled command was never written: y is still at its opening seq
        assert battles.load(y.battle_id).seq == y.seq
    with Battles(sqlite_url) as cold:
        assert cold.load(y.battle_id).seq == y.seq
        assert cold.load(x.battle_id).seq == last.seq
