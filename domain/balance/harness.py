"""Plans a balance run and plays its battles one at a time (`workers.py` plays them all): every
matchup a ruleset declares (`Ruleset.matchups`), or those picked, the same number of battles
each, bot against bot in memory (`domain.ai.match.play`).

One policy plays every seat. Two policies, A and B, take turns: a matchup's even battles put
A on the first side with seats and B on the second, its odd battles the other way round, and
each such pair of battles plays the same deal (the same seeds), so a seating's luck cancels
out. A run can keep A on one side (`first_on`, for a game whose sides differ, such as a game
master's): it plays only that half of each pair, the same battles a full run plays there.
A side with no seats (one the rules play) takes no bot. A battle that never ends (a bot that
loops, a rule with no end) is recorded as `UNFINISHED`, not raised: it is a finding.

Every battle's seeds come from the run's seed, the matchup's label and the battle's number, so
a matchup plays the same battles whichever others the run plays. The result of each battle
(`Fought`) is all the tallies (`tally.py`) read."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.engine.battle import parse_battle_setup, seat_table
from domain.engine.bots import Bot
from domain.engine.errors import InvalidInput, SetupError, quote
from domain.engine.ruleset import Matchup, Ruleset
from domain.engine.table import Seat, Side, Table

# The reason recorded for a battle `play` gave up on (no result after its most decisions, or
# nobody left to act): counted as a draw, left out of the lengths.
UNFINISHED = "unfinished"


@dataclass(frozen=True, kw_only=True)
class Plan:
    """What a run plays: `battles` of each matchup, by `bots` (one policy, or two that swap)."""
    ruleset: Ruleset[Any]
    matchups: tuple[Matchup, ...]
    bots: tuple[str, ...]
    battles: int
    seed: str
    first_on: Side | None = None        # with two bots: the side the first always plays (None: both)

    def as_json(self) -> dict[str, Any]:
        shown = {"ruleset": self.ruleset.id, "version": self.ruleset.version,
                 "content_hash": self.ruleset.content_hash, "bots": list(self.bots),
                 "battles_per_matchup": self.battles, "seed": self.seed,
                 "matchups": [m.label for m in self.matchups]}
        return shown if self.first_on is None else {**shown, "first_on": self.first_on}

    def numbers(self, matchup: Matchup) -> list[int]:
        """The numbers of the matchup's battles this run plays: all of them, or with `first_on`
        those that seat the first bot on that side."""
        if self.first_on is None:
            return list(range(self.battles))
        table = seat_table(self.ruleset, matchup.setup)
        return [n for n in range(self.battles) if seating(self.bots, table, n)[self.first_on] == self.bots[0]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Fought:
    """One battle's result: who played what on which side, who won, why, and how long it took."""
    label: str
    sides: tuple[Side, ...]            # in the table's order
    entries: Mapping[Side, str]
    seats: Mapping[Seat, Side]
    policies: Mapping[Side, str]       # the policy on each side with seats
    winner: Side | None                # None: a draw, or a battle that never ended
    reason: str
    decisions: int | None = None       # None: the battle never ended (`UNFINISHED`)
    turns: int | None = None           # the game's own count (`Ruleset.turn`) at the end
    tallies: Mapping[Side, Mapping[str, int]] = field(default_factory=dict)   # `Ruleset.tally`, per side

    def result(self, side: Side) -> float:
        """1 if `side` won, 0.5 for a draw, 0 if it lost."""
        return 0.5 if self.winner is None else float(self.winner == side)


def plan(ruleset: Ruleset[Any], bots: Sequence[str], battles: int, seed: str,
         matchups: Sequence[Matchup] | None = None, only: Sequence[str] = (), first_on: Side | None = None) -> Plan:
    """The run, checked whole before any battle: `matchups` (default: the ruleset's), those
    named in `only` (by label or entry) when given; with two bots, `battles` rounded up to even
    and, with `first_on`, the first bot kept on that side."""
    if not 1 <= len(bots) <= 2:
        raise InvalidInput("bots", "give one policy (it plays every side) or two, A,B (they swap sides)")
    if len(bots) == 2 and bots[0] == bots[1]:
        raise InvalidInput("bots", f"{bots[0]} twice: for one policy on every side, name it once")
    if battles < 1:
        raise InvalidInput("battles", "play at least one battle per matchup")
    for name in bots:
        policy(name, ruleset.id)                       # UnknownPolicy names the known ones
    chosen = picked(list(ruleset.matchups() if matchups is None else matchups), only)
    if not chosen:
        raise InvalidInput("matchups", f"{ruleset.id} declares no matchup to play")
    for matchup in chosen:
        check_matchup(ruleset, matchup, len(bots))
        if first_on is not None:
            check_side(ruleset, matchup, first_on, len(bots))
    if len(bots) == 2:
        battles += battles % 2
    return Plan(ruleset=ruleset, matchups=tuple(chosen), bots=tuple(bots), battles=battles, seed=seed,
                first_on=first_on)


