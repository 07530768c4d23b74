"""A balance report from the battles of a run (`harness.Fought`): pure, so the same battles
give the same report, figure for figure.

Win rates by seat, by side, by entry, by matchup of entries and (with two policies) of the
first policy; how the battles ended, with the share a turn or round limit ended; and how long
they lasted. Every rate counts a draw as half a win and comes with its 95% Wilson interval
(`stats.py`)."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, TypeVar

from .harness import UNFINISHED, Fought
from .stats import Score, share, spread

K = TypeVar("K", bound=Hashable)
SCORING = ("a win counts 1, a draw 1/2, a loss 0: rate = (wins + draws / 2) / battles; low and high bound "
           "its 95% Wilson score interval")
# An ending by the game's turn or round limit: its reason names a limit ("time limit: ...",
# "turn_limit") or says the battle was still undecided when the rounds ran out.
LIMIT = re.compile(r"limit|undecided", re.IGNORECASE)


def scores(results: Iterable[tuple[K, float]]) -> dict[K, Score]:
    """A score per key, in the order the keys first come."""
    tallied: dict[K, Score] = {}
    for key, result in results:
        tallied.setdefault(key, Score()).add(result)
    return tallied


def as_json(tallied: dict[K, Score]) -> dict[str, Any]:
    return {str(key): score.as_json() for key, score in tallied.items()}


def report(plan: dict[str, Any], fought: Sequence[Fought]) -> dict[str, Any]:
    """The whole report: the run's parameters (`Plan.as_json`) and every figure."""
    return {
        "parameters": plan, "scoring": SCORING, "battles": len(fought),
        "seats": as_json(scores((seat, f.result(side)) for f in fought for seat, side in f.seats.items())),
        "sides": as_json(scores((side, f.result(side)) for f in fought for side in f.sides)),
        "entries": as_json(scores((f.entries[side], f.result(side)) for f in fought for side in f.sides)),
        "matchups": matchup_table(fought),
        "bot": bot_rates(plan["bots"], fought),
        "endings": endings(fought),
        "lengths": {"decisions": spread([f.decisions for f in fought if f.decisions is not None]),
                    "turns": spread([f.turns for f in fought if f.turns is not None])},
        "cells": cells(plan, fought),
        "play": play_counts(fought),
    }


def matchup_table(fought: Sequence[Fought]) -> dict[str, Any]:
    """Each entry's rate against each entry it met, whichever sides they sat on: the rows are
    the entries the first side played, the columns those the other sides played, each in the
    order they first came (the rows' order for both when every entry played every side)."""
    rows: dict[str, None] = {}
    columns: dict[str, None] = {}
    for f in fought:
        rows.setdefault(f.entries[f.sides[0]])
        for side in f.sides[1:]:
            columns.setdefault(f.entries[side])
    tallied = scores(((f.entries[a], f.entries[b]), f.result(a)) for f in fought for a in f.sides for b in f.sides
                     if a != b)
    if set(columns) == set(rows):       # each entry plays every side: one order for both
        columns = rows
    return {"rows": list(rows), "columns": list(columns),
            "cells": [{"row": row, "column": column, **tallied[(row, column)].as_json()}
                      for row in rows for column in columns if (row, column) in tallied]}


def bot_rates(bots: Sequence[str], fought: Sequence[Fought]) -> dict[str, Any] | None:
    """With two policies, the first one's rate over all its battles and on each side."""
    if len(bots) != 2:
        return None
    first = bots[0]
    sides = [(side, f.result(side)) for f in fought for side, policy in f.policies.items() if policy == first]
    overall = scores((first, result) for _, result in sides).get(first, Score())
    return {"policy": first, "against": bots[1], "overall": overall.as_json(), "sides": as_json(scores(sides))}


def play_counts(fought: Sequence[Fought]) -> dict[str, Any]:
    """What each policy did on each side, by the game's own tallies (`Ruleset.tally`), per
    100 battles it played there: {policy: {side: {"battles": n, tally: per 100, ...}}}."""
    totals: dict[str, dict[str, Counter[str]]] = {}
    played: Counter[tuple[str, str]] = Counter()
    for f in fought:
        for side, counts in f.tallies.items():
            policy = f.policies[side]
            totals.setdefault(policy, {}).setdefault(side, Counter()).update(counts)
            played[(policy, side)] += 1
    return {policy: {side: {"battles": played[(policy, side)],
                            **{name: round(100 * count / played[(policy, side)], 1)
                               for name, count in sorted(counts.items())}}
                     for side, counts in sides.items()}
            for policy, sides in totals.items()}


def endings(fought: Sequence[Fought]) -> dict[str, Any]:
    """Each reason's count and share, most common first; the share a limit ended, and the
    share that never ended."""
    counted = Counter(f.reason for f in fought)
    ordered = sorted(counted.items(), key=lambda item: (-item[1], item[0]))
    limit = sum(count for reason, count in counted.items() if LIMIT.search(reason))
    unfinished = sum(count for reason, count in counted.items() if reason.startswith(UNFINISHED))
    return {"limit": share(limit, len(fought)), "unfinished": share(unfinished, len(fought)),
            "reasons": [{"reason": reason, **share(count, len(fought))} for reason, count in ordered]}


def cells(plan: dict[str, Any], fought: Sequence[Fought]) -> list[dict[str, Any]]:
    """Each matchup played: its entries and each side's rate in it, and the first policy's."""
    by_label: dict[str, list[Fought]] = {}
    for f in fought:
        by_label.setdefault(f.label, []).append(f)
    return [{"label": label, "entries": dict(played[0].entries), "battles": len(played),
             "sides": as_json(scores((side, f.result(side)) for f in played for side in f.sides)),
             "bot": bot_rates(plan["bots"], played)}
            for label, played in by_label.items()]
