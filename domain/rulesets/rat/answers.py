"""What the rules work out from a state, remembered per state object (`domain.engine.memo`),
so that `awaiting`, `legal_commands`, `decide` and the enemy AI, which ask the same questions
of the same state, work each answer out once. Every key holds the content in force: a kept
release plays by its own content."""
from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from domain.engine.memo import StateMemo

from .content import content
from .state import Rat

T = TypeVar("T")

_BY_STATE = StateMemo()


def per_state(s: Rat, question: Hashable, work: Callable[[], T]) -> T:
    """`work()`, once per state object, content in force and `question`."""
    found = known(s, question)
    return remember(s, question, work()) if found is None else found


def known(s: Rat, question: Hashable) -> Any:
    """What was worked out for `question` about `s` so far (None: nothing yet)."""
    return _BY_STATE.get(s, (content(), question))


def remember(s: Rat, question: Hashable, answer: T) -> T:
    """Keep `answer` to `question` about `s`, and return it."""
    return _BY_STATE.put(s, (content(), question), answer)
