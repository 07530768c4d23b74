"""Ring replays recorded under each earlier ring version, before its rules or content changed:
three battles (random, greedy and memory bots) and the three battles of a set. Each must keep
verifying by re-simulation and playing back under its own pinned version and content hash,
however the installed ring evolves (DESIGN.md, "Rule evolution")."""
from __future__ import annotations

from pathlib import Path

import pytest

from domain.battles import Battles
from domain.engine.events import Viewer
from domain.rulesets.ring import RULESET
from domain.sets import battle_setup, carry_after
from replays.format import read
from replays.importer import import_replay
from replays.verify import verify
from tests.cli.helpers import run_json

FIXTURES = Path(__file__).parent / "fixtures"
BATTLES = ("random", "greedy", "memory", "set_battle_1", "set_battle_2", "set_battle_3")
HASHES = {"1.0.0": "4e42f7059f26156685327047d0170fbc", "1.1.0": "8325d49c8ac007d034f8e277fe751d43",
          "1.2.0": "71ac78c573fdb1fd9202a0be1fbe940c", "1.3.0": "2e037cc574765f622358096ee9aefe1a"}
EVERY = [(version, name) for version in HASHES for name in BATTLES]


def fixture(version: str, name: str) -> Path:
    return FIXTURES / f"ring_{version}" / f"{name}.jsonl"


def test_every_earlier_ring_version_has_its_fixtures():
    recorded = sorted(p.name.removeprefix("ring_") for p in FIXTURES.glob("ring_*"))
    assert recorded == sorted([*RULESET.earlier_versions, RULESET.version])
    assert RULESET.earlier_versions == list(HASHES)


@pytest.mark.parametrize(("version", "name"), EVERY)
def test_an_earlier_ring_replay_pins_its_version_and_verifies(version, name):
    replay = read(fixture(version, name))
    assert replay.header["ruleset"] == {"id": "ring", "version": version, "content_hash": HASHES[version]}
    report = verify(replay)
    assert (report.status, report.reason) == ("ok", None)
    assert report.head == replay.events[-1]["chain"]
    assert report.winner in ("p1", "p2")


@pytest.mark.parametrize(("version", "name"), EVERY)
def test_an_earlier_ring_replay_plays_back_to_its_end(version, name, tmp_path):
    replay = read(fixture(version, name))
    with Battles(f"sqlite:///{tmp_path / 'old.db'}") as store:
        done = import_replay(store, replay)
        state = store.load(done.battle_id)
        assert state.outcome is not None and state.seq == len(replay.events)
        assert store.ruleset_of(state).version == version != RULESET.version    # its own rules, not today's
        for seq in (2, state.seq // 2, state.seq):
            assert store.view(done.battle_id, Viewer(seat="p1"), at=seq)["seq"] == seq


@pytest.mark.parametrize(("version", "name"), [("1.0.0", "memory"), ("1.0.0", "set_battle_2"), ("1.1.0", "greedy"),
                                             ("1.2.0", "set_battle_3")])
def test_an_earlier_ring_replay_shows_at_any_seq_from_the_file(version, name, tmp_path):
    path = fixture(version, name)
    last = len(read(path).events)
    for seq in (last // 2, last):
        shown = run_json("replay", "show", str(path), "--at", str(seq), "--as", "p2", cwd=tmp_path)
        assert shown["seq"] == seq
    assert shown["view"]["max_turns"] == 80 and shown["view"]["awaiting"] == []    # the end, under its version


@pytest.mark.parametrize("version", HASHES)
def test_an_earlier_set_carries_each_battle_into_the_next(version, tmp_path):
    """Each battle of the set starts from the set's setup with the last battle's carry-over."""
    base = RULESET.fresh_setup()
    carry = None
    with Battles(f"sqlite:///{tmp_path / 'set.db'}") as store:
        for i in (1, 2, 3):
            replay = read(fixture(version, f"set_battle_{i}"))
            setup = battle_setup(RULESET, base, carry)
            for seat in ("p1", "p2"):     # the carry-over enters as each seat's condition (LP, EXS)
                assert replay.header["setup"][seat].get("condition") == setup[seat].get("condition"), (i, seat)
            state = store.load(import_replay(store, replay).battle_id)
            carry = carry_after(RULESET, carry, setup, state)