def policy(name: str, ruleset_id: str) -> Bot:
    """The policy `name` names: a bot's name, or a searching bot's with its iterations per move
    after an `@` (`search@400`), as a house seat's rating id names it."""
    base, at, budget = name.partition("@")
    if at and not (budget.isascii() and budget.isdigit()):
        raise InvalidInput("bots", f"{quote(name)}: after the @ comes a searching bot's iterations per move")
    return get_policy(base, ruleset_id, int(budget) if at else None)


def picked(matchups: list[Matchup], only: Sequence[str]) -> list[Matchup]:
    """The matchups named in `only` by label or by an entry, in their own order; all if none."""
    labels = [m.label for m in matchups]
    if len(set(labels)) != len(labels):
        raise InvalidInput("matchups", f"two matchups share a label: {', '.join(labels)}")
    if not only:
        return matchups
    known = {*labels, *(entry for m in matchups for entry in m.entries.values())}
    unknown = [name for name in only if name not in known]
    if unknown:
        raise InvalidInput("matchups", f"no matchup or entry {quote(unknown[0])}; matchups: {', '.join(labels)}")
    wanted = set(only)
    return [m for m in matchups if m.label in wanted or wanted & set(m.entries.values())]


def check_matchup(ruleset: Ruleset[Any], matchup: Matchup, policies: int) -> None:
    """The matchup's setup parses, names an entry for every side of its table and, with two
    policies, has two sides with seats for them to swap."""
    try:
        parse_battle_setup(ruleset, matchup.setup)
    except SetupError as exc:
        raise InvalidInput("matchups", f"{matchup.label}: {exc.message}") from None
    table = seat_table(ruleset, matchup.setup)
    if set(matchup.entries) != set(table.side_ids):
        raise InvalidInput("matchups", f"{matchup.label}: entries for {', '.join(matchup.entries)}; "
                                       f"the sides are {', '.join(table.side_ids)}")
    if policies == 2 and len(seated(table)) != 2:
        raise InvalidInput("bots", f"two policies swap two sides with seats; {ruleset.id} {matchup.label} has "
                                   f"{len(seated(table))}: give one policy")


def check_side(ruleset: Ruleset[Any], matchup: Matchup, side: Side, policies: int) -> None:
    """`first_on` names a side with seats in the matchup, and a first bot of two to keep there."""
    if policies != 2:
        raise InvalidInput("first_on", "keeps the first of two bots on one side: give two, A,B")
    sides = seated(seat_table(ruleset, matchup.setup))
    if side not in sides:
        raise InvalidInput("first_on", f"{ruleset.id} {matchup.label} has no side {quote(side)} with seats; "
                                       f"its sides: {', '.join(sides)}")


def seated(table: Table) -> list[Side]:
    return [side for side, seats in table.sides if seats]


def seating(bots: Sequence[str], table: Table, number: int) -> dict[Side, str]:
    """The policy on each side with seats in a matchup's battle `number`: the one policy, or
    the two in order in an even battle and swapped in an odd one."""
    sides = seated(table)
    if len(bots) == 1:
        return dict.fromkeys(sides, bots[0])
    first, second = bots if number % 2 == 0 else reversed(bots)
    return {sides[0]: first, sides[1]: second}


def play_matchup(run: Plan, matchup: Matchup, number: int, watch: Callable[[Any], None] | None = None) -> Fought:
    """Battle `number` of `matchup`: two bots play each deal twice, so `number // 2` names it.
    `watch` sees the game state after each batch (`match.play`)."""
    ruleset = run.ruleset
    table = seat_table(ruleset, matchup.setup)
    policies = seating(run.bots, table, number)
    deal = number // 2 if len(run.bots) == 2 else number
    bots = {seat: policy(policies[side], ruleset.id) for side, seats in table.sides for seat in seats}
    fought = partial(Fought, label=matchup.label, sides=table.side_ids,
                     entries={side: matchup.entries[side] for side in table.side_ids},
                     seats={seat: side for side, seats in table.sides for seat in seats}, policies=policies)
    try:
        match = play(ruleset, bots, battle_id=f"balance-{matchup.label}-{number}",
                     revealed=seeded_bytes(run.seed, "seed", matchup.label, deal),
                     bot_seed=seeded_bytes(run.seed, "bots", matchup.label, deal), setup=matchup.setup,
                     watch=watch)
    except RuntimeError as exc:       # the battle never ended: no side won, and it has no length
        return fought(winner=None, reason=f"{UNFINISHED}: {str(exc).removeprefix(f'{ruleset.id}: ')}")
    outcome = match.state.outcome
    assert outcome is not None                        # `play` returns an ended battle
    events = [rec.event for rec in match.records]
    return fought(winner=outcome.winner, reason=outcome.reason, decisions=match.decisions,
                  turns=ruleset.turn(match.state.game),
                  tallies={side: dict(ruleset.tally(events, seats)) for side, seats in table.sides if seats})

