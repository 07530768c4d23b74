"""The first point where two replays diverge, and what each side looks like there."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.engine.events import OMNISCIENT, Viewer
from domain.engine.ruleset import ruleset_of

from .format import Replay
from .seek import UNFOLDABLE, state_at


@dataclass(frozen=True)
class Divergence:
    seq: int
    left: dict[str, Any] | None
    right: dict[str, Any] | None


def first_divergence(a: Replay, b: Replay) -> Divergence | None:
    for i in range(max(len(a.events), len(b.events))):
        left = a.events[i] if i < len(a.events) else None
        right = b.events[i] if i < len(b.events) else None
        if _content(left) != _content(right):
            return Divergence(i + 1, left, right)
    return None


def _content(line: dict[str, Any] | None) -> Any:
    return None if line is None else (line.get("seq"), line.get("type"), line.get("data"))


def view_at(replay: Replay, seq: int, viewer: Viewer = OMNISCIENT) -> dict[str, Any] | None:
    """The ruleset's view for `viewer` after event `seq`; None if the replay cannot be folded
    there (a redacted one, or one pinning rules not installed)."""
    try:
        state = state_at(replay, seq)
        if state.game is None:
            return None
        return dict(ruleset_of(state.created).view(state.game, viewer))
    except UNFOLDABLE:
        return None
