"""What every projection shares: the base class, and battle states folded as a view sees them."""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections import OrderedDict

from domain.battles import Battles
from domain.engine.battle import BattleState, fold
from domain.engine.events import Recorded
from domain.engine.ruleset import ruleset_of

from .store import Op, ViewStore


class Folder:
    """Battle states as a projection has seen them, folded event by event (LRU-bounded)."""

    def __init__(self, battles: Battles, size: int = 512):
        self.battles = battles
        self.size = size
        self.states: OrderedDict[str, BattleState] = OrderedDict()

    def advance(self, battle_id: str, rec: Recorded) -> BattleState:
        state = self.states.pop(battle_id, None)
        if state is None or state.seq != rec.seq - 1:
            state = self.battles.load(battle_id, at=rec.seq - 1) if rec.seq > 1 else None
        state = fold(ruleset_of(state.created if state else rec.event), state, rec)
        self.states[battle_id] = state
        while len(self.states) > self.size:
            self.states.popitem(last=False)
        return state


class Projection(ABC):
    name = ""
    topics: frozenset[str] | None = None     # the event topics this view reads; None: every one

    def __init__(self, battles: Battles, store: ViewStore):
        self.battles = battles
        self.store = store

    def key(self, *parts: str) -> str:
        return self.store.key(self.name, *parts)

    def reads(self, rec: Recorded) -> bool:
        return self.topics is None or rec.event.TOPIC in self.topics

    @abstractmethod
    def project(self, owner_id: str, rec: Recorded, position: int, batch_end: bool = True) -> list[Op]:
        """The store operations for one event of battle or set `owner_id`, at log `position`.
        `batch_end` is False when the runner knows more events of the same batch follow: views
        that only show the state between batches can wait for the batch's last event."""
