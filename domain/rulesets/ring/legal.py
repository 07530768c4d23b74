"""Who ring awaits, and the commands each seat may send now (`targets.actions` lists them;
`decide` accepts exactly those)."""
from __future__ import annotations

from .commands import RingCommand
from .decide import outcome
from .state import SEATS, Ring
from .targets import actions

# The side whose turn it is, as `awaiting` answers: one set per seat rather than one per call.
_ONLY = {seat: frozenset((seat,)) for seat in SEATS}
_NOBODY: frozenset[str] = frozenset()


def awaiting(s: Ring) -> frozenset[str]:
    if s.phase == "battle" and s.p1.leader_hp > 0 and s.p2.leader_hp > 0 and s.time_limit is None:
        # `outcome` is None in battle while both leaders stand and time is left: asked before
        # and after every command, this is the question's common case, answered first.
        return _ONLY[s.active] if s.active else _NOBODY
    if outcome(s) is not None:
        return frozenset()
    if s.phase == "battlefield":
        return frozenset((s.initiative,)) if s.battlefield is None and s.initiative else frozenset()
    if s.phase in ("team", "ring"):
        return awaiting_pick(s)
    return frozenset((s.active,)) if s.active else frozenset()


def awaiting_pick(s: Ring) -> frozenset[str]:
    """A pick waits for every seat that has not chosen, or, when the loser of the initiative
    picks first (the preview advantage), for the first of them."""
    if s.choices is None:
        return frozenset()
    waiting = s.choices.waiting_for()
    if s.pick_sequential:
        first = next((seat for seat in s.choices.awaiting if seat in waiting), None)
        return frozenset((first,)) if first else frozenset()
    return waiting


def legal_commands(s: Ring, seat: str) -> list[RingCommand]:
    if seat not in awaiting(s):
        return []
    return actions(s, seat)
