"""A tournament's audit: every round's pairings, every result and the standings re-derived
from the tournament's log and each of its sets' own audits.

- Each record's hash chains from the one before.
- Each `RoundPaired` is what `next_pairings` makes of the tournament before it (the entrants
  and every result recorded so far): the same pairs, in order, the same bye.
- Each pairing's set (and tiebreak sets) audits ok on its own (`audit_set`: every battle
  verified), seats the pairing's players (the first at p1), and its recorded result is what
  `result_of` makes of those sets' winners.
- `TournamentEnded` holds the standings and champion `final_standings` computes.
The digest covers the tournament's head hash and every set's digest, in order. From a
tournament file (`tournament_file.py`) the same audit reads every set from its own set file,
with no database.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

import orjson

from domain.battles import Battles
from domain.engine.chain import link_fault
from domain.engine.errors import RingsideError
from domain.engine.events import Recorded
from domain.engine.table import house_bot
from domain.sets import Sets, SetState
from domain.tournaments.decide import NeedsSet, check_join, final_standings, next_pairings, result_of
from domain.tournaments.events import (Played, PlayerJoined, RoundEnded, RoundPaired, TiebreakStarted,
                                       TournamentCreated, TournamentEnded)
from domain.tournaments.service import Tournaments
from domain.tournaments.state import TournamentState, evolve_tournament

from .audit import audit_set, audit_set_file, fold_set
from .set_file import set_log
from .tournament_file import TournamentFile


# A set the tournament names: its own audit report and its folded state (None: not there).
FindSet = Callable[[str], tuple[dict[str, Any], SetState | None]]


def audit_tournament(battles: Battles, sets: Sets, tournament_id: str,
                     records: Sequence[Recorded] | None = None) -> dict[str, Any]:
    """The audit of a tournament in the database. `records` stands in for the stored log (an
    edited copy, to see what the audit says of it)."""
    if records is None:
        records = Tournaments(battles, sets).records(tournament_id)

    def find(set_id: str) -> tuple[dict[str, Any], SetState | None]:
        return audit_set(battles, sets, set_id, omniscient=True), sets.load(set_id)
    return audit_records(str(tournament_id), records, find)


def audit_tournament_file(found: TournamentFile) -> dict[str, Any]:
    """The audit of a tournament file, from the file alone: every set from its own set file."""
    def find(set_id: str) -> tuple[dict[str, Any], SetState | None]:
        filed = found.sets.get(set_id)
        if filed is None:
            return {"status": "missing"}, None
        return audit_set_file(filed), fold_set(set_log(filed))
    return audit_records(str(found.header["tournament_id"]), found.records(), find)


def audit_records(tournament_id: str, records: Sequence[Recorded], find: FindSet) -> dict[str, Any]:
    """{"status": "ok"|"fail"|"in_progress", "tournament_id", "rounds", "sets", "head", "digest",
    "champion", "failure": {"seq", "reason"}|None, "summary": [lines]}"""
    state = TournamentState(tournament_id=tournament_id)
    digests: list[str] = []
    failure: dict[str, Any] | None = None
    for rec in records:
        reason = _check(find, state, rec, digests)
        if reason is not None:
            failure = {"seq": rec.seq, "reason": reason}
            break
        state = evolve_tournament(state, rec)
    done = failure is None and state.ended is not None
    digest = hashlib.sha256(orjson.dumps({"head": state.chain, "sets": digests})).hexdigest() if done else None
    report: dict[str, Any] = {
        "status": "fail" if failure else ("ok" if done else "in_progress"), "tournament_id": tournament_id,
        "rounds": len(state.ended_rounds), "sets": len(digests), "head": state.chain, "digest": digest,
        "champion": state.ended.champion if state.ended else None, "failure": failure}
    report["summary"] = summary(report)
    return report


def _check(find: FindSet, state: TournamentState, rec: Any, digests: list[str]) -> str | None:
    """Why `rec` may not follow `state` (None: it may): its place in the chain, then what the
    tournament's rules make of it. A log the rules could not have written fails here, never
    with an error of the audit's own."""
    fault = link_fault(state.seq, state.chain, rec)
    if fault is not None:
        return fault
    event = rec.event
    if state.created is None or isinstance(event, TournamentCreated):
        return None if state.created is None and isinstance(event, TournamentCreated) else \
            "a tournament's log opens with its TournamentCreated, and has one"
    if state.ended is not None:
        return "the tournament had ended"
    try:
        return _follows(find, state, event, digests)
    except RingsideError as refused:
        return refused.message


