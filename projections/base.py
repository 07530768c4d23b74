"""What every projection shares: the base class, and battle states folded as a view sees them."""
from __future__ import annotations

import threading
import weakref
from abc import ABC, abstractmethod
from collections import OrderedDict

from domain.battles import Battles
from domain.engine.battle import BattleState, fold
from domain.engine.events import Recorded
from domain.engine.ruleset import ruleset_of

from .ops import Op
from .store import ViewStore


class Folder:
    """Battle states as the projections have seen them, folded event by event (LRU-bounded).

    One per `Battles` (`Folder.of`), shared by every view that folds states: the views read
    the same events, so the second to ask for a state finds it folded. It holds as many
    battles as the state cache: fewer, and a busy service would reload a battle from the
    store for nearly every batch."""

    _shared: "weakref.WeakKeyDictionary[Battles, Folder]" = weakref.WeakKeyDictionary()
    _shared_lock = threading.Lock()

    def __init__(self, battles: Battles, size: int | None = None):
        self.battles = battles
        self.size = size if size is not None else battles.cache.size
        self.states: OrderedDict[str, BattleState] = OrderedDict()
        self.loads = 0

    @classmethod
    def of(cls, battles: Battles) -> "Folder":
        with cls._shared_lock:
            found = cls._shared.get(battles)
            if found is None:
                found = cls._shared[battles] = cls(battles)
            return found

    def advance(self, battle_id: str, rec: Recorded) -> BattleState:
        """The state right after `rec`."""
        state = self.states.pop(battle_id, None)
        if state is not None and state.seq == rec.seq:
            pass                                # another view has folded it already
        else:
            if state is None or state.seq != rec.seq - 1:
                state = self._before(battle_id, rec.seq)
            state = fold(ruleset_of(state.created if state else rec.event), state, rec)
        self.states[battle_id] = state
        while len(self.states) > self.size:
            self.states.popitem(last=False)
        return state

    def _before(self, battle_id: str, seq: int) -> BattleState | None:
        """The state right before `seq`, from the store (seeking from a snapshot)."""
        if seq == 1:
            return None
        self.loads += 1
        return self.battles.load(battle_id, at=seq - 1)


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
    def project(self, owner_id: str, rec: Recorded, position: int, batch_end: bool = True,
                superseded: bool = False) -> list[Op]:
        """The store operations for one event of battle or set `owner_id`, at log `position`.
        `batch_end` is False when the runner knows more events of the same batch follow: views
        that only show the state between batches can wait for the batch's last event.
        `superseded` is True when it knows a later batch of the same battle follows too: views
        that show only the latest state can leave this one out."""
