"""A replay written before `deckduel.DamageFlipped` moved to class version 2 (its `defense`
became `icons`) still verifies, imports and plays, and keeps its bytes."""
from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from domain.battles import Battles
from domain.engine.errors import ReplayError
from domain.engine.events import OMNISCIENT, Viewer, decode_event
from domain.rulesets.deckduel.events import DamageFlipped
from replays.diff import view_at
from replays.format import build, dumps, read
from replays.importer import import_replay
from replays.verify import decode, verify

from .helpers import clone, match, replay_of

FIXTURE = Path(__file__).parent / "fixtures" / "deckduel_damage_flipped_v1.jsonl"


def flips(replay):
    return [line for line in replay.events if line["type"] == "deckduel.DamageFlipped"]


def test_the_fixture_holds_version_1_data():
    old = read(FIXTURE)
    assert DamageFlipped.class_version == 2
    assert flips(old) and all("defense" in f["data"] and "icons" not in f["data"] and "v" not in f for f in flips(old))


def test_an_old_replay_verifies_under_the_new_event_version():
    report = verify(read(FIXTURE))
    assert (report.status, report.winner) == ("ok", "p1")
    assert report.head == read(FIXTURE).events[-1]["chain"]


def test_old_events_are_upcast_for_play_and_keep_their_written_bytes():
    records = decode(read(FIXTURE).events)
    old = [r for r in records if isinstance(r.event, DamageFlipped)]
    assert [r.event.icons for r in old] == [r.written["defense"] for r in old]
    assert all(r.version == 1 for r in old)


def test_an_imported_old_replay_plays_and_exports_byte_for_byte(tmp_path):
    raw = FIXTURE.read_bytes()
    with Battles(f"sqlite:///{tmp_path / 'old.db'}") as store:
        done = import_replay(store, read(FIXTURE))
        state = store.load(done.battle_id)
        assert dumps(build(state, store.records(done.battle_id))) == raw
        assert state.outcome.winner == "p1" and state.seq == len(read(FIXTURE).events)
        for seq in (10, 20, state.seq):       # time travel across old events
            assert store.view(done.battle_id, Viewer(seat="p1"), at=seq)["seq"] == seq
    assert view_at(read(FIXTURE), state.seq, OMNISCIENT) is not None


def test_a_changed_old_event_is_still_caught_at_its_seq():
    bad = clone(read(FIXTURE))
    index = bad.events.index(flips(bad)[0])
    bad.events[index]["data"]["defense"] += 1
    report = verify(bad)
    assert (report.status, report.seq) == ("fail", index + 1)


def test_new_replays_mark_the_new_version_on_its_lines():
    lines = [orjson.loads(line) for line in dumps(replay_of(match(3, seed="schema"))).splitlines()[1:]]
    flipped = [line for line in lines if line["type"] == "deckduel.DamageFlipped"]
    assert flipped and all(line["v"] == 2 and "icons" in line["data"] for line in flipped)
    assert all("v" not in line for line in lines if line["type"] != "deckduel.DamageFlipped")


def test_data_that_is_not_of_the_version_it_claims_is_a_replay_error():
    # v2 data (icons) sent as v1: the v1 -> v2 upcaster finds no `defense` to rename
    v2 = {"seat": "p2", "card": "parry", "icons": 2, "perfect": False}
    with pytest.raises(ReplayError, match="deckduel.DamageFlipped: not v1 data"):
        decode_event("deckduel.DamageFlipped", v2, 1)
