"""The legal commands a ring state lists are kept per state object and per content, so an
earlier release never reads an answer worked out under today's content, or the reverse."""
from __future__ import annotations

from domain.rulesets.ring.content import CONTENT, Content, playing
from domain.rulesets.ring.releases import ARCHIVE
from domain.rulesets.ring.targets import battle_options, listed

from .build import ring, unit


def test_a_state_lists_its_battle_actions_once_per_content():
    given = ring([unit("p1", "shadow_cat", abilities=("brittle_hex",))], [unit("p2", "shellback")])
    today = battle_options(given, "p1")
    assert battle_options(given, "p1") is today                     # worked out once
    assert listed(given, "p1", today[0])
    older = Content(release=ARCHIVE / "1.1.0")
    with playing(older):
        assert not listed(given, "p1", today[0])                     # nothing kept for 1.1.0 yet
        assert battle_options(given, "p1") is not today
    assert older is not CONTENT and battle_options(given, "p1") is today
