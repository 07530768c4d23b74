"""Ring replays recorded under ring 1.0.0, before any rule or content of ring changes: three
battles (random, greedy and memory bots) and the three battles of a set. Each must keep
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

FIXTURES = Path(__file__).parent / "fixtures" / "ring_1.0.0"
BATTLES = ("random", "greedy", "memory", "set_battle_1", "set_battle_2", "set_battle_3")
PINNED = {"id": "ring", "version": "1.0.0", "content_hash": "4e42f7059f26156685327047d0170fbc"}


@pytest.mark.parametrize("name", BATTLES)
def test_a_ring_1_0_0_replay_pins_its_version_and_verifies(name):
    replay = read(FIXTURES / f"{name}.jsonl")
    assert replay.header["ruleset"] == PINNED
    report = verify(replay)
    assert (report.status, report.reason) == ("ok", None)
    assert report.head == replay.events[-1]["chain"]
    assert report.winner in ("p1", "p2")


@pytest.mark.parametrize("name", BATTLES)
def test_a_ring_1_0_0_replay_plays_back_to_its_end(name, tmp_path):
    replay = read(FIXTURES / f"{name}.jsonl")
    with Battles(f"sqlite:///{tmp_path / 'old.db'}") as store:
        done = import_replay(store, replay)
        state = store.load(done.battle_id)
        assert state.outcome is not None and state.seq == len(replay.events)
        assert store.ruleset_of(state).version == "1.0.0" != RULESET.version    # its own rules, not today's
        for seq in (2, state.seq // 2, state.seq):
            assert store.view(done.battle_id, Viewer(seat="p1"), at=seq)["seq"] == seq


@pytest.mark.parametrize("name", ("memory", "set_battle_2"))
def test_a_ring_1_0_0_replay_shows_at_any_seq_from_the_file(name, tmp_path):
    path = FIXTURES / f"{name}.jsonl"
    last = len(read(path).events)
    for seq in (last // 2, last):
        shown = run_json("replay", "show", str(path), "--at", str(seq), "--as", "p2", cwd=tmp_path)
        assert shown["seq"] == seq
    assert shown["view"]["max_turns"] == 80 and shown["view"]["awaiting"] == []    # the end, under 1.0.0


def test_the_1_0_0_set_carries_each_battle_into_the_next(tmp_path):
    """Each battle of the set starts from the set's setup with the last battle's carry-over."""
    base = RULESET.fresh_setup()
    carry = None
    with Battles(f"sqlite:///{tmp_path / 'set.db'}") as store:
        for i in (1, 2, 3):
            replay = read(FIXTURES / f"set_battle_{i}.jsonl")
            setup = battle_setup(RULESET, base, carry)
            for seat in ("p1", "p2"):     # the carry-over enters as each seat's condition (LP, EXS)
                assert replay.header["setup"][seat].get("condition") == setup[seat].get("condition"), (i, seat)
            state = store.load(import_replay(store, replay).battle_id)
            carry = carry_after(RULESET, carry, setup, state)
