"""`ringside replay import`, `ringside audit set` and `ringside log` (filters, follow)."""
from __future__ import annotations

import time
from pathlib import Path

import orjson
import typer

from domain.battles import Battles
from domain.sets import Sets
from replays import format as replay_format
from replays.audit import audit_set
from replays.importer import import_replay

from .cli_errors import clean_errors, perspective
from .render import event_line

audit_app = typer.Typer(help="Audit competitive sets.", no_args_is_help=True)
DB = typer.Option(None, "--db", help="Database URL (default: $RINGSIDE_DATABASE_URL or sqlite:///./ringside.db)")
FOLLOW_POLL_SECONDS = 0.25


@clean_errors
def replay_import(file: Path = typer.Argument(..., help="The replay file (.jsonl or .jsonl.gz)."),
                  db: str = DB) -> None:
    """Store a replay file that verifies, under its own battle id."""
    replay = replay_format.read(file)
    with Battles(db) as store:
        done = import_replay(store, replay)
    typer.echo(f"imported {done.battle_id}: {done.events} events, winner {done.winner or 'none (draw)'}, "
               f"head {done.head}")


@audit_app.command("set")
@clean_errors
def audit_set_command(set_id: str = typer.Argument(..., help="The set's id."), db: str = DB,
                      as_json: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Verify every battle of a set, then its results, carry-over and score; exit 1 on a problem.

    The operator's audit: it reads the database, which holds every seed and secret, so it shows
    every head hash and the set's digest, of a running battle and a private set too. Publish
    one only once its set is public; `GET /sets/{id}/audit` withholds them until then."""
    with Battles(db) as store:
        report = audit_set(store, Sets(store), set_id, omniscient=True)
    if as_json:
        typer.echo(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode())
    else:
        typer.echo("\n".join(report["summary"]))
    if report["status"] == "fail":
        raise typer.Exit(1)


def shown(wire: dict, types: list[str], seat: str | None) -> bool:
    """`--type` keeps events whose type starts with one of the given names (`ring.`, `ring.HpReduced`);
    `--seat` those that name the seat or one of its units (`p1`, `p1.emberfox`)."""
    if types and not any(wire["type"].startswith(t) for t in types):
        return False
    if seat is None:
        return True
    data = wire["data"]
    named = [data.get(k) for k in ("seat", "unit", "by", "target", "owner")]
    return any(isinstance(v, str) and (v == seat or v.startswith(seat + ".")) for v in named)


@clean_errors
def log(battle_id: str = typer.Argument(..., help="The battle's id."),
        from_seq: int = typer.Option(1, "--from", min=1, help="Start at this event seq."),
        viewer: str = typer.Option("spectator", "--as", help="A seat, 'spectator' or 'all'."),
        types: list[str] = typer.Option([], "--type", help="Only these event types (a prefix; repeatable)."),
        seat: str = typer.Option(None, "--seat", help="Only events that name this seat or its units."),
        follow: bool = typer.Option(False, "--follow", "-f", help="Keep printing as a live battle goes on."),
        db: str = DB) -> None:
    """Print a battle's event log as the viewer may see it."""
    with Battles(db) as store:
        who = perspective(viewer, store.load(battle_id).created.players)
        after = from_seq - 1
        while True:
            store.cache.drop(battle_id)         # another process may be writing this battle
            sight = store.reading.sight(battle_id, who)
            for wire in sight.events(after + 1):
                after = wire["seq"]
                if shown(wire, types, seat):
                    typer.echo(event_line(wire), nl=True)
            if not follow or (sight.state.outcome is not None and after >= sight.state.seq):
                return
            time.sleep(FOLLOW_POLL_SECONDS)

