"""Deck balance: bots play every pair of preset decks in-process, each deck on either seat
in equal numbers, the way `ringside simulate` plays them (`domain.ai.match.play`).

    python -m domain.rulesets.ring.balance --battles 200 --bots greedy --seed 1 [--json]

`--battles` is the total, rounded up so that every pair plays the same number on each
seating. Prints each deck's win % against each other deck and against the field, how many
battles the time limit decided, and the share of leader damage that came from
`strike_leader` (the rest from abilities such as leader_damage steps), and in how many of
its battles each deck's side used each of `MECHANICS`.
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from domain.ai import get_policy, policy_names
from domain.ai.match import play, seeded_bytes
from domain.engine.events import Event

from . import RULESET
from .content import content
from .events import (AbilityUsed, EquipmentDisabled, ItemUsed, LeaderAbilityUsed, LeaderHpReduced, LeaderStruck,
                     LpLost, PoolLost, TimeLimitReached, UnitKnockedOut)

SEATS = ("p1", "p2")
# What an ability or item can do beyond HP damage, by the event it leaves: the enemy
# leader's HP lost with no KO (`leader_damage`), LP lost to LP damage, not to a KO (`lp`),
# an Ability Pool lost (`lose_pool`) and equipment disabled (`disable_equipment`).
MECHANICS = ("leader_damage", "lp_loss", "pool_loss", "equipment_disabled")
USES = (AbilityUsed, LeaderAbilityUsed, ItemUsed)


def mechanics_used(events: Iterable[Event]) -> set[tuple[str, str]]:
    """(seat, mechanic) for each of `MECHANICS` a seat's abilities and items brought about."""
    found: set[tuple[str, str]] = set()
    user: str | None = None                 # the seat whose ability or item is resolving
    previous: Event | None = None
    for e in events:
        if isinstance(e, USES):
            user = e.seat
        elif e.starts_batch():
            user = None
        if user is not None:
            if isinstance(e, LeaderHpReduced):
                found.add((user, "leader_damage"))
            elif isinstance(e, LpLost) and not (isinstance(previous, UnitKnockedOut) and previous.unit == e.unit):
                found.add((user, "lp_loss"))
            elif isinstance(e, PoolLost):
                found.add((user, "pool_loss"))
            elif isinstance(e, EquipmentDisabled):
                found.add((user, "equipment_disabled"))
        previous = e
    return found


def balance(battles: int, bots: Sequence[str], seed: str) -> dict[str, Any]:
    decks = sorted(content().decks)
    pairs = list(itertools.combinations(decks, 2))
    each = max(1, math.ceil(battles / (2 * len(pairs))))     # per pair and seating
    policies = {seat: get_policy(name, RULESET.id) for seat, name in zip(SEATS, bots)}
    wins: Counter[tuple[str, str]] = Counter()               # (winner's deck, loser's deck)
    played: Counter[tuple[str, str]] = Counter()
    seat_wins: Counter[str] = Counter()
    used: Counter[tuple[str, str]] = Counter()               # (deck, mechanic): battles
    timed_out = struck = leader_damage = turns = 0
    for first, second in pairs:
        for p1, p2 in ((first, second), (second, first)):
            for i in range(each):
                parts = (p1, p2, i)
                match = play(RULESET, policies, battle_id=f"balance-{p1}-{p2}-{i}",
                             revealed=seeded_bytes(seed, "seed", *parts), bot_seed=seeded_bytes(seed, "bots", *parts),
                             setup={"p1": {"deck": p1}, "p2": {"deck": p2}})
                events = [r.event for r in match.records]
                winner = match.state.outcome.winner if match.state.outcome else None
                played[(p1, p2)] += 1
                played[(p2, p1)] += 1
                if winner is not None:
                    seat_wins[winner] += 1
                    wins[(p1, p2) if winner == "p1" else (p2, p1)] += 1
                timed_out += any(isinstance(e, TimeLimitReached) for e in events)
                used.update((p1 if seat == "p1" else p2, mechanic) for seat, mechanic in mechanics_used(events))
                struck += sum(e.ap for e in events if isinstance(e, LeaderStruck))
                leader_damage += sum(e.amount for e in events if isinstance(e, LeaderHpReduced))
                turns += match.state.game.turn
    total = each * 2 * len(pairs)
    return {
        "battles": total, "bots": dict(zip(SEATS, bots)), "seed": seed,
        "matchups": {a: {b: percent(wins[(a, b)], played[(a, b)]) for b in decks if b != a} for a in decks},
        "decks": {a: percent(sum(wins[(a, b)] for b in decks), sum(played[(a, b)] for b in decks)) for a in decks},
        "seat_wins": {seat: percent(seat_wins[seat], total) for seat in SEATS},
        "time_limit": {"battles": timed_out, "percent": percent(timed_out, total)},
        "strike_leader_damage": percent(struck, leader_damage),
        "mean_turns": round(turns / total, 1),
        "mechanics": {a: {m: used[(a, m)] for m in MECHANICS} for a in decks},
    }


def percent(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def table(report: dict[str, Any]) -> str:
    decks = list(report["decks"])
    width = max(len(d) for d in decks) + 2
    lines = [f"{report['battles']} battles, bots {report['bots']['p1']} (p1) v {report['bots']['p2']} (p2), "
             f"seed {report['seed']}", "",
             "win % of the row deck against the column deck",
             "".ljust(width) + "".join(d.rjust(width) for d in decks) + "field".rjust(width)]
    for a in decks:
        cells = ["-" if b == a else shown(report["matchups"][a][b]) for b in decks]
        lines.append(a.ljust(width) + "".join(c.rjust(width) for c in cells) + shown(report["decks"][a]).rjust(width))
    limit = report["time_limit"]
    lines += ["", f"seat wins: p1 {shown(report['seat_wins']['p1'])}%, p2 {shown(report['seat_wins']['p2'])}%",
              f"ended by the time limit: {limit['battles']} of {report['battles']} ({shown(limit['percent'])}%)",
              f"leader damage from strike_leader: {shown(report['strike_leader_damage'])}%",
              f"mean turns: {report['mean_turns']}", "",
              "battles in which the row deck used each mechanic",
              "".ljust(width) + "".join(m.rjust(20) for m in MECHANICS)]
    lines += [a.ljust(width) + "".join(str(report["mechanics"][a][m]).rjust(20) for m in MECHANICS) for a in decks]
    return "\n".join(lines)


def shown(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m domain.rulesets.ring.balance", description=__doc__.split("\n")[0])
    parser.add_argument("--battles", type=int, default=200, help="total battles (rounded up to fill every seating)")
    parser.add_argument("--bots", default="greedy", help="one policy for both seats, or p1,p2")
    parser.add_argument("--seed", default="0", help="same seed, same battles")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.bots.split(",")]
    if len(names) not in (1, 2) or args.battles < 1:
        parser.error("--bots takes one policy or two (p1,p2); --battles at least 1")
    unknown = [n for n in names if n not in policy_names(RULESET.id)]
    if unknown:
        parser.error(f"no bot policy {unknown[0]!r}; known: {', '.join(policy_names(RULESET.id))}")
    report = balance(args.battles, names * 2 if len(names) == 1 else names, args.seed)
    print(json.dumps(report, indent=2) if args.json else table(report))


if __name__ == "__main__":
    main()
