"""The first point where two replays diverge, and what each side looks like there."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.engine.battle import BattleState, fold
from domain.engine.errors import RingsideError
from domain.engine.events import OMNISCIENT, Recorded, Viewer, decode_event
from domain.engine.ruleset import get_ruleset

from .format import Replay


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
    """Fold a replay up to `seq` and render that viewer's view; None if it cannot be folded."""
    state: BattleState | None = None
    try:
        for line in replay.events[:seq]:
            event = decode_event(line["type"], line["data"], line.get("v", 1))
            ruleset = get_ruleset((state.created if state else event).ruleset)
            state = fold(ruleset, state, Recorded(line["seq"], event, line["chain"] or ""))
    except (RingsideError, KeyError, TypeError, ValueError):
        return None
    if state is None or state.game is None:
        return None
    return dict(get_ruleset(state.created.ruleset).view(state.game, viewer))
