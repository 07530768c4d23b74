"""A set's state, folded from its events. `evolve` only records what the events say; what a
finished battle means for the set is decided in `decide.py`.

A set's clock is public and stored data: `SetCreated.public_setup` holds it under `clock`
(the time control's fields), beside the engine's options. It is not in the set's `setup`,
which every battle of the set starts from and a set file checks against the rules. A set
recorded before clocks has none there, and plays unclocked as it always did."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import singledispatch
from typing import Any

import msgspec

from domain.engine.battle import record, seat_table
from domain.engine.chain import GENESIS
from domain.engine.clock import ClockSpec
from domain.engine.events import Event, Recorded
from domain.engine.ruleset import ruleset_of
from domain.engine.table import Side

from .events import SetBattleFinished, SetBattleStarted, SetCreated, SetEnded


class SetBattle(msgspec.Struct, frozen=True, kw_only=True):
    index: int
    battle_id: str
    carry: dict[str, Any] | None
    winner: Side | None = None
    head: str | None = None

    @property
    def finished(self) -> bool:
        return self.head is not None


class SetState(msgspec.Struct, frozen=True, kw_only=True):
    set_id: str
    seq: int
    chain: str
    created: SetCreated
    battles: tuple[SetBattle, ...] = ()
    carry: dict[str, Any] | None = None
    ended: SetEnded | None = None

    @property
    def in_progress(self) -> SetBattle | None:
        """The battle being played, whose result the set has not recorded yet."""
        if self.ended is not None or not self.battles or self.battles[-1].finished:
            return None
        return self.battles[-1]

    @property
    def public(self) -> bool:
        """Once a set has ended it is public, as its battles are, unless it was created private.
        Until then its head hash is shown to nobody: it covers the set's server-only setup."""
        return self.ended is not None and not self.created.private


@singledispatch
def evolve(event: Event, state: SetState) -> SetState:
    raise TypeError(f"not a set event: {event.TOPIC}")


@evolve.register
def _(event: SetBattleStarted, state: SetState) -> SetState:
    started = SetBattle(index=event.index, battle_id=event.battle_id, carry=event.carry)
    return msgspec.structs.replace(state, battles=state.battles + (started,))


@evolve.register
def _(event: SetBattleFinished, state: SetState) -> SetState:
    done = msgspec.structs.replace(state.battles[event.index], winner=event.winner, head=event.head)
    battles = state.battles[:event.index] + (done,) + state.battles[event.index + 1:]
    return msgspec.structs.replace(state, battles=battles, carry=event.carry)


@evolve.register
def _(event: SetEnded, state: SetState) -> SetState:
    return msgspec.structs.replace(state, ended=event)


def evolve_set(state: SetState | None, rec: Recorded) -> SetState:
    """The set after one of its recorded events (a set starts with `SetCreated`)."""
    event = rec.event
    if state is None:
        assert isinstance(event, SetCreated), event.TOPIC
        return SetState(set_id=event.set_id, seq=rec.seq, chain=rec.chain, created=event)
    return msgspec.structs.replace(evolve(event, state), seq=rec.seq, chain=rec.chain)


def chain_events(state: SetState | None, events: Iterable[Event]) -> tuple[SetState, list[Recorded]]:
    """Record `events` after the set's head, each hash-chained to the one before, and fold them."""
    records = []
    for event in events:
        rec = record(state.chain if state else GENESIS, state.seq + 1 if state else 1, event)
        state = evolve_set(state, rec)
        records.append(rec)
    assert state is not None, "no events to record"
    return state, records


SET_CLOCK = "clock"      # the key of a set's clock in its public setup


def set_clock(created: SetCreated) -> ClockSpec | None:
    """The clock every battle of the set runs (None: the set has no clock)."""
    raw = created.public_setup.get(SET_CLOCK)
    return None if raw is None else msgspec.convert(raw, ClockSpec)


def set_sides(created: SetCreated) -> tuple[Side, ...]:
    """The set's sides in table order: every battle of a set seats the same table."""
    return seat_table(ruleset_of(created), created.setup or {}).side_ids


def score(state: SetState) -> dict[Side, int]:
    """Wins per side (a side of one seat is named like its seat); draws count for nobody."""
    wins = dict.fromkeys(set_sides(state.created), 0)
    for battle in state.battles:
        if battle.winner is not None:
            wins[battle.winner] += 1
    return wins


def set_over(state: SetState) -> bool:
    """`all`: every game is played. `best_of`: a side has won more than half, or all are played."""
    played = sum(1 for b in state.battles if b.finished)
    if played >= state.created.games:
        return True
    return state.created.mode == "best_of" and max(score(state).values()) > state.created.games // 2


def set_winner(tally: Mapping[Side, int]) -> Side | None:
    """The side with the most wins; None when the lead is shared."""
    best = max(tally.values())
    leaders = [side for side, wins in tally.items() if wins == best]
    return leaders[0] if len(leaders) == 1 else None
