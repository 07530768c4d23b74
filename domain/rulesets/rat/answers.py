"""What the rules work out from a state, remembered per state object (`domain.engine.memo`),
so that `awaiting`, `legal_commands`, `decide` and the enemy AI, which ask the same questions
of the same state, work each answer out once. The answers are kept by the content in force:
a kept release plays by its own content."""
from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from domain.engine.memo import StateMemo

from .content import content
from .state import Rat

_BY_STATE = StateMemo()


# The state last asked about, the content it was asked under, and its answers: the rules ask
# about one state several times running. A strong reference, so that no other state can take
# its address while it is kept; its answers are the very dict `_BY_STATE` keeps for it.
_LAST: list[Any] = [None, None, None]


def answers(s: Rat) -> dict[Hashable, Any]:
    """The answers about `s` under the content in force, by question: one lookup gives them
    all, and a caller that works one out adds it here."""
    key = content()
    if _LAST[0] is s and _LAST[1] is key:
        return _LAST[2]
    found: dict[Hashable, Any] | None = _BY_STATE.get(s, key)
    if found is None:
        found = _BY_STATE.put(s, key, {})
    _LAST[0], _LAST[1], _LAST[2] = s, key, found
    return found
