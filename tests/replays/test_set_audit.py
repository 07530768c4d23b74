"""A ring set audits to one digest, and an audit catches a set log that was changed, whether
or not the forger also rewrote the set's hash chain."""
from __future__ import annotations

import random
import sqlite3
import uuid

import orjson
import pytest

from domain.ai import get_policy
from domain.battles import Battles
from domain.engine.chain import GENESIS, chain_of
from domain.sets import Sets
from replays.audit import audit_set
from tests.sets.helpers import RefuseSetResult, stored_topics, topics
from tests.storage.helpers import play_out

BOTS = {"p1": get_policy("greedy", "ring"), "p2": get_policy("random", "ring")}


@pytest.fixture
def ring_set(tmp_path):
    path = tmp_path / "set.db"
    with Battles(f"sqlite:///{path}") as store:
        done = Sets(store).simulate("ring", BOTS, games=3, mode="all", seed="audit")
    return path, done.set_id


def audit(path, set_id):
    with Battles(f"sqlite:///{path}") as store:
        return audit_set(store, Sets(store), set_id)


def set_rows(path, set_id):
    with sqlite3.connect(path) as db:      # the SQLite recorder keeps ids as 32 hex digits
        return db.execute("select originator_version, topic, state from stored_events where originator_id = ? "
                          "order by originator_version", (uuid.UUID(set_id).hex,)).fetchall()


def rewrite(path, set_id, rows, rechain: bool) -> None:
    chain = GENESIS
    with sqlite3.connect(path) as db:
        for version, topic, state in rows:
            body = orjson.loads(state)
            if rechain:
                chain = chain_of(chain, version, topic, body["data"])
                body["chain"] = chain
            db.execute("update stored_events set state = ? where originator_id = ? and originator_version = ?",
                       (orjson.dumps(body), uuid.UUID(set_id).hex, version))


def test_a_three_battle_ring_set_audits_to_one_digest(ring_set):
    path, set_id = ring_set
    report = audit(path, set_id)
    assert report["status"] == "ok" and report["problems"] == []
    assert [b["status"] for b in report["battles"]] == ["ok", "ok", "ok"]
    assert report["digest"] == orjson.loads(set_rows(path, set_id)[-1][2])["chain"]
    assert audit(path, set_id)["digest"] == report["digest"]          # the same set, the same digest


@pytest.mark.parametrize("rechain", [False, True])
def test_a_changed_carry_over_is_caught(ring_set, rechain):
    """Give p1's first unit an extra LP after battle 1: the set log no longer follows from the
    battles. Without a rewritten chain the set chain breaks; with one, the carry check fails."""
    path, set_id = ring_set
    rows = set_rows(path, set_id)
    changed = []
    for version, topic, state in rows:
        body = orjson.loads(state)
        if topic in ("sets.SetBattleFinished", "sets.SetBattleStarted") and body["data"]["index"] in (0, 1) \
                and body["data"]["carry"] and not (topic == "sets.SetBattleStarted" and body["data"]["index"] == 0):
            unit = sorted(body["data"]["carry"]["p1"])[0]
            body["data"]["carry"]["p1"][unit]["lp"] += 1
        changed.append((version, topic, orjson.dumps(body)))
    rewrite(path, set_id, changed, rechain)
    report = audit(path, set_id)
    assert report["status"] == "fail"
    if rechain:
        assert "battle 1 started from a carry-over that does not follow from the battles" in report["problems"]
    else:
        assert any(p.startswith("the set log's hash chain breaks at seq") for p in report["problems"])


def other_side(data: dict) -> dict:
    return {**data, "winner": "p1" if data["winner"] == "p2" else "p2"}


def one_more_win(data: dict) -> dict:
    return {**data, "score": {**data["score"], "p1": data["score"]["p1"] + 1}}


@pytest.mark.parametrize("topic, forge, problem", [
    ("sets.SetBattleFinished", other_side, "battle 0: the set records a result or head hash the battle does not have"),
    ("sets.SetEnded", one_more_win, "the set's final score or winner does not follow from its battles"),
])
def test_a_rechained_forged_result_is_caught(ring_set, topic, forge, problem):
    """The set is decided again from its battles: a result the forger wrote, chain and all,
    differs from the decided one."""
    path, set_id = ring_set
    rows = []
    for version, stored_topic, state in set_rows(path, set_id):
        body = orjson.loads(state)
        if stored_topic == topic and body["data"].get("index", 0) == 0:
            body["data"] = forge(body["data"])
        rows.append((version, stored_topic, orjson.dumps(body)))
    rewrite(path, set_id, rows, rechain=True)
    report = audit(path, set_id)
    assert report["status"] == "fail" and problem in report["problems"]
    assert not any(p.startswith("the set log's hash chain breaks") for p in report["problems"])


def test_a_set_left_behind_by_its_last_battle_is_moved_on_and_audits_ok(sqlite_url, monkeypatch, caplog):
    """The set's write of its result failed after its one battle ended: the audit records it first."""
    with Battles(sqlite_url) as battles:
        sets = Sets(battles)
        made = sets.create("deckduel", {"p1": "alice", "p2": "bob"}, games=1)
        RefuseSetResult(battles, monkeypatch)
        play_out(battles, made.battle_id, random.Random(1))
        assert stored_topics(battles, made.set_id) == topics("SetCreated", "SetBattleStarted")
        report = audit_set(battles, sets, made.set_id)
        assert stored_topics(battles, made.set_id) == topics("SetCreated", "SetBattleStarted", "SetBattleFinished",
                                                             "SetEnded")
    assert (report["status"], report["problems"], [b["status"] for b in report["battles"]]) == ("ok", [], ["ok"])
    winner = report["battles"][0]["winner"]
    assert report["winner"] == winner and report["score"] == {"p1": 0, "p2": 0} | {winner: 1}
