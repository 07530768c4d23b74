"""Earlier rat versions this code still plays (DESIGN.md, Rule evolution).

Rat 1.1.0 changed rules, not content: 1.0.0 plays today's content files (the same hash, so
there is nothing to archive in a `releases/` folder), and its behaviour through the rule
choices its battles start with (`state.Rules`). `tests/replays/test_fixtures.py` re-simulates
the battles recorded under each version.
"""
from __future__ import annotations

import functools
from contextlib import nullcontext
from typing import Any

from domain.engine.releases import earlier_release
from domain.engine.ruleset import Ruleset

from .content import CONTENT
from .start import start
from .state import RULES_1_0_0, Rules

# version -> the rule choices that replay it
RELEASES: dict[str, Rules] = {"1.0.0": RULES_1_0_0}


def release(ruleset: Ruleset[Any], version: str) -> Ruleset[Any]:
    """`ruleset` (today's rat) as `version` played: its content is today's, so none need be
    made active around the calls of the rules."""
    return earlier_release(ruleset, version=version, content=CONTENT, playing=nullcontext,
                           start=functools.partial(start, rules=RELEASES[version]))
