"""`ringside simulate --tournament` and `ringside audit tournament`."""
from __future__ import annotations

import time
from typing import Any

import msgspec
import orjson
import typer

from domain.battles import Battles
from domain.sets import Sets
from domain.tournaments.service import Tournaments
from domain.tournaments.swiss import rounds_needed
from replays.tournament_audit import audit_tournament

from .cli_audit import print_report
from .cli_errors import clean_errors, fail


def simulate_tournament(ruleset: str, fmt: str, players: int | None, rounds: int | None, games: int, mode: str,
                        bots: str | None, seed: str, clock: Any, db: str | None, as_json: bool) -> None:
    """A whole tournament of house entrants, each set played bot against bot and stored."""
    if players is None:
        fail("--tournament needs --players")
    policies = tuple(name.strip() for name in (bots or "greedy").split(","))
    if fmt == "swiss" and rounds is None:
        rounds = rounds_needed(players)
    started = time.perf_counter()
    with Battles(db) as store:
        done = Tournaments(store, Sets(store)).simulate(ruleset, fmt, players=players, rounds=rounds, seed=seed,
                                                         bots=policies, games=games, mode=mode, clock=clock)
    assert done.ended is not None
    seconds = round(time.perf_counter() - started, 3)
    sets = sum(1 + len(p.tiebreaks) for r in done.ended_rounds for p in r.results if p.set_id is not None)
    if as_json:
        typer.echo(orjson.dumps({"tournament_id": done.tournament_id, "format": fmt, "players": players,
                                 "rounds": len(done.ended_rounds), "sets": sets, "champion": done.ended.champion,
                                 "standings": msgspec.to_builtins(done.ended.standings),
                                 "seconds": seconds}).decode())
        return
    typer.echo(f"tournament {done.tournament_id} ({ruleset} {fmt}, {players} players): "
               f"{len(done.ended_rounds)} rounds, {sets} sets, in {seconds}s")
    for placed in done.ended.standings[:10]:
        typer.echo(f"  {placed.rank:>3}. {placed.id:<24} {placed.points / 2:g} points, Buchholz {placed.buchholz / 2:g}")
    typer.echo(f"champion {done.ended.champion}")


@clean_errors
def audit_tournament_command(tournament: str = typer.Argument(..., metavar="TOURNAMENT_ID",
                                                              help="The tournament's id."),
                             db: str = typer.Option(None, "--db", help="Database URL (default: "
                                                    "$RINGSIDE_DATABASE_URL or sqlite:///./ringside.db)"),
                             as_json: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Re-derive every round's pairings, every result from its sets' own audits, and the
    standings, from the tournament's log; print ok and one digest, or exit 1 at the first
    difference."""
    with Battles(db) as store:
        report = audit_tournament(store, Sets(store), tournament)
    print_report(report, as_json)
