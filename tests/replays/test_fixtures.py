"""Every replay recorded as a rule-evolution fixture (`tests/replays/record.py`) verifies by
re-simulation under the version it pins, whatever the installed rules have become since; and
the installed version of every ruleset has its fixtures, recorded before its rules change."""
from __future__ import annotations

from pathlib import Path

import pytest

from domain.engine.ruleset import all_rulesets, get_ruleset
from replays.format import read
from replays.verify import verify

FIXTURES = Path(__file__).parent / "fixtures"
VERSIONS = sorted(p for p in FIXTURES.iterdir() if p.is_dir())
EVERY = sorted(f for d in VERSIONS for f in d.glob("*.jsonl"))


def test_every_installed_ruleset_version_has_its_fixtures():
    recorded = {p.name for p in VERSIONS}
    missing = [f"{r.id}_{v}" for r in all_rulesets().values() for v in (*r.earlier_versions, r.version)
               if f"{r.id}_{v}" not in recorded]
    assert missing == []


@pytest.mark.parametrize("folder", VERSIONS, ids=lambda p: p.name)
def test_a_fixture_folder_names_a_version_this_code_plays(folder):
    ruleset_id, version = folder.name.rsplit("_", 1)
    ruleset = get_ruleset(ruleset_id)
    assert version == ruleset.version or version in ruleset.earlier_versions


@pytest.mark.parametrize("path", EVERY, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_fixture_verifies_under_the_version_it_pins(path):
    replay = read(path)
    ruleset_id, version = path.parent.name.rsplit("_", 1)
    assert (replay.header["ruleset"]["id"], replay.header["ruleset"]["version"]) == (ruleset_id, version)
    report = verify(replay)
    assert (report.status, report.reason) == ("ok", None)
    assert report.head == replay.events[-1]["chain"]
