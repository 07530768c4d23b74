"""`replays.verify.verify` on in-memory random-bot matches: OK, and each tamper caught at its seq."""
from __future__ import annotations

import pytest

from domain.engine.events import OMNISCIENT, SPECTATOR
from domain.rulesets.deckduel.content import CARDS
from replays.format import build, dumps, loads
from replays.verify import verify
from tests.replays.helpers import (batch_ends, clone, first_index, fold_until, forge, match, rechain, renumber,
                                   replay_of)


@pytest.fixture(scope="module")
def game():
    m = match(1)
    return m, replay_of(m)


def test_a_finished_match_verifies_ok_with_head_equal_to_the_last_chain(game):
    m, replay = game
    report = verify(replay)
    assert report.status == "ok" and report.ok
    assert report.head == replay.events[-1]["chain"] == m.state.chain
    assert report.events == len(m.records) == len(replay.events)
    assert report.seq is None and report.reason is None
    assert report.winner == m.state.outcome.winner
    assert replay.header["seed"]["revealed"] == m.records[0].event.seed


@pytest.mark.parametrize("i", range(2, 7))
def test_more_matches_verify_ok_after_a_file_round_trip(i):
    m = match(i)
    replay = loads(dumps(replay_of(m)))
    report = verify(replay)
    assert report.status == "ok", report
    assert report.head == m.state.chain


def data_change(replay, index, key, value):
    bad = clone(replay)
    assert bad.events[index]["data"][key] != value
    bad.events[index]["data"][key] = value
    return bad


@pytest.mark.parametrize("topic,key,value", [
    ("deckduel.DamageFlipped", "remaining", 99),
    ("deckduel.CardsDrawn", "count", 0),
    ("deckduel.AttackPlayed", "seat", "p3"),
    ("deckduel.DuelStarted", "first_player", "p2"),
    ("engine.BattleEnded", "reason", "forfeit"),
])
def test_changed_data_value_fails_at_its_seq(game, topic, key, value):
    _, replay = game
    k = first_index(replay, topic, 10 if topic != "deckduel.DuelStarted" else 0)
    report = verify(data_change(replay, k, key, value))
    assert report.status == "fail"
    assert report.seq == k + 1
    assert "hash chain" in report.reason


def test_changed_chain_value_fails_at_its_seq(game):
    _, replay = game
    bad = clone(replay)
    bad.events[40]["chain"] = "f" * 64
    assert verify(bad).seq == 41


@pytest.mark.parametrize("k", [1, 2, 7, 30, -1])
def test_dropped_event_fails_at_its_seq(game, k):
    _, replay = game
    n = len(replay.events)
    k = n if k == -1 else k
    bad = clone(replay)
    del bad.events[k - 1]
    report = verify(bad)
    assert (report.status, report.seq) == ("fail", k), report


@pytest.mark.parametrize("k", [1, 9, 25, -1])
def test_swapped_events_fail_at_the_first_of_the_pair(game, k):
    _, replay = game
    k = len(replay.events) - 1 if k == -1 else k
    bad = clone(replay)
    bad.events[k - 1], bad.events[k] = bad.events[k], bad.events[k - 1]
    report = verify(bad)
    assert (report.status, report.seq) == ("fail", k), report


@pytest.mark.parametrize("k", [1, 12, 60, -1])
def test_duplicated_event_fails_where_the_copy_sits(game, k):
    _, replay = game
    k = len(replay.events) if k == -1 else k
    bad = clone(replay)
    bad.events.insert(k, dict(bad.events[k - 1]))
    report = verify(bad)
    assert (report.status, report.seq) == ("fail", k + 1), report


def test_renumbered_and_rechained_drop_is_caught_by_re_simulation(game):
    """Drop a consequence event and fix up seqs and chains: only re-simulation can tell."""
    _, replay = game
    k = first_index(replay, "deckduel.DamageFlipped", 20)
    bad = clone(replay)
    del bad.events[k]
    renumber(bad.events)
    rechain(bad.events)
    report = verify(bad)
    assert (report.status, report.seq) == ("fail", k + 1), report
    assert "re-simulation" in report.reason


