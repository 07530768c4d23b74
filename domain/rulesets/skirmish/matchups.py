"""The matchups a balance run plays (`ringside balance`): every ordered pair of two different
duel teams, so each pairing is played from both seats.

The content names parties, not teams, so the teams are each playable party whole (its four
characters, one of each class), named by the party, and the default setup's two teams (three
of a party and one Iron Vanguard member), named by their party and the odd member out:
"Thornwood Wardens + Brick".

`tally` counts what a side did on the board: its turns, moves, tiles walked, attacks and cards
played, and how it used the board (`Standing`):
- "walks into reach": walks that end exactly at a standing opponent's reach, where that opponent
  can strike without walking (seed 001 has no zones of control; this is its nearest thing);
- "walks out of reach": walks from such a tile to one no standing opponent reaches;
- "attacks countered": its attacks the defender struck back (a unit that strikes a foe who has
  it exactly at reach is countered: the board's price for standing in reach).
Seed 001's board has no elevation and no terrain but rock, which is never entered, so nothing
is counted for those."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from domain.engine.events import Event
from domain.engine.ruleset import Matchup, every_pairing

from .content import content
from .events import (Attacked, CardPlayed, PlacementsRevealed, SkirmishStarted, Struck, TurnStarted,
                     UnitFainted, UnitMoved, UnitReturned)
from .setup import DEFAULT_SETUP
from .state import SEATS


def matchups() -> list[Matchup]:
    teams = [*party_teams(), *(DEFAULT_SETUP[seat]["team"] for seat in SEATS)]
    return every_pairing({team_name(team): {"team": list(team)} for team in teams}, {"mode": "duel"})


def party_teams() -> list[list[str]]:
    """Each party a player may field, whole, in the content's order."""
    return [[c.id for c in content().characters.values() if c.party == party.id]
            for party in content().parties.values() if not party.raid_only]


def team_name(team: Sequence[str]) -> str:
    """The name of the team's main party (three of its characters or more), and the name of
    each member from elsewhere."""
    party, _ = Counter(content().characters[c].party for c in team).most_common(1)[0]
    others = [content().characters[c].name for c in team if content().characters[c].party != party]
    return " + ".join([content().parties[party].name, *others])


class Standing:
    """Where each unit stands, read from the events, and how far each strikes."""

    def __init__(self) -> None:
        self.cells: dict[str, tuple[int, int]] = {}
        self.reach: dict[str, int] = {}

    def see(self, e: Event) -> None:
        if isinstance(e, SkirmishStarted):
            far, near = e.params.get("ranged_reach", 2), e.params.get("melee_reach", 1)
            self.reach = {u["key"]: far if u["ranged"] else near for u in e.units}
        elif isinstance(e, PlacementsRevealed):
            self.cells.update({key: (c[0], c[1]) for key, c in e.cells.items()})
        elif isinstance(e, UnitMoved):
            self.cells[f"{e.seat}.{e.character}"] = (e.to[0], e.to[1])
        elif isinstance(e, UnitReturned):
            self.cells[e.unit] = (e.cell[0], e.cell[1])
        elif isinstance(e, UnitFainted):
            self.cells.pop(e.unit, None)

    def in_reach(self, seat: str, at: tuple[int, int]) -> bool:
        """Whether a standing opponent of `seat` has `at` exactly at its reach."""
        return any(abs(c[0] - at[0]) + abs(c[1] - at[1]) == self.reach.get(key, 1)
                   for key, c in self.cells.items() if not key.startswith(f"{seat}."))


def tally(events: Sequence[Event], seats: Sequence[str]) -> dict[str, int]:
    """What `seats` did in one battle's events."""
    mine = set(seats)
    counts: Counter[str] = Counter()
    standing = Standing()
    for e in events:
        if isinstance(e, TurnStarted) and e.seat in mine:
            counts["turns"] += 1
        elif isinstance(e, UnitMoved) and e.seat in mine:
            counts["moves"] += 1
            counts["tiles walked"] += max(0, len(e.path) - 1)
            was = standing.in_reach(e.seat, (e.path[0][0], e.path[0][1]))
            now = standing.in_reach(e.seat, (e.to[0], e.to[1]))
            counts["walks into reach"] += int(now)
            counts["walks out of reach"] += int(was and not now)
        elif isinstance(e, Attacked) and e.seat in mine:
            counts["attacks"] += 1
        elif isinstance(e, Struck) and e.counter and e.target.split(".")[0] in mine:
            counts["attacks countered"] += 1
        elif isinstance(e, CardPlayed) and e.seat in mine:
            counts["cards played"] += 1
        standing.see(e)
    return dict(counts)
