"""Where a battle's actions and turns begin: the marks a replay viewer steps and jumps by.

Nothing here knows a game. An action is an event that starts a command batch (the echo of
a command). A turn begins at the event after which the ruleset's declared `turn(state)` changes (the
same turn numbers the AI memory records). The turn number is public in every view, so the
marks tell no viewer anything hidden.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from domain.engine.battle import BattleState, fold
from domain.engine.events import Recorded
from domain.engine.ruleset import Ruleset


@dataclass
class Timeline:
    """A battle folded event by event, with the seqs where actions and turns begin."""
    ruleset: Ruleset[Any]
    state: BattleState | None = None
    turn: int = 0
    actions: list[int] = field(default_factory=list)
    turns: list[tuple[int, int]] = field(default_factory=list)     # (turn number, seq)

    @property
    def seq(self) -> int:
        return self.state.seq if self.state is not None else 0

    def feed(self, records: Iterable[Recorded]) -> "Timeline":
        """Fold the records that follow the current seq; earlier ones are skipped."""
        for rec in records:
            if rec.seq <= self.seq:
                continue
            self.state = fold(self.ruleset, self.state, rec)
            if rec.event.starts_batch():
                self.actions.append(rec.seq)
            if self.state.game is None:
                continue
            turn = self.ruleset.turn(self.state.game)
            if turn != self.turn:
                self.turn = turn
                self.turns.append((turn, rec.seq))
        return self

    def marks(self, limit: int) -> dict[str, Any]:
        """The marks up to seq `limit` (what the viewer may see), as JSON."""
        return {"actions": [seq for seq in self.actions if seq <= limit],
                "turns": [{"turn": turn, "seq": seq} for turn, seq in self.turns if seq <= limit]}
