"""What the rules work out from a state, remembered for the last few state objects asked
about, so that `awaiting`, `legal_commands`, `decide` and the enemy AI, which ask the same
questions of the same state, work each answer out once. The answers are kept by the content
in force: a kept release plays by its own content.

A battle asks about one state several times running, then about the next one: the state a
command leads to is the one the next command is chosen on. So two slots serve it, without
the weak reference per state that remembering every live state would cost.
"""
from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from .content import content
from .state import Rat

# The states last asked about, each with the content it was asked under and its answers, the
# latest first. Strong references: no other state can take the address of one kept here.
_LAST: list[Any] = [None, None, None]
_BEFORE: list[Any] = [None, None, None]


def answers(s: Rat) -> dict[Hashable, Any]:
    """The answers about `s` under the content in force, by question: one lookup gives them
    all, and a caller that works one out adds it here."""
    key = content()
    last = _LAST
    if last[0] is s and last[1] is key:
        return last[2]
    before = _BEFORE
    if before[0] is s and before[1] is key:
        found = before[2]
    else:
        found = {}
    before[0], before[1], before[2] = last
    last[0], last[1], last[2] = s, key, found
    return found
