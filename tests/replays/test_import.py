"""Importing refuses what it cannot store faithfully, and says why; nothing is written."""
from __future__ import annotations

import pytest

from domain.battles import Battles
from replays.format import build
from replays.importer import ImportRefused, import_replay
from tests.golden.deckduel_playthroughs import perfect_and_counter

from .helpers import clone, match, rechain, replay_of


@pytest.fixture
def store(tmp_path):
    with Battles(f"sqlite:///{tmp_path / 'imports.db'}") as battles:
        yield battles


def test_a_battle_id_that_is_not_a_uuid_is_refused(store):
    state, records = perfect_and_counter()
    with pytest.raises(ImportRefused, match="battle id 'golden-perfect-and-counter' is not a UUID"):
        import_replay(store, build(state, records))
    assert list(store.battle_ids()) == []


def test_a_replay_pinning_another_ruleset_version_is_refused_as_unverifiable(store):
    replay = clone(replay_of(match(1, seed="import")))
    replay.header["ruleset"]["version"] = "0.9.0"
    replay.events[0]["data"]["ruleset_version"] = "0.9.0"
    rechain(replay.events)                       # a genuine 0.9.0 replay, as far as the chain goes
    with pytest.raises(ImportRefused, match="cannot be verified here: the replay pins deckduel 0.9.0"):
        import_replay(store, replay)
    assert list(store.battle_ids()) == []


def test_an_unfinished_replay_is_refused(store):
    replay = clone(replay_of(match(2, seed="import")))
    del replay.events[-1]
    with pytest.raises(ImportRefused, match="the battle has not ended"):
        import_replay(store, replay)
    assert list(store.battle_ids()) == []
