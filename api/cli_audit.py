"""`ringside replay import`, `ringside replay export --set`, `ringside audit set` and
`ringside log` (filters, follow)."""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import orjson
import typer

from domain.battles import Battles
from domain.engine.errors import quote
from domain.engine.events import Viewer
from domain.matchmaking.audit import audit_queue
from domain.matchmaking.service import Queues
from domain.players import Players
from domain.sets import Sets
from replays import set_file
from replays.audit import audit_set, audit_set_file
from replays.format import Replay
from replays.importer import import_replay, import_set

from .cli_errors import clean_errors, fail, perspective
from .render import event_line

audit_app = typer.Typer(help="Audit competitive sets and queues.", no_args_is_help=True)
DB = typer.Option(None, "--db", help="Database URL (default: $RINGSIDE_DATABASE_URL or sqlite:///./ringside.db)")
FOLLOW_POLL_SECONDS = 0.25


@clean_errors
def replay_import(file: Path = typer.Argument(..., help="A replay file or a set file, as `replay export` writes "
                                                        "them (--set for a set; .jsonl or .jsonl.gz)."),
                  db: str = DB) -> None:
    """Store a replay file that verifies, under its own battle id; or a set file whose set audits,
    as that set with all its battles, in one transaction. Anything else, or what is stored here
    already, is refused and nothing is written."""
    found = set_file.read_any(file)
    with Battles(db) as store:
        if isinstance(found, Replay):
            done = import_replay(store, found)
            typer.echo(f"imported {done.battle_id}: {done.events} events, winner {done.winner or 'none (draw)'}, "
                       f"head {done.head}")
            return
        made = import_set(store, found)
    typer.echo(f"imported set {made.set_id}: {made.battles} battles, {made.events} events, "
               f"winner {made.winner or 'none (tie)'}, digest {made.digest}")


def export_set(set_id: str, output: Path | None, viewer: str, db: str | None) -> None:
    """`ringside replay export --set`: a finished set's file, to stdout or `output`."""
    if viewer not in ("spectator", "all"):
        fail(f"--as: a set file is whole: spectator (a public set) or all (any finished set), not {quote(viewer)}")
    with Battles(db) as store:
        found = set_file.build(Sets(store), set_id, Viewer.parse(viewer))
    if output is None:
        sys.stdout.buffer.write(set_file.dumps(found))
        return
    set_file.write(found, output)
    events = sum(len(replay.events) for replay in found.battles)
    typer.echo(f"wrote {output} (set {found.header['set_id']}: {len(found.battles)} battles, {events} events)")


def print_report(report: dict[str, Any], as_json: bool) -> None:
    """An audit's report, as JSON or its summary lines; exit 1 when it failed."""
    if as_json:
        typer.echo(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode())
    else:
        typer.echo("\n".join(report["summary"]))
    if report["status"] == "fail":
        raise typer.Exit(1)


def names_a_file(source: str) -> bool:
    return Path(source).exists() or source.endswith((".jsonl", ".gz"))


@audit_app.command("set")
@clean_errors
def audit_set_command(source: str = typer.Argument(..., metavar="SET_ID_OR_FILE",
                                                   help="The set's id in the database, or a set file (as "
                                                        "`replay export --set` writes it) to audit with no database."),
                      db: str = typer.Option(None, "--db", help="Database URL, for a set id (default: "
                                                                "$RINGSIDE_DATABASE_URL or sqlite:///./ringside.db)"),
                      as_json: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Verify every battle of a set, then its results, carry-over and score; exit 1 on a problem.

    Given a set id it is the operator's audit: it reads the database, which holds every seed and
    secret, so it shows every head hash and the set's digest, of a running battle and a private
    set too. Publish one only once its set is public; `GET /sets/{id}/audit` withholds them until
    then. Given a set file it reads that file alone and opens no database; the file's header and
    its battles' order are checked against the set's log too."""
    if names_a_file(source):
        report = audit_set_file(set_file.read(Path(source)))
    else:
        with Battles(db) as store:
            report = audit_set(store, Sets(store), source, omniscient=True)
    print_report(report, as_json)


@audit_app.command("queue")
@clean_errors
def audit_queue_command(queue: str = typer.Argument(..., help="The queue's id (GET /queues lists them)."),
                        db: str = typer.Option(None, "--db", help="Database URL (default: $RINGSIDE_DATABASE_URL "
                                                                  "or sqlite:///./ringside.db)"),
                        as_json: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Re-derive every pairing wave of a queue from its log and compare; exit 1 on a difference."""
    with Battles(db) as store:
        report = audit_queue(queue, Queues(store, Players(store.store)).records(queue))
    print_report(report, as_json)


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

