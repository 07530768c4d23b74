"""The one read path: whom a caller may look at a battle as, how far that viewer may see now,
and every read built on that.

A battle created with `spectator_delay: N` holds spectators N actions behind until it ends.
The last seq a viewer may see now is its horizon; the view (now or at a seq), the event log,
the replay and the viewer's timeline all stop there. The API and its streams, the CLI and the
projections read through a `Sight`, so a delayed battle stops at the same seq on every channel.
"""
from __future__ import annotations

import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from domain.access import client_viewer, held_back, token_seat
from domain.engine.battle import BattleCreated, BattleState
from domain.engine.errors import SeqOutOfRange
from domain.engine.events import Recorded, Viewer, wire_event
from domain.engine.timing import clock_view
from domain.engine.ruleset import Ruleset, ruleset_of
from domain.replay import Replay, build


class BattleLog(Protocol):
    """What the read path reads battles from (domain/loader.py's `Loader`)."""

    def load(self, battle_id: str, at: int | None = None) -> BattleState: ...

    def records(self, battle_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[Recorded]: ...

    def created(self, battle_id: str) -> BattleCreated: ...

    def ruleset_of(self, state: BattleState) -> Ruleset[Any]: ...


def view_json(state: BattleState, viewer: Viewer) -> dict[str, Any]:
    """The view of a battle's state for `viewer`: everything, once the battle is public. The
    state is None while the create batch has not started the game yet (its first seqs)."""
    shown = {"battle_id": state.battle_id, "ruleset": state.created.ruleset, "seq": state.seq,
             "players": state.created.players, "outcome": msgspec.to_builtins(state.outcome),
             "state": game_view(state, viewer)}
    if state.clock is not None:
        shown["clock"] = clock_view(state.clock, state.outcome is not None)
    return shown


class RecentViews:
    """The game views of the last few (state, viewer) pairs asked for: the battle views and
    the AI memory render the same seat views of each folded state, and readers of one cached
    state ask for its view again and again. Only a few are kept: a view is a few dozen
    objects, and holding one for every state in memory made the collector's full passes long."""

    def __init__(self, size: int = 256):
        self.size = size
        self._views: OrderedDict[tuple[int, Viewer], tuple[BattleState, Mapping[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, state: BattleState, shown: Viewer) -> Mapping[str, Any] | None:
        with self._lock:
            found = self._views.get((id(state), shown))
            if found is None or found[0] is not state:      # a later object at the same address
                return None
            self._views.move_to_end((id(state), shown))
            return found[1]

    def put(self, state: BattleState, shown: Viewer, view: Mapping[str, Any]) -> Mapping[str, Any]:
        with self._lock:
            self._views[(id(state), shown)] = (state, view)
            while len(self._views) > self.size:
                self._views.popitem(last=False)
        return view


_VIEWS = RecentViews()


def game_view(state: BattleState, viewer: Viewer) -> Mapping[str, Any] | None:
    """The ruleset's view of the game for `viewer` (everything once the battle is public),
    worked out once for recently viewed states. Callers must not change what it returns."""
    if state.game is None:
        return None
    shown = viewer if not state.public else Viewer(seat=viewer.seat, omniscient=True)
    found = _VIEWS.get(state, shown)
    if found is None:
        found = _VIEWS.put(state, shown, ruleset_of(state.created).view(state.game, shown))
    return found


@dataclass(frozen=True)
class Sight:
    """One viewer's look at a battle as of one state of it (normally the latest). Every read
    stops at `horizon`, the last seq the viewer may see then, and is redacted for the viewer."""
    battles: BattleLog
    state: BattleState
    viewer: Viewer
    horizon: int

    @property
    def battle_id(self) -> str:
        return self.state.battle_id

    def seen(self) -> BattleState:
        """The battle as far as the viewer may see it: `state`, or the state at the horizon."""
        if self.horizon == self.state.seq:
            return self.state
        return self.battles.load(self.battle_id, at=self.horizon)

    def view(self, at: int | None = None) -> dict[str, Any]:
        """The view now, or right after event `at` (time travel); a seq past the horizon is
        refused as one the battle has not reached, so a held-back seq is not given away."""
        if at is None:
            shown = view_json(self.seen(), self.viewer)
            if self.horizon < self.state.seq and "clock" in shown:
                # as of the horizon: a client must not tick it on (a copy: the clock's view is shared)
                shown["clock"] = {**shown["clock"], "held_back": True}
            return shown
        if at > self.horizon:
            raise SeqOutOfRange(f"seq {at} is not visible yet; the last visible seq is {self.horizon}",
                                seq=at, last=self.horizon)
        return view_json(self.battles.load(self.battle_id, at), self.viewer)

    def records(self, from_seq: int = 1) -> list[Recorded]:
        """The stored records from `from_seq` to the horizon."""
        if from_seq > self.horizon:
            return []
        return self.battles.records(self.battle_id, from_seq, self.horizon)

    def events(self, from_seq: int = 1) -> list[dict[str, Any]]:
        """The event log from `from_seq` to the horizon, as wire events redacted for the viewer."""
        return [wire_event(r, self.viewer, self.state.public) for r in self.records(from_seq)]

    def replay(self) -> Replay:
        """The replay up to the horizon: full once the battle is public (or for an omniscient
        viewer), else redacted for the viewer with the seed withheld."""
        return build(self.seen(), self.records(), self.viewer)


class Reading:
    """The read path over one store. Keeps the action seqs of the battles it holds back."""

    def __init__(self, battles: BattleLog, kept: int = 256):
        self.battles = battles
        self.actions = ActionSeqs(battles, kept)

    def sight(self, battle_id: str, viewer: Viewer) -> Sight:
        """`viewer`'s look at the battle now, taken as given: the CLI's operator may look as
        anyone. A client's look goes through `client_sight`."""
        return self.sight_of(self.battles.load(battle_id), viewer)

    def sight_of(self, state: BattleState, viewer: Viewer) -> Sight:
        """`viewer`'s look at the battle as of `state` (a projection folds the log event by event)."""
        return Sight(self.battles, state, viewer, self.horizon(state, viewer))

    def client_sight(self, battle_id: str, token: str | None, view_as: str | None = None) -> Sight:
        """The look a client asks for with its seat token (or none) and `as` (domain/access.py)."""
        state = self.battles.load(battle_id)
        return self.sight_of(state, client_viewer(state, token, view_as))

    def token_seat(self, battle_id: str, token: str, state: BattleState | None = None) -> str:
        """The seat `token` opens (in `state` when the caller has it); Forbidden when it opens
        none of this battle's."""
        return token_seat(state.created if state is not None else self.battles.created(battle_id), token)

    def horizon(self, state: BattleState, viewer: Viewer) -> int:
        """The last seq `viewer` may see as of `state`: a held-back spectator sees up to just
        before the battle's `spectator_delay` latest actions (all before the first, while
        there are fewer); everyone else sees every seq."""
        if not held_back(state, viewer):
            return state.seq
        actions = self.actions.upto(state.battle_id, state.seq)
        if not actions:
            return state.seq
        return actions[max(0, len(actions) - state.spectator_delay)] - 1


class ActionSeqs:
    """Each battle's action seqs (the events that start a command's batch), kept for the
    `kept` battles read most recently. A battle's events never change once written, so a
    later read only looks at the events after the last one it has read."""

    def __init__(self, battles: BattleLog, kept: int):
        self.battles = battles
        self.kept = kept
        self._known: OrderedDict[str, tuple[int, tuple[int, ...]]] = OrderedDict()
        self._lock = threading.Lock()

    def upto(self, battle_id: str, seq: int) -> tuple[int, ...]:
        """The battle's action seqs up to `seq`, which the store has reached."""
        with self._lock:
            read, seqs = self._known.get(battle_id, (0, ()))
            if battle_id in self._known:
                self._known.move_to_end(battle_id)
        if read < seq:
            # Read outside the lock, so one battle's read does not hold up another's.
            records = self.battles.records(battle_id, read + 1, seq)
            seqs += tuple(r.seq for r in records if r.event.starts_batch())
            read = records[-1].seq if records else read
            self._keep(battle_id, read, seqs)
        return seqs[:bisect_right(seqs, seq)]

    def _keep(self, battle_id: str, read: int, seqs: tuple[int, ...]) -> None:
        with self._lock:
            # A concurrent reader may have kept a longer prefix already; keep the longest.
            if self._known.get(battle_id, (0, ()))[0] < read:
                self._known[battle_id] = (read, seqs)
                self._known.move_to_end(battle_id)
            while len(self._known) > self.kept:
                self._known.popitem(last=False)