def test_changed_revealed_seed_fails_at_seq_1_on_the_commitment(game):
    _, replay = game
    bad = clone(replay)
    seed = bad.header["seed"]["revealed"]
    bad.header["seed"]["revealed"] = ("0" if seed[0] != "0" else "1") + seed[1:]
    report = verify(bad)
    assert (report.status, report.seq) == ("fail", 1)
    assert "commitment" in report.reason


def test_missing_or_non_hex_revealed_seed_fails_at_seq_1(game):
    _, replay = game
    for value in (None, "zz", ""):
        bad = clone(replay)
        bad.header["seed"]["revealed"] = value
        report = verify(bad)
        assert (report.status, report.seq) == ("fail", 1), (value, report)


@pytest.mark.parametrize("field,value", [
    ("battle_id", "00000000-0000-4000-8000-999999999999"),
    ("players", {"p1": "mallory", "p2": "bot-p2"}),
    ("setup", {"p1": {"character": "vex"}, "p2": {"character": "brom"}}),
    ("created_at", "2030-01-01T00:00:00.000Z"),
    ("seed.commitment", "0" * 64),
    ("seed.nonces", {"p1": "x"}),
    ("ruleset.content_hash", "0" * 32),
])
def test_header_disagreeing_with_battle_created_fails_at_seq_1(game, field, value):
    _, replay = game
    bad = clone(replay)
    target = bad.header
    *path, last = field.split(".")
    for part in path:
        target = target[part]
    target[last] = value
    report = verify(bad)
    assert (report.status, report.seq) == ("fail", 1), report


def unfinished(m, upto_batch: int):
    ends = batch_ends(m.records)
    n = ends[upto_batch]
    records = m.records[:n]
    return fold_until(m.records, n), records


def test_unfinished_battle_fails_as_not_ended(game):
    m, _ = game
    state, records = unfinished(m, 8)
    assert state.outcome is None
    replay = build(state, records, OMNISCIENT)
    assert replay.header["seed"]["revealed"] == records[0].event.seed
    report = verify(replay)
    assert report.status == "fail"
    assert report.seq == records[-1].seq + 1
    assert "not ended" in report.reason


def test_unfinished_battle_for_a_spectator_is_redacted_and_fails(game):
    m, _ = game
    state, records = unfinished(m, 3)
    replay = build(state, records, SPECTATOR)
    assert replay.header["seed"]["revealed"] is None
    report = verify(replay)
    assert report.status == "fail"
    first_hidden = next(e["seq"] for e in replay.events if e["chain"] is None)
    assert report.seq == first_hidden
    assert "redacted" in report.reason


def test_events_after_battle_ended_fail_at_the_first_extra_event(game):
    _, replay = game
    n = len(replay.events)
    bad = clone(replay)
    extra = dict(bad.events[first_index(bad, "deckduel.Passed")])
    extra["seq"] = n + 1
    bad.events.append(extra)
    rechain(bad.events, n)
    report = verify(bad)
    assert (report.status, report.seq) == ("fail", n + 1), report


def test_a_second_battle_ended_after_the_end_fails_at_its_seq(game):
    _, replay = game
    n = len(replay.events)
    bad = clone(replay)
    extra = dict(bad.events[-1], seq=n + 1)
    bad.events.append(extra)
    rechain(bad.events, n)
    assert (verify(bad).status, verify(bad).seq) == ("fail", n + 1)


def pinned_elsewhere(replay, **ruleset):
    bad = clone(replay)
    bad.header["ruleset"].update(ruleset)
    created = bad.events[0]["data"]
    created["ruleset"] = ruleset.get("id", created["ruleset"])
    created["ruleset_version"] = ruleset.get("version", created["ruleset_version"])
    created["content_hash"] = ruleset.get("content_hash", created["content_hash"])
    rechain(bad.events)
    return bad


