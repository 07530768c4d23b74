"""Earlier ring versions this code still plays (DESIGN.md, Rule evolution).

Each keeps its content by hash in `releases/<version>/` (only the files that differ from
today's, and in `absent.txt` those it did not have) and its behaviour in rule parameters
whose defaults the version picks. `tests/replays/test_ring_fixtures.py` re-simulates the
battles recorded under each.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from domain.engine.releases import earlier_release
from domain.engine.ruleset import Ruleset

from .content import Content, playing
from .events import RULES_1_0_0
from .setup import parse_setup

ARCHIVE = Path(__file__).parent / "releases"


# version -> the rule parameters that replay it, where today's defaults differ (1.1.0 changed
# content only)
RELEASES: dict[str, dict[str, Any]] = {"1.0.0": RULES_1_0_0, "1.1.0": {}}


def release(ruleset: Ruleset[Any], version: str) -> Ruleset[Any]:
    """`ruleset` (today's ring) as `version` played."""
    return earlier_release(ruleset, version=version, content=Content(release=ARCHIVE / version), playing=playing,
                           parse_setup=functools.partial(parse_setup, rules=RELEASES[version]))
