"""Rule evolution: a kept release is a complete snapshot of its content (by hash) and its
parameter defaults, and a ruleset finds it by version and content hash."""
from __future__ import annotations

import dataclasses
from contextlib import nullcontext
from typing import Annotated

import msgspec
import pytest

from domain.engine.content import Bound, ContentFiles, files_hash, parse_params
from domain.engine.in_force import Older, Release, in_force, rules_in_force
from domain.engine.releases import Kept
from domain.engine.ruleset import Ruleset
from replays.release import CutError, snapshot
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.content import content

RING_1_0_0 = "4e42f7059f26156685327047d0170fbc"


def test_a_kept_release_is_its_complete_content_by_hash_and_its_parameter_defaults(tmp_path):
    # given a ruleset whose releases folder keeps 0.9.0: content {a.toml} and a param default
    kept = Kept(tmp_path / "releases", content=ContentFiles, playing=lambda c: nullcontext(), params=Params)
    files = {"a.toml": b"x = 1\n"}
    snapshot(kept, "0.9.0", files, files_hash(files), {"size": 3}, {})
    # then its content is exactly those files, found under their hash
    assert list(kept) == ["0.9.0"]
    assert kept.content_of("0.9.0").files == files
    assert kept.content_dir(files_hash(files)).is_dir()
    # and cutting it again as it is changes nothing, but with anything else is refused
    snapshot(kept, "0.9.0", files, files_hash(files), {"size": 3}, {})
    with pytest.raises(CutError, match="never rewritten"):
        snapshot(kept, "0.9.0", files, files_hash(files), {"size": 4}, {})


class Params(msgspec.Struct, frozen=True, kw_only=True):
    size: Annotated[int, Bound(1, 9)] = 5
    later: Annotated[str, Older("old")] = "new"


def test_a_field_added_after_a_release_takes_the_value_it_declares_for_older_ones():
    # given release 0.9.0 cut before `later` existed, with size 3 the default then
    release = Release(version="0.9.0", content="", params={"size": 3})
    # then a setup that leaves them out gets 0.9.0's size and `later` as it played: "old"
    with in_force(release):
        assert parse_params({}, Params) == Params(size=3, later="old")
        assert parse_params({"later": "new"}, Params) == Params(size=3, later="new")
        assert rules_in_force(Params) == Params(size=5, later="old")    # its rules name no size
    # and today, the defaults are today's
    assert parse_params({}, Params) == Params(size=5, later="new")


def test_a_release_whose_content_does_not_hash_as_cut_is_refused(tmp_path):
    kept = Kept(tmp_path / "releases", content=ContentFiles, playing=lambda c: nullcontext())
    files = {"a.toml": b"x = 1\n"}
    snapshot(kept, "0.9.0", files, files_hash(files), {}, {})
    (kept.content_dir(files_hash(files)) / "a.toml").write_text("x = 2\n")
    with pytest.raises(ValueError, match="hashes to"):
        kept.build(RULESET, "0.9.0")


def test_ring_finds_each_release_by_version_and_content_hash():
    assert RULESET.release(RULESET.version, RULESET.content_hash) is RULESET
    old = RULESET.release("1.0.0", RING_1_0_0)
    assert (old.version, old.content_hash) == ("1.0.0", RING_1_0_0)
    assert RULESET.release("1.0.0", RULESET.content_hash) is None      # 1.0.0 never had today's content
    assert RULESET.release("0.9.0", RING_1_0_0) is None
    assert RULESET.release("1.0.0", RING_1_0_0) is old                  # built once


def test_a_release_plays_with_its_own_content_and_rule_defaults():
    old = RULESET.release("1.0.0", RING_1_0_0)
    # 1.1.0 put Soul Rend where 1.0.0 had Sap; 1.0.0's setup defaults replay its rules
    assert "sap" in old.content.abilities and "soul_rend" not in old.content.abilities
    setup = old.parse_setup({"p1": {"deck": "ember_rush"}, "p2": {"deck": "iron_wall"}})
    assert (setup.params.strike_window, setup.params.time_tiebreak, setup.params.heal_records) == (
        "down", "hp_left", "asked")
    today = RULESET.parse_setup({"p1": {"deck": "ember_rush"}, "p2": {"deck": "iron_wall"}})
    assert (today.params.strike_window, today.params.time_tiebreak, today.params.heal_records) == (
        "turn", "share_lost", "restored")
    # outside the release's calls, today's content is back
    assert "soul_rend" in content().abilities


# Parts of a ruleset that are not its rules' functions, so a release does not pin them: the
# declared tables and objects, and what only today's code plays (balance runs play today's).
NOT_RULES = {"content", "state_type", "codec", "default_setup", "setup_schema", "sealing", "set_rules", "bots",
             "releases", "commands", "hooks", "matchups", "anytime", "id", "version", "recommended_clock"}


def test_every_rules_function_of_a_release_runs_with_the_release_s_content():
    old = RULESET.release("1.0.0", RING_1_0_0)
    unpinned = [f.name for f in dataclasses.fields(Ruleset) if f.name not in NOT_RULES
                and callable(getattr(old, f.name)) and not hasattr(getattr(old, f.name), "__wrapped__")]
    assert unpinned == []
