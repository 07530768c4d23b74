"""Rule evolution: an earlier release's content is today's files overlaid by the files it
kept, and a ruleset finds an earlier release by version and content hash."""
from __future__ import annotations

from domain.engine.content import ContentFiles, files_hash
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.content import content

RING_1_0_0 = "4e42f7059f26156685327047d0170fbc"


def test_a_release_folder_overlays_the_files_it_changed_and_drops_those_it_lacked(tmp_path):
    # given today's a.toml and b.toml, and a release that had another a.toml and no b.toml
    today, old = tmp_path / "content", tmp_path / "releases" / "0.9.0"
    today.mkdir()
    old.mkdir(parents=True)
    (today / "a.toml").write_text("x = 2\n")
    (today / "b.toml").write_text("y = 1\n")
    (old / "a.toml").write_text("x = 1\n")
    (old / "absent.txt").write_text("b.toml\n")
    # then the release's files are its own, and so is its hash
    released = ContentFiles(today, release=old)
    assert released.files == {"a.toml": b"x = 1\n"}
    assert released.hash == files_hash({"a.toml": b"x = 1\n"}) != ContentFiles(today).hash


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
