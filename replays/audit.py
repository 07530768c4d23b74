"""Set audit: verify every battle of a set, then decide the set again from those battles, as a
live set is decided, and hold each recorded set event against the decided one: each result
and head hash, the carry-over between battles, the score and winner.

The set's head hash chains every battle's head hash, so two parties compare a whole set by
that one digest.

A hash commits to everything before it, hidden parts too: a viewer holding two around a
hidden move could test guesses of it until one hashes right. So the audit anyone may read
shows a battle's head only once the battle is public (ended, and the set not private) and the
digest only once the set is; the operator's audit (`omniscient`, run on the database, which
holds every secret anyway) shows them all.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.battles import Battles
from domain.engine.battle import BattleState, battle_options, parse_battle_setup, unsealed_setup
from domain.engine.chain import GENESIS, chain_of
from domain.engine.content import recorded_inputs
from domain.engine.events import OMNISCIENT, Event, Recorded, event_data
from domain.engine.ruleset import Ruleset, ruleset_of
from domain.sets import (BattleResult, SetBattleFinished, SetBattleStarted, SetEnded, SetState, Sets, chain_events,
                         decide_battle_end, evolve_set, score, start_battle)

from .format import build
from .verify import verify


def audit_set(battles: Battles, sets: Sets, set_id: str, *, omniscient: bool = False) -> dict[str, Any]:
    sets.load(set_id)           # a set left behind by its battles is moved on first
    records = sets.records(set_id)
    state = None
    for rec in records:
        state = evolve_set(state, rec)
    assert state is not None
    problems: list[str] = []
    chain_ok = _check_set_chain(records, problems)
    rows, derived = _decide_again(battles, ruleset_of(state.created), [r.event for r in records], problems,
                                  omniscient)
    status = "fail" if problems or not chain_ok else ("ok" if state.ended is not None else "in_progress")
    report = {"set_id": set_id, "status": status, "ruleset": state.created.ruleset,
              "games": state.created.games, "mode": state.created.mode, "players": state.created.players,
              "score": score(state), "winner": state.ended.winner if state.ended else None,
              "battles": rows, "carry": derived.carry, "digest": state.chain if omniscient or state.public else None,
              "private": state.created.private, "problems": problems}
    report["summary"] = summary(report)
    return report


def _decide_again(battles: Battles, ruleset: Ruleset[Any], recorded: Sequence[Event],
                  problems: list[str], omniscient: bool) -> tuple[list[dict[str, Any]], SetState]:
    """Start from the recorded `SetCreated` and decide every step after it from the battles;
    returns a row per battle and the set as decided."""
    ids = [e.battle_id for e in recorded if isinstance(e, SetBattleStarted)]
    derived = chain_events(None, recorded[:1])[0]
    decision = start_battle(derived, ruleset, ids[0] if ids else "")
    rows: list[dict[str, Any]] = []
    while True:
        derived = _hold(derived, decision.events, recorded, problems)
        if decision.next_setup is None or derived.battles[-1].index >= len(ids):
            return rows, derived
        current = derived.battles[-1]
        row, battle = _audit_battle(battles, ruleset, current.index, current.battle_id, decision.next_setup,
                                    problems, omniscient)
        rows.append(row)
        if battle.outcome is None:
            if len(recorded) > derived.seq:
                problems.append(f"battle {current.index}: the set records a result or head hash the battle "
                                "does not have")
            return rows, derived
        following = ids[current.index + 1] if current.index + 1 < len(ids) else ""
        decision = decide_battle_end(derived, BattleResult.of(battle), ruleset, following)


def _hold(derived: SetState, events: Sequence[Event], recorded: Sequence[Event], problems: list[str]) -> SetState:
    """Compare the decided `events` with those recorded in their places; the set as decided after them."""
    for offset, event in enumerate(events):
        at = derived.seq + offset
        found = recorded[at] if at < len(recorded) else None
        if found != event:
            problems.append(_mismatch(event, found))
    return chain_events(derived, events)[0]


def _mismatch(expected: Event, found: Event | None) -> str:
    if found is None:
        return f"the set's log ends where it should record {type(expected).__name__}"
    if isinstance(expected, SetBattleStarted):
        if isinstance(found, SetBattleStarted):
            return f"battle {expected.index} started from a carry-over that does not follow from the battles"
        return "the set ended before its games were decided"
    if isinstance(expected, SetBattleFinished):
        if isinstance(found, SetBattleFinished) and (found.winner, found.head) == (expected.winner, expected.head):
            return f"battle {expected.index} ended with a carry-over that does not follow from it"
        return f"battle {expected.index}: the set records a result or head hash the battle does not have"
    if isinstance(found, SetEnded):
        return "the set's final score or winner does not follow from its battles"
    return "the set went on after its games were decided"


def _audit_battle(battles: Battles, ruleset: Ruleset[Any], index: int, battle_id: str, setup: dict[str, Any],
                  problems: list[str], omniscient: bool) -> tuple[dict[str, Any], BattleState]:
    """Verify one battle of the set, and that it was created from the set's setup and carry-over."""
    battle = battles.load(battle_id)
    row: dict[str, Any] = {"index": index, "battle_id": battle_id,
                           "head": battle.chain if omniscient or battle.public else None}
    created_from = unsealed_setup(ruleset, battles.records(battle_id, 1, 1 + len(battle.table.seats)))
    if not same_setup(ruleset, created_from, setup):
        problems.append(f"battle {index} was not created from the set's setup and carry-over")
    if battle.outcome is None:
        row["status"] = "in_progress"
        return row, battle
    # The whole log, whoever reads the report: a private battle's is never public, yet must verify.
    report = verify(build(battle, battles.records(battle_id), OMNISCIENT))
    row.update(status=report.status, winner=report.winner, seq=report.seq, reason=report.reason)
    if not report.ok:
        problems.append(f"battle {index} does not verify: {report.reason}")
    return row, battle


def same_setup(ruleset: Any, a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Equal as the ruleset reads them (a preset name and its deck are the same deck)."""
    with recorded_inputs():
        return battle_options(a)[0] == battle_options(b)[0] and \
            parse_battle_setup(ruleset, a) == parse_battle_setup(ruleset, b)


def summary(report: dict[str, Any]) -> list[str]:
    """The report as lines a person reads: one per battle, then the verdict and the digest."""
    lines = [f"set {report['set_id']} ({report['ruleset']}, {report['mode']} {report['games']}): "
             f"{report['status'].upper()}"]
    for row in report["battles"]:
        result = f"winner {row.get('winner') or 'none'}" if row["status"] == "ok" else row["status"]
        why = f" (seq {row['seq']}: {row['reason']})" if row.get("reason") else ""
        head = f"; head {row['head']}" if row["head"] else ""
        lines.append(f"  battle {row['index'] + 1} {row['battle_id']}: {result}{why}{head}")
    score_line = ", ".join(f"{side} {wins}" for side, wins in report["score"].items())
    lines.append(f"  score {score_line}; winner {report['winner'] or 'none'}")
    lines += [f"  problem: {p}" for p in report["problems"]]
    if report["digest"]:
        lines.append(f"  digest {report['digest']}")
    else:
        lines.append("  digest withheld: the set is private" if report["private"]
                     else "  digest withheld until the set has ended")
    return lines


def _check_set_chain(records: Sequence[Recorded], problems: list[str]) -> bool:
    chain = GENESIS
    for rec in records:
        chain = chain_of(chain, rec.seq, rec.event.TOPIC, event_data(rec.event))
        if chain != rec.chain:
            problems.append(f"the set log's hash chain breaks at seq {rec.seq}")
            return False
    return True