@pytest.mark.parametrize("pin", [{"version": "0.9.0"}, {"content_hash": "0" * 32},
                                 {"version": "2.0.0", "content_hash": "f" * 32}, {"id": "oldduel"}])
def test_replay_pinning_another_ruleset_is_unverifiable(game, pin):
    _, replay = game
    report = verify(pinned_elsewhere(replay, **pin))
    assert report.status == "unverifiable", report
    assert not report.ok
    assert report.reason


def test_header_alone_pinning_another_version_is_not_ok(game):
    _, replay = game
    bad = clone(replay)
    bad.header["ruleset"]["version"] = "0.9.0"
    assert verify(bad).status != "ok"


def test_forged_damage_flip_with_valid_chain_fails_re_simulation_at_its_seq(game):
    _, replay = game
    k = first_index(replay, "deckduel.DamageFlipped", 20)
    card = replay.events[k]["data"]["card"]
    _, report = forge(replay, k, card="haymaker" if card != "haymaker" else "jab")
    assert (report.status, report.seq) == ("fail", k + 1), report
    assert "re-simulation produced deckduel.DamageFlipped" in report.reason


def test_forged_action_with_valid_chain_fails_as_not_legal(game):
    m, replay = game
    k = first_index(replay, "deckduel.AttackPlayed", 20)
    hand = set(fold_until(m.records, k).game.side(replay.events[k]["data"]["seat"]).hand)
    missing = sorted(c for c, card in CARDS.items() if c not in hand and card.kind == "attack")[0]
    _, report = forge(replay, k, card=missing)
    assert (report.status, report.seq) == ("fail", k + 1), report
    assert "not legal" in report.reason


def test_forged_winner_with_valid_chain_fails_at_battle_ended(game):
    _, replay = game
    winner = replay.events[-1]["data"]["winner"]
    _, report = forge(replay, len(replay.events) - 1, winner="p1" if winner != "p1" else "p2")
    assert (report.status, report.seq) == ("fail", len(replay.events)), report


def test_forged_mulligan_choice_fails_where_its_consequence_differs(game):
    _, replay = game
    k = first_index(replay, "engine.ChoiceLocked")
    locked = replay.events[k]["data"]
    hand = replay.events[3]["data"]["cards"] if locked["seat"] == "p1" else replay.events[5]["data"]["cards"]
    bad, report = forge(replay, k, choice={"cards": [] if locked["choice"]["cards"] else [hand[0]]})
    revealed = first_index(bad, "engine.ChoicesRevealed")
    assert (report.status, report.seq) == ("fail", revealed + 1), report


@pytest.mark.parametrize("field,value", [
    ("seed", "abc"), ("seed", ["x"]), ("ruleset", "deckduel"), ("players", "bot"), ("setup", None),
])
def test_header_fields_of_the_wrong_type_fail_without_raising(game, field, value):
    _, replay = game
    bad = clone(replay)
    bad.header[field] = value
    report = verify(bad)  # must return a report, never raise
    assert (report.status, report.seq) == ("fail", 1), report


@pytest.mark.parametrize("value", ["\ud800", 2**70, {1: "a"}])
def test_event_data_no_json_can_hold_fails_at_its_seq_without_raising(game, value):
    # Given a replay built in Python (a file's parser refuses these) whose CardsDrawn data holds a
    # lone surrogate, an integer past 64 bits or a non-string key, when it is verified, then it
    # fails at that event's seq, as any other changed data does.
    _, replay = game
    k = first_index(replay, "deckduel.CardsDrawn", 10)
    report = verify(data_change(replay, k, "count", value))
    assert (report.status, report.seq) == ("fail", k + 1), report
    assert "not storable JSON" in report.reason
