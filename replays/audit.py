"""Set audit: verify every battle of a set, then check that the set's log follows from them:
each recorded result and head hash, the carry-over between battles, the score and winner.

The set's head hash chains every battle's head hash, so two parties compare a whole set by
that one digest.
"""
from __future__ import annotations

from typing import Any

from domain.battles import Battles
from domain.engine.battle import battle_options, parse_battle_setup, unsealed_setup
from domain.engine.chain import GENESIS, chain_of
from domain.engine.events import event_data
from domain.engine.ruleset import get_ruleset
from domain.sets import SetState, Sets, battle_setup, carry_after, set_over, set_winner

from .format import build
from .verify import verify


def audit_set(battles: Battles, sets: Sets, set_id: str) -> dict[str, Any]:
    state = sets.load(set_id)
    problems: list[str] = []
    chain_ok = _check_set_chain(sets, set_id, problems)
    ruleset = get_ruleset(state.created.ruleset)
    reports = []
    carry = None
    for entry in state.battles:
        battle = battles.load(entry.battle_id)
        row: dict[str, Any] = {"index": entry.index, "battle_id": entry.battle_id, "head": battle.chain}
        if entry.carry != carry:
            problems.append(f"battle {entry.index} started from a carry-over that does not follow from the battles")
        if battle.outcome is None:
            row["status"] = "in_progress"
            reports.append(row)
            break
        report = verify(build(battle, battles.records(entry.battle_id)))
        row.update(status=report.status, winner=report.winner, seq=report.seq, reason=report.reason)
        if not report.ok:
            problems.append(f"battle {entry.index} does not verify: {report.reason}")
        if entry.head != battle.chain or entry.winner != battle.outcome.winner:
            problems.append(f"battle {entry.index}: the set records a result or head hash the battle does not have")
        setup = battle_setup(ruleset, state.created.setup or {}, carry)
        if not same_setup(ruleset, unsealed_setup(ruleset, battles.records(entry.battle_id, 1, 1 + len(battle.table.seats))),
                          setup):
            problems.append(f"battle {entry.index} was not created from the set's setup and carry-over")
        carry = carry_after(ruleset, carry, setup, battle)
        reports.append(row)
    _check_result(state, problems)
    status = "fail" if problems or not chain_ok else ("ok" if state.ended is not None else "in_progress")
    report = {"set_id": set_id, "status": status, "ruleset": state.created.ruleset,
              "games": state.created.games, "mode": state.created.mode, "players": state.created.players,
              "score": state.score(), "winner": state.ended.winner if state.ended else None,
              "battles": reports, "carry": carry, "digest": state.chain, "problems": problems}
    report["summary"] = summary(report)
    return report


def same_setup(ruleset: Any, a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Equal as the ruleset reads them (a preset name and its deck are the same deck)."""
    return battle_options(a)[0] == battle_options(b)[0] and \
        parse_battle_setup(ruleset, a) == parse_battle_setup(ruleset, b)


def summary(report: dict[str, Any]) -> list[str]:
    """The report as lines a person reads: one per battle, then the verdict and the digest."""
    lines = [f"set {report['set_id']} ({report['ruleset']}, {report['mode']} {report['games']}): "
             f"{report['status'].upper()}"]
    for row in report["battles"]:
        result = f"winner {row.get('winner') or 'none'}" if row["status"] == "ok" else row["status"]
        why = f" (seq {row['seq']}: {row['reason']})" if row.get("reason") else ""
        lines.append(f"  battle {row['index'] + 1} {row['battle_id']}: {result}{why}; head {row['head']}")
    score = ", ".join(f"{seat} {wins}" for seat, wins in report["score"].items())
    lines.append(f"  score {score}; winner {report['winner'] or 'none'}")
    lines += [f"  problem: {p}" for p in report["problems"]]
    lines.append(f"  digest {report['digest']}")
    return lines


def _check_set_chain(sets: Sets, set_id: str, problems: list[str]) -> bool:
    chain = GENESIS
    for rec in sets.records(set_id):
        chain = chain_of(chain, rec.seq, rec.event.TOPIC, event_data(rec.event))
        if chain != rec.chain:
            problems.append(f"the set log's hash chain breaks at seq {rec.seq}")
            return False
    return True


def _check_result(state: SetState, problems: list[str]) -> None:
    if state.ended is None:
        return
    if not set_over(state):
        problems.append("the set ended before its games were decided")
    score = state.score()
    if state.ended.score != score or state.ended.winner != set_winner(score):
        problems.append("the set's final score or winner does not follow from its battles")
