"""The matchups a balance run plays (`ringside balance`): every ordered pair of two different
duel teams, so each pairing is played from both seats.

The content names parties, not teams, so the teams are each playable party whole (its four
characters, one of each class), named by the party, and the default setup's two teams (three
of a party and one Iron Vanguard member), named by their party and the odd member out:
"Thornwood Wardens + Brick".

`tally` counts what a side did on the board: its turns, moves, tiles walked, attacks and cards
played."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from domain.engine.events import Event
from domain.engine.ruleset import Matchup, every_pairing

from .content import content
from .events import Attacked, CardPlayed, TurnStarted, UnitMoved
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


def tally(events: Sequence[Event], seats: Sequence[str]) -> dict[str, int]:
    """What `seats` did in one battle's events."""
    mine = set(seats)
    counts: Counter[str] = Counter()
    for e in events:
        if isinstance(e, TurnStarted) and e.seat in mine:
            counts["turns"] += 1
        elif isinstance(e, UnitMoved) and e.seat in mine:
            counts["moves"] += 1
            counts["tiles walked"] += max(0, len(e.path) - 1)
        elif isinstance(e, Attacked) and e.seat in mine:
            counts["attacks"] += 1
        elif isinstance(e, CardPlayed) and e.seat in mine:
            counts["cards played"] += 1
    return dict(counts)
