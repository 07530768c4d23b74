"""Who ring awaits, the commands each seat may send now (`targets.actions` lists them;
`decide` accepts exactly those), and what the rules play for a seat whose clock ran out."""
from __future__ import annotations

from .commands import ChooseBattlefield, PickRing, PickTeam, RingCommand, Swap
from .content import content
from .decide import outcome
from .state import SEATS, Ring
from .targets import END_TURN, actions, alive, bench, eligible, team_size

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


def default_command(s: Ring, seat: str) -> RingCommand:
    """The move for an awaited seat whose clock ran out (README, "seed silent: clocks"): end
    the turn in battle. Where a choice cannot be passed, the seat's own deck order decides (the
    order it built its deck in, public like every deck): the first units of the deck with LP
    left make the team, the first team unit of the deck still standing enters the Ring or
    replaces a KO'd one; a battlefield is the first by id. Nothing hidden is read (not the
    previewed enemy team), so it tells nobody anything."""
    if s.phase == "battlefield":
        return ChooseBattlefield(battlefield=min(content().battlefields))
    if s.phase == "team":
        team = eligible(s, seat)[:team_size(s, seat)]
        return PickTeam(units=tuple(sorted(s.units[k].unit for k in team)))
    if s.phase == "ring":
        return PickRing(unit=s.units[_first_in_deck(s, seat, alive(s, seat))].unit)
    if s.swap_required:
        return Swap(unit=s.units[_first_in_deck(s, seat, bench(s, seat))].unit)
    return END_TURN


def _first_in_deck(s: Ring, seat: str, keys: list[str]) -> str:
    """Of these unit keys, the one the seat's deck lists first."""
    return min(keys, key=s.side(seat).deck.index)
