"""Command atomicity, rejections, expected_seq and idempotency on both stores (`db_url`)."""
from __future__ import annotations

import random
import uuid

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent

from domain.battles import Battles
from domain.engine.errors import (BattleOver, IdempotencyConflict, NotYourTurn, RuleViolation,
                                  StaleState)
from domain.rulesets.deckduel.content import CARDS
from tests.storage.helpers import PLAYERS, next_seat, play_out, raw_versions

KEEP = {"type": "mulligan", "cards": []}


@pytest.fixture
def battles(db_url):
    with Battles(db_url, snapshot_every=10) as b:
        yield b


def in_combat(battles: Battles) -> str:
    """A battle past both mulligans, waiting for one seat's combat action."""
    bid = battles.create("deckduel", PLAYERS, revealed=b"\x01" * 32).battle_id
    battles.submit(bid, "p1", KEEP)
    battles.submit(bid, "p2", KEEP)
    return bid


def count(battles: Battles, bid: str) -> int:
    return len(raw_versions(battles, bid))


def test_a_batch_is_all_or_nothing_when_its_middle_conflicts(battles, db_url):
    bid = battles.create("deckduel", PLAYERS, revealed=b"\x02" * 32).battle_id
    first = battles.submit(bid, "p1", KEEP)
    assert [r.seq for r in first.records] == [7]
    before = battles.load(bid)
    # Occupy seq 10: the p2 mulligan batch (seq 8..17) must then fail as a whole.
    battles.store.recorder.insert_events([StoredEvent(uuid.UUID(bid), 10, "test.Blocker", b"{}")])
    strict = Battles(db_url, retries=0)
    strict.loader.load = lambda battle_id, at=None: before  # the blocker is not a readable event
    try:
        with pytest.raises(IntegrityError):
            strict.submit(bid, "p2", KEEP)
    finally:
        strict.close()
    assert raw_versions(battles, bid) == [1, 2, 3, 4, 5, 6, 7, 10]


def test_illegal_card_is_rejected_and_appends_nothing(battles):
    bid = in_combat(battles)
    seat = next_seat(battles, bid)
    hand = set(battles.load(bid).game.side(seat).hand)
    missing = sorted(c for c, card in CARDS.items() if c not in hand and card.kind == "attack")[0]
    before = count(battles, bid)
    with pytest.raises(RuleViolation):
        battles.submit(bid, seat, {"type": "attack", "card": missing})
    with pytest.raises(RuleViolation):
        battles.submit(bid, seat, {"type": "fly", "card": missing})
    with pytest.raises(RuleViolation):
        battles.submit(bid, seat, {"type": "attack", "card": missing, "extra": 1})
    assert count(battles, bid) == before
    assert battles.load(bid).seq == before


def test_wrong_seat_gets_not_your_turn_and_appends_nothing(battles):
    bid = in_combat(battles)
    seat = next_seat(battles, bid)
    other = "p2" if seat == "p1" else "p1"
    before = count(battles, bid)
    with pytest.raises(NotYourTurn):
        battles.submit(bid, other, {"type": "pass"})
    with pytest.raises(RuleViolation):
        battles.submit(bid, "p3", {"type": "pass"})
    assert count(battles, bid) == before


def test_a_second_mulligan_by_the_same_seat_appends_nothing(battles):
    bid = battles.create("deckduel", PLAYERS, revealed=b"\x03" * 32).battle_id
    battles.submit(bid, "p1", KEEP)
    before = count(battles, bid)
    with pytest.raises(RuleViolation):
        battles.submit(bid, "p1", KEEP)
    assert count(battles, bid) == before == 7


def test_commands_after_the_end_raise_battle_over_and_append_nothing(battles):
    bid = battles.create("deckduel", PLAYERS, revealed=b"\x04" * 32).battle_id
    play_out(battles, bid, random.Random(4))
    before = count(battles, bid)
    for seat in ("p1", "p2"):
        with pytest.raises(BattleOver):
            battles.submit(bid, seat, {"type": "pass"})
    assert count(battles, bid) == before
    assert battles.legal(bid, "p1") == []


