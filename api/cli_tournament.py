"""`ringside simulate --tournament` and `ringside audit tournament`."""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import msgspec
import orjson
import typer

from domain.battles import Battles
from domain.sets import Sets
from domain.tournaments.service import Tournaments
from domain.tournaments.swiss import rounds_needed
from replays import tournament_file
from replays.tournament_audit import audit_tournament, audit_tournament_file

from .cli_audit import names_a_file, print_report
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
        typer.echo(f"  {placed.rank:>3}. {placed.id:<24} {placed.points / 2:g} points, "
                   f"Buchholz {placed.buchholz / 2:g}")
    typer.echo(f"champion {done.ended.champion}")


@clean_errors
def audit_tournament_command(source: str = typer.Argument(..., metavar="TOURNAMENT_ID_OR_FILE",
                                                          help="The tournament's id in the database, or a tournament "
                                                               "file (`replay export --tournament` writes it) to "
                                                               "audit with no database."),
                             db: str = typer.Option(None, "--db", help="Database URL, for an id (default: "
                                                    "$RINGSIDE_DATABASE_URL or sqlite:///./ringside.db)"),
                             as_json: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Re-derive every round's pairings, every result from its sets' own audits, and the
    standings, from the tournament's log; print ok and one digest, or exit 1 at the first
    difference. Given a file it reads that file alone and opens no database."""
    if names_a_file(source):
        report = audit_tournament_file(tournament_file.read(Path(source)))
    else:
        with Battles(db) as store:
            report = audit_tournament(store, Sets(store), source)
    print_report(report, as_json)


def export_tournament(tournament_id: str, output: Path | None, db: str | None) -> None:
    """`ringside replay export --tournament`: a finished tournament's file, to stdout or `output`."""
    with Battles(db) as store:
        sets = Sets(store)
        found = tournament_file.build(Tournaments(store, sets), sets, tournament_id)
    if output is None:
        sys.stdout.buffer.write(tournament_file.dumps(found))
        return
    tournament_file.write(found, output)
    typer.echo(f"wrote {output} (tournament {tournament_id}: {len(found.sets)} sets)")
