"""Set audit: verify every battle of a set, then decide the set again from those battles, as a
live set is decided, and hold each recorded set event against the decided one: each result
and head hash, the carry-over between battles, the score and winner.

One audit serves a set in the database (`audit_set`) and a set file read with no database at
all (`audit_set_file`; the format is in set_file.py): only where it finds the battles differs.
A file is also held against itself: its header against the set's log, its battles' order
against the set's.

The set's head hash chains every battle's head hash, so two parties compare a whole set by
that one digest.

A hash commits to everything before it, hidden parts too: a viewer holding two around a
hidden move could test guesses of it until one hashes right. So the audit anyone may read
shows a battle's head only once the battle is public (ended, and the set not private) and the
digest only once the set is; the operator's audit (`omniscient`, run on the database, which
holds every secret anyway) and the audit of a set file (which holds them all) show them all.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.battles import Battles
from domain.engine.battle import BattleState, battle_options, fold, parse_battle_setup, unsealed_setup
from domain.engine.chain import GENESIS, chain_of
from domain.engine.clock import ClockSpec
from domain.engine.content import recorded_inputs
from domain.engine.events import OMNISCIENT, Event, Recorded, event_data
from domain.engine.ruleset import Ruleset, ruleset_of
from domain.engine.timeouts import started_clock
from domain.sets import (BattleResult, SetBattleFinished, SetBattleStarted, SetEnded, SetState, Sets, chain_events,
                         decide_battle_end, evolve_set, score, set_clock, start_battle)

from .format import Replay, build
from .set_file import SetFile, by_battle, misfits, set_log
from .verify import Report, decode, verify


@dataclass(frozen=True)
class SeenBattle:
    """A battle of the set as the audit finds it: its state and log, and its verify report once
    it has ended. A set file's battle is folded only once it verifies: one that does not has
    only its `report`, and one the file lacks only why (`missing`)."""
    state: BattleState | None = None
    records: Sequence[Recorded] = ()
    report: Report | None = None
    missing: str | None = None


FindBattle = Callable[[str], SeenBattle]


def audit_set(battles: Battles, sets: Sets, set_id: str, *, omniscient: bool = False) -> dict[str, Any]:
    """The audit of a set in the database."""
    sets.load(set_id)           # a set left behind by its battles is moved on first
    return audit_log(sets.records(set_id), stored_battles(battles), omniscient=omniscient)


def audit_set_file(found: SetFile, find: FindBattle | None = None) -> dict[str, Any]:
    """The audit of a set file, from the file alone (`find` looks its battles up, by default
    a `FiledBattles` of it)."""
    records = set_log(found)
    also = misfits(found, fold_set(records))
    return audit_log(records, find or FiledBattles(found), omniscient=True, also=also)


def stored_battles(battles: Battles) -> FindBattle:
    """The battles as the database holds them."""
    def find(battle_id: str) -> SeenBattle:
        battle = battles.load(battle_id)
        records = battles.records(battle_id)
        if battle.outcome is None:
            return SeenBattle(battle, records)
        # The whole log, whoever reads the report: a private battle's is never public, yet must verify.
        return SeenBattle(battle, records, verify(build(battle, records, OMNISCIENT)))
    return find


class FiledBattles:
    """The battles of a set file, each verified (once) before it is folded."""

    def __init__(self, found: SetFile):
        self.replays = by_battle(found)
        self.seen: dict[str, SeenBattle] = {}

    def __call__(self, battle_id: str) -> SeenBattle:
        if battle_id not in self.seen:
            self.seen[battle_id] = self._read(self.replays.get(battle_id))
        return self.seen[battle_id]

    @staticmethod
    def _read(replay: Replay | None) -> SeenBattle:
        if replay is None:
            return SeenBattle(missing="is not in the file")
        report = verify(replay)
        if not report.ok:
            return SeenBattle(report=report)
        records, state = played(replay)
        return SeenBattle(state, records, report)


def played(replay: Replay) -> tuple[list[Recorded], BattleState]:
    """A replay's records and the battle they fold to, under the ruleset it pins."""
    lines: list[Mapping[str, Any]] = list(replay.events)
    records = decode(lines)
    ruleset = ruleset_of(records[0].event)
    state = None
    for rec in records:
        state = fold(ruleset, state, rec)
    assert state is not None
    return records, state


def fold_set(records: Sequence[Recorded]) -> SetState:
    state = None
    for rec in records:
        state = evolve_set(state, rec)
    assert state is not None
    return state