def test_expected_seq_equal_to_the_current_seq_is_accepted(battles):
    bid = in_combat(battles)
    seq = battles.load(bid).seq
    seat = next_seat(battles, bid)
    result = battles.submit(bid, seat, {"type": "pass"}, expected_seq=seq)
    assert result.records[0].seq == seq + 1
    assert count(battles, bid) == result.seq


def test_expected_seq_behind_the_battle_raises_stale_state(battles):
    bid = in_combat(battles)
    seq = battles.load(bid).seq
    battles.submit(bid, next_seat(battles, bid), {"type": "pass"})
    now = count(battles, bid)
    with pytest.raises(StaleState) as caught:
        battles.submit(bid, next_seat(battles, bid), {"type": "pass"}, expected_seq=seq)
    assert caught.value.details == {"seq": now, "expected_seq": seq}
    assert count(battles, bid) == now


def test_expected_seq_is_checked_against_the_store_not_a_stale_cache(battles, db_url):
    bid = in_combat(battles)
    seq = battles.load(bid).seq  # cached here
    with Battles(db_url) as other:
        other.submit(bid, next_seat(other, bid), {"type": "pass"})
    with pytest.raises(StaleState):
        battles.submit(bid, next_seat(battles, bid), {"type": "pass"}, expected_seq=seq)


def test_same_idempotency_key_and_command_returns_the_first_result_and_appends_once(battles, db_url):
    bid = in_combat(battles)
    seat = next_seat(battles, bid)
    first = battles.submit(bid, seat, {"type": "pass"}, idempotency_key="k-1")
    after_first = count(battles, bid)
    again = battles.submit(bid, seat, {"type": "pass"}, idempotency_key="k-1")
    assert again.seq == first.seq
    assert again.records == first.records
    assert count(battles, bid) == after_first
    with Battles(db_url) as cold:  # the key is stored, not only remembered
        third = cold.submit(bid, seat, {"type": "pass"}, idempotency_key="k-1")
        assert (third.seq, third.records) == (first.seq, first.records)
    assert count(battles, bid) == after_first


def test_idempotency_key_reused_for_another_command_conflicts_and_appends_nothing(battles):
    bid = in_combat(battles)
    seat = next_seat(battles, bid)
    battles.submit(bid, seat, {"type": "pass"}, idempotency_key="k-2")
    before = count(battles, bid)
    attack = next((c for c in battles.legal(bid, seat) if c["type"] != "pass"), {"type": "pass", "x": 1})
    with pytest.raises(IdempotencyConflict):
        battles.submit(bid, seat, attack, idempotency_key="k-2")
    assert count(battles, bid) == before


def test_an_idempotent_repeat_after_the_battle_moved_on_still_returns_the_first_result(battles):
    bid = in_combat(battles)
    seat = next_seat(battles, bid)
    first = battles.submit(bid, seat, {"type": "pass"}, idempotency_key="k-3")
    battles.submit(bid, next_seat(battles, bid), {"type": "pass"})
    moved = count(battles, bid)
    again = battles.submit(bid, seat, {"type": "pass"}, idempotency_key="k-3")
    assert (again.seq, again.records) == (first.seq, first.records)
    assert count(battles, bid) == moved


def test_a_rejected_command_does_not_use_up_its_idempotency_key(battles):
    bid = in_combat(battles)
    seat = next_seat(battles, bid)
    with pytest.raises(RuleViolation):
        battles.submit(bid, seat, {"type": "attack", "card": "no_such_card"}, idempotency_key="k-4")
    result = battles.submit(bid, seat, {"type": "pass"}, idempotency_key="k-4")
    assert result.records[0].event.seat == seat