def _follows(find: FindSet, state: TournamentState, event: Any, digests: list[str]) -> str | None:
    current, created = state.current, state.created
    assert created is not None
    if isinstance(event, PlayerJoined):
        check_join(state, event.player)
    elif isinstance(event, RoundPaired):
        if current is not None:
            return f"round {current.round} was still in play"
        derived = next_pairings(state)
        recorded = [(p.a, p.b) for p in event.pairings]
        if event.round != len(state.ended_rounds) + 1 or derived != recorded:
            return f"round {event.round} paired {recorded}; the rules pair {derived} as the next round"
    elif isinstance(event, TiebreakStarted):
        if current is None or event.round != current.round or created.format != "elimination" or \
                all(p.a != event.a or p.b is None for p in current.pairings):
            return f"no elimination pairing of round {event.round} led by {event.a} is in play"
    elif isinstance(event, RoundEnded):
        return _check_round(find, state, event, digests)
    elif isinstance(event, TournamentEnded):
        if current is not None or next_pairings(state) is not None:
            return "the tournament ended before its last round"
        if (event.standings, event.champion) != final_standings(state):
            return "the standings are not what the recorded results make"
    return None


def _check_round(find: FindSet, state: TournamentState, event: RoundEnded, digests: list[str]) -> str | None:
    """The round's results: one for each of its pairings, in order, with the same set and the
    tiebreak sets recorded for it, each what its sets say."""
    current = state.current
    if current is None or event.round != current.round:
        return f"round {event.round} is not the round in play"
    if [(p.a, p.b, p.set_id) for p in event.results] != [(p.a, p.b, p.set_id) for p in current.pairings] or \
            any(p.tiebreaks != list(state.tiebreaks.get(p.a, ())) for p in event.results):
        return f"round {event.round}'s results are not those of its pairings and their sets"
    for played in event.results:
        reason = _check_result(find, state, played, digests)
        if reason is not None:
            return f"round {event.round}: {reason}"
    return None


def _check_result(find: FindSet, state: TournamentState, played: Played, digests: list[str]) -> str | None:
    created = state.created
    assert created is not None
    set_ids = played.set_ids
    winners = []
    for set_id in set_ids:
        report, seated = find(set_id)
        if report["status"] != "ok" or seated is None:
            return f"the set {set_id} of {played.a} against {played.b} does not audit ({report['status']})"
        shown = {seat: _entrant(state, entry) for seat, entry in seated.created.players.items()}
        if shown != {"p1": _entrant(state, played.a), "p2": _entrant(state, played.b)}:
            return f"the set {set_id} does not seat {played.a} and {played.b}"
        assert seated.ended is not None
        winners.append(seated.ended.winner)
        digests.append(report["digest"])
    try:
        derived = result_of(created, played.a, played.b, winners, set_ids)
    except NeedsSet:
        return f"{played.a} against {played.b} is recorded decided; its sets leave it undecided"
    if derived != played:
        return f"{played.a} against {played.b} is recorded {played.points_a}-{played.points_b}; its sets say otherwise"
    return None


def _entrant(state: TournamentState, entry: object) -> object:
    """How an entrant sits in a set: a house entrant as its bot, a player as its id."""
    if isinstance(entry, str) and entry in state.bots:
        return {"bot": state.bots[entry]}
    return {"bot": house_bot(entry)} if house_bot(entry) is not None else entry


def summary(report: dict[str, Any]) -> list[str]:
    lines = [f"tournament {report['tournament_id']}: {report['rounds']} rounds, {report['sets']} sets"]
    if report["failure"] is not None:
        lines.append(f"FAIL at seq {report['failure']['seq']}: {report['failure']['reason']}")
    elif report["status"] == "ok":
        lines.append(f"ok · champion {report['champion']} · digest {report['digest']}")
    else:
        lines.append("in progress")
    return lines