def audit_log(records: Sequence[Recorded], find: FindBattle, *, omniscient: bool,
              also: Sequence[str] = ()) -> dict[str, Any]:
    """The audit of a set's log and the battles `find` finds; `also` adds the problems found
    around them (a set file's with itself)."""
    state = fold_set(records)
    problems: list[str] = []
    chain_ok = _check_set_chain(records, problems)
    rows, derived = _decide_again(find, ruleset_of(state.created), [r.event for r in records], problems,
                                  omniscient)
    problems += also
    status = "fail" if problems or not chain_ok else ("ok" if state.ended is not None else "in_progress")
    report = {"set_id": state.set_id, "status": status, "ruleset": state.created.ruleset,
              "games": state.created.games, "mode": state.created.mode, "players": state.created.players,
              "score": score(state), "winner": state.ended.winner if state.ended else None,
              "battles": rows, "carry": derived.carry, "digest": state.chain if omniscient or state.public else None,
              "private": state.created.private, "problems": problems}
    report["summary"] = summary(report)
    return report


def _decide_again(find: FindBattle, ruleset: Ruleset[Any], recorded: Sequence[Event],
                  problems: list[str], omniscient: bool) -> tuple[list[dict[str, Any]], SetState]:
    """Start from the recorded `SetCreated` and decide every step after it from the battles;
    returns a row per battle and the set as decided (up to a battle that cannot be read)."""
    ids = [e.battle_id for e in recorded if isinstance(e, SetBattleStarted)]
    derived = chain_events(None, recorded[:1])[0]
    decision = start_battle(derived, ruleset, ids[0] if ids else "")
    rows: list[dict[str, Any]] = []
    while True:
        derived = _hold(derived, decision.events, recorded, problems)
        if decision.next_setup is None or derived.battles[-1].index >= len(ids):
            return rows, derived
        current = derived.battles[-1]
        row, battle = _audit_battle(find, ruleset, current.index, current.battle_id, decision.next_setup,
                                    problems, omniscient, set_clock(derived.created))
        rows.append(row)
        if battle is None:
            return rows + _verify_rest(find, ruleset, ids, current.index + 1, problems, omniscient,
                                       set_clock(derived.created)), derived
        if battle.outcome is None:
            if len(recorded) > derived.seq:
                problems.append(f"battle {current.index}: the set records a result or head hash the battle "
                                "does not have")
            return rows, derived
        following = ids[current.index + 1] if current.index + 1 < len(ids) else ""
        decision = decide_battle_end(derived, BattleResult.of(battle), ruleset, following)


def _verify_rest(find: FindBattle, ruleset: Ruleset[Any], ids: Sequence[str], start: int, problems: list[str],
                 omniscient: bool, clock: ClockSpec | None) -> list[dict[str, Any]]:
    """Rows for the battles after one that cannot be read, each verified on its own: the set's
    record from that battle's result on (and so their setups) follows from it, and goes unchecked."""
    problems.append(f"the set's record from battle {start - 1}'s result on is not checked: it follows from that "
                    "battle")
    return [_audit_battle(find, ruleset, index, ids[index], None, problems, omniscient, clock)[0]
            for index in range(start, len(ids))]


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


def _audit_battle(find: FindBattle, ruleset: Ruleset[Any], index: int, battle_id: str,
                  setup: dict[str, Any] | None, problems: list[str],
                  omniscient: bool, clock: ClockSpec | None) -> tuple[dict[str, Any], BattleState | None]:
    """Verify one battle of the set, and that it was created from the set's setup and carry-over
    (`setup`; None when that is not known) and with the set's `clock`."""
    seen = find(battle_id)
    battle, report = seen.state, seen.report
    row: dict[str, Any] = {"index": index, "battle_id": battle_id,
                           "head": battle.chain if battle and (omniscient or battle.public) else None}
    if battle is None and report is None:
        row.update(status="missing", reason=seen.missing)
        problems.append(f"battle {index} ({battle_id}) {seen.missing}")
        return row, None
    # A battle of another game cannot be decided by this set's rules: the set stops there.
    foreign = battle is not None and battle.created.ruleset != ruleset.id
    if battle is not None and setup is not None and \
            (foreign or not same_setup(ruleset, unsealed_setup(ruleset, seen.records), setup)):
        problems.append(f"battle {index} was not created from the set's setup and carry-over")
    if battle is not None and not foreign and not same_clock(clock, seen.records):
        problems.append(f"battle {index} was not created with the set's clock")
    if report is None:
        row["status"] = "in_progress"
        return row, battle
    row.update(status=report.status, winner=report.winner, seq=report.seq, reason=report.reason)
    if not report.ok:
        problems.append(f"battle {index} does not verify: {report.reason}")
    return row, None if foreign else battle


def same_clock(clock: ClockSpec | None, records: Sequence[Recorded]) -> bool:
    """Whether a set's battle runs the set's clock, on which a seat that never moves loses."""
    started = started_clock(records)
    if clock is None:
        return started is None
    return started is not None and (started.spec, started.first_move_loses) == (clock, True)


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
        at = f"seq {row['seq']}: " if row.get("seq") is not None else ""
        why = f" ({at}{row['reason']})" if row.get("reason") else ""
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
