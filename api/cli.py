"""The `ringside` command."""
from __future__ import annotations

import sys
import time
import uuid
from pathlib import Path
from typing import Any

import orjson
import typer
from rich.progress import Progress

from domain.ai import get_policy
from domain.ai.match import DEFAULT_THINK_MS, play, seeded_bytes
from domain.battles import Battles, utc_now
from domain.engine.battle import parse_battle_setup, seat_table
from domain.engine.errors import RingsideError
from domain.engine.events import OMNISCIENT
from domain.engine.ruleset import Ruleset, all_rulesets, get_ruleset
from domain.sets import MODES, Sets
from replays import format as replay_format
from replays.diff import first_divergence, view_at
from replays.verify import verify

from .adapters.click import invoke
from .cli_audit import audit_app, export_set, log, replay_import
from .cli_balance import balance
from .cli_bot import POLICY_NAMES, bot
from .cli_clock import CLOCK_HELP, THINK_HELP, Pace, preset_lines, preset_rows, read_clock, read_think
from .cli_errors import clean_errors, fail, parse_json_option, perspective
from .cli_projections import projections_app
from .cli_serve import serve
from .cli_tournament import audit_tournament_command, export_tournament, simulate_tournament
from .render import event_line, score_line

app = typer.Typer(help="Ringside: event-sourced battles.", no_args_is_help=True, add_completion=False,
                  pretty_exceptions_enable=False)
replay_app = typer.Typer(help="Export, verify, show and diff replay files.", no_args_is_help=True)
app.add_typer(replay_app, name="replay")
DB = typer.Option(None, "--db", help="Database URL (default: $RINGSIDE_DATABASE_URL or sqlite:///./ringside.db)")
AS_JSON = typer.Option(False, "--json", help="Print JSON.")
VERIFY_EXIT = {"ok": 0, "fail": 1, "unverifiable": 2}


def read_setup(rs: Ruleset[Any], text: str | None) -> dict[str, Any] | None:
    """`--setup`, checked whole before any battle starts (and before any progress display)."""
    if text is None:
        return None
    raw = parse_json_option(text, "--setup")
    if not isinstance(raw, dict):
        fail("--setup: the setup must be a JSON object")
    parse_battle_setup(rs, raw)
    return raw


def progress_display(as_json: bool) -> Progress:
    """A progress bar on a terminal only: elsewhere rich would leave a blank line in the output."""
    return Progress(transient=True, disable=as_json or not sys.stdout.isatty())


def out_json(value: Any) -> None:
    sys.stdout.write(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode() + "\n")


@app.command()
@clean_errors
def rulesets(as_json: bool = AS_JSON) -> None:
    """List the rulesets, each with the clock it recommends, and the clock presets."""
    rows: list[dict[str, Any]] = [
        {"id": r.id, "version": r.version, "content_hash": r.content_hash, "seats": list(r.default_table().seats),
         "recommended_clock": r.recommended_clock} for r in all_rulesets().values()]
    if as_json:
        out_json({"rulesets": rows, "clock_presets": preset_rows()})
        return
    for row in rows:
        typer.echo(f"{row['id']:<12} {row['version']:<8} content {row['content_hash']}  seats {','.join(row['seats'])}"
                   f"  clock {row['recommended_clock'] or '-'}")
    typer.echo("")
    for line in preset_lines():
        typer.echo(line)


@app.command()
@clean_errors
def simulate(ruleset: str = typer.Option(..., help="Ruleset id."),
             battles: int = typer.Option(1, min=1, help="How many battles."),
             seed: str = typer.Option("0", help="Simulation seed: same seed, same battles."),
             bots: str = typer.Option(None, help="A policy per seat, comma-separated (default: random on "
                                                  f"every seat): {POLICY_NAMES}."),
             setup: str = typer.Option(None, help="Setup as JSON, or @file.json (default: the ruleset's)."),
             db: str = DB, as_json: bool = AS_JSON,
             show_log: bool = typer.Option(False, "--show-log", help="Print the last battle's log."),
             games: int = typer.Option(None, "--set", min=1, max=99,
                                       help="Play sets of this many battles instead (--battles sets)."),
             mode: str = typer.Option(MODES[0], help=f"Set mode, one of {', '.join(MODES)}: best_of stops at a "
                                                      "majority, all plays every battle."),
             clock: str = typer.Option(None, "--clock", metavar="PRESET_OR_JSON", help=CLOCK_HELP),
             think_ms: str = typer.Option(None, "--think-ms", metavar="MS[,MS...]", help=THINK_HELP),
             tournament: str = typer.Option(None, "--tournament", metavar="swiss|elimination",
                                            help="Play a whole tournament of house entrants instead (with "
                                                 "--players; --bots are their policies, taken in turn)."),
             players: int = typer.Option(None, "--players", min=2, max=1024, help="A tournament's entrants."),
             rounds: int = typer.Option(None, "--rounds", help="A Swiss tournament's rounds (default: enough for a "
                                                                   "sole winner, ceil(log2 players)).")) -> None:
    """Play bot-vs-bot battles (or sets of battles, or a tournament) and store them."""
    if tournament is not None:
        simulate_tournament(ruleset, tournament, players, rounds, games or 1, mode, bots, seed, read_clock(clock),
                            db, as_json)
        return
    rs = get_ruleset(ruleset)
    raw_setup = read_setup(rs, setup)
    seats = seat_table(rs, raw_setup if raw_setup is not None else rs.default_setup).seats
    names = bots.split(",") if bots is not None else ["random"] * len(seats)
    if len(names) != len(seats):
        fail(f"--bots needs {len(seats)} policies, one per seat ({','.join(seats)})")
    policies = {seat: get_policy(name.strip(), rs.id) for seat, name in zip(seats, names)}
    spec = read_clock(clock)
    if spec is None and think_ms is not None:
        fail("--think-ms paces clocked battles: give --clock too")
    pace = Pace(spec, read_think(think_ms, seats, DEFAULT_THINK_MS))
    if games is not None:
        if mode not in MODES:
            fail(f"--mode must be one of {', '.join(MODES)}, not {mode!r}")
        simulate_sets(rs.id, policies, battles, games, mode, seed, raw_setup, db, as_json, show_log, pace)
        return
    simulate_battles(rs, policies, battles, seed, raw_setup, db, as_json, show_log, pace)


def simulate_battles(rs: Ruleset[Any], policies: dict[str, Any], count: int, seed: str, raw_setup: Any,
                     db: str | None, as_json: bool, show_log: bool, pace: Pace) -> None:
    ids, events, timeouts, started = [], 0, 0, time.perf_counter()
    with Battles(db) as store, progress_display(as_json) as progress:
        task = progress.add_task(f"{rs.id} battles", total=count)
        for i in range(count):
            match = play(rs, policies, battle_id=str(uuid.uuid4()), revealed=seeded_bytes(seed, "seed", i),
                         bot_seed=seeded_bytes(seed, "bots", i), setup=raw_setup, created_at=utc_now(),
                         clock=pace.clock, think_ms=pace.think_ms)
            store.save_battle(match.records, match.state)
            ids.append(match.state.battle_id)
            events += len(match.records)
            timeouts += match.timeouts
            progress.advance(task)
        seconds = round(time.perf_counter() - started, 3)
        if as_json:
            out_json({"battles": count, "battle_ids": ids, "events": events, "seconds": seconds,
                      **({"timeouts": timeouts} if pace.clock is not None else {})})
        else:
            timed = f", {timeouts} timeouts" if pace.clock is not None else ""
            typer.echo(f"stored {count} {rs.id} battles, {events} events{timed}, in {seconds}s")
            for bid in ids:
                typer.echo(bid)
        if show_log:
            for wire in store.events(ids[-1], OMNISCIENT):
                typer.echo(event_line(wire))


def simulate_sets(ruleset_id: str, policies: dict[str, Any], count: int, games: int, mode: str, seed: str,
                  raw_setup: Any, db: str | None, as_json: bool, show_log: bool, pace: Pace) -> None:
    set_ids, ids, events, started = [], [], 0, time.perf_counter()
    with Battles(db) as store, progress_display(as_json) as progress:
        sets = Sets(store)
        task = progress.add_task(f"{ruleset_id} sets", total=count)
        for number in range(count):
            done = sets.simulate(ruleset_id, policies, games=games, mode=mode, seed=seed, setup=raw_setup,
                                 number=number, clock=pace.clock, think_ms=pace.think_ms)
            set_ids.append(done.set_id)
            ids += [b.battle_id for b in done.battles]
            events += sum(store.load(b.battle_id).seq for b in done.battles)
            progress.advance(task)
        seconds = round(time.perf_counter() - started, 3)
        if as_json:
            out_json({"battles": len(ids), "battle_ids": ids, "set_ids": set_ids, "events": events,
                      "seconds": seconds})
        else:
            typer.echo(f"stored {count} {ruleset_id} set(s) of up to {games}: {len(ids)} battles, {events} events, "
                       f"in {seconds}s")
            for sid in set_ids:
                result = sets.get(sid)
                typer.echo(f"set {sid}: score {score_line(result['score'])}, "
                           f"winner {result['winner'] or 'none (draw)'}")
        if show_log:
            for wire in store.events(ids[-1], OMNISCIENT):
                typer.echo(event_line(wire))


@replay_app.command("export")
@clean_errors
def replay_export(battle_id: str = typer.Argument(None, help="The battle's id (or --set SET_ID instead)."),
                  set_id: str = typer.Option(None, "--set", metavar="SET_ID",
                                             help="Export this finished set instead: one set file holding the "
                                                  "set's own log and every battle's replay, in order."),
                  tournament_id: str = typer.Option(None, "--tournament", metavar="TOURNAMENT_ID",
                                                    help="Export this finished tournament instead: its log and "
                                                         "every set's file, for `ringside audit tournament FILE`."),
                  output: Path = typer.Option(None, "-o", "--output", "--out",
                                              help="File to write (.jsonl, .jsonl.gz: compressed); default stdout."),
                  viewer: str = typer.Option("spectator", "--as",
                                             help="Viewer for an unfinished battle: spectator (held back by "
                                                  "its spectator delay), all or a seat. A set file is whole: "
                                                  "spectator for a public set, all for a private one too."),
                  db: str = DB) -> None:
    """Write a battle's replay file (full once it has ended): as far as the viewer may see it now.
    With --set, write a finished set's file, for `ringside audit set FILE` (no database needed)
    and `ringside replay import FILE`."""
    if sum(given is not None for given in (battle_id, set_id, tournament_id)) != 1:
        fail("give a battle id, or --set SET_ID for a whole set, or --tournament TOURNAMENT_ID: one, not both")
    if tournament_id is not None:
        export_tournament(tournament_id, output, db)
        return
    if set_id is not None:
        export_set(set_id, output, viewer, db)
        return
    with Battles(db) as store:
        state = store.load(battle_id)
        replay = store.reading.sight_of(state, perspective(viewer, state.created.players)).replay()
    if output is None:
        sys.stdout.buffer.write(replay_format.dumps(replay))
        return
    replay_format.write(replay, output)
    typer.echo(f"wrote {output} ({len(replay.events)} events)")


@replay_app.command("verify")
@clean_errors
def replay_verify(files: list[Path] = typer.Argument(..., help="Replay files (.jsonl or .jsonl.gz)."),
                  as_json: bool = typer.Option(False, "--json", help="Print each verified file's report as JSON.")
                  ) -> None:
    """Check hash chain, seed commitment and a full re-simulation; print OK, FAIL or UNVERIFIABLE per file.

    Exit status:
    0: every file is OK.
    1: a file FAILs (a file that cannot be read or parsed FAILs too), whatever the others.
    2: no file FAILs, and a file is UNVERIFIABLE (it pins a ruleset version that is not installed)."""
    statuses = {verify_file(path, as_json) for path in files}
    # A failure is what an auditor must not miss: it decides the exit status over the rest.
    raise typer.Exit(1 if "fail" in statuses else max(VERIFY_EXIT[status] for status in statuses))


def verify_file(path: Path, as_json: bool) -> str:
    """Verify one file, print its line (or report), and return its status."""
    try:
        report = verify(replay_format.read(path))
    except RingsideError as exc:
        # The reader names the file ("<file>: ..." or "cannot read <file>: ..."); the FAIL line does already.
        reason = exc.message.removeprefix(f"{path}: ").replace(f"cannot read {path}:", "cannot read:", 1)
        typer.echo(f"FAIL {path}: {reason}")
        return "fail"
    if as_json:
        out_json({"file": str(path), **report.as_json()})
    elif report.ok:
        typer.echo(f"OK {path}")
    elif report.status == "unverifiable":
        typer.echo(f"UNVERIFIABLE {path}: {report.reason}")
    else:
        typer.echo(f"FAIL {path}: first bad event seq {report.seq}: {report.reason}")
    return report.status


@replay_app.command("show")
@clean_errors
def replay_show(source: str = typer.Argument(..., metavar="FILE_OR_BATTLE_ID",
                                             help="A replay file, or the id of a stored battle."),
                at: int = typer.Option(None, "--at", min=1, help="Show the view after this seq (default: the last)."),
                viewer: str = typer.Option("spectator", "--as", help="View as spectator, all or a seat."),
                db: str = DB) -> None:
    """Render the view at a point of a replay file, or of a stored battle (seeking from its nearest keyframe)."""
    if not Path(source).exists() and not source.endswith((".jsonl", ".gz")):
        with Battles(db) as store:
            state = store.load(source)
            sight = store.reading.sight_of(state, perspective(viewer, state.created.players))
            view = sight.view(at)       # without --at: as far as the viewer may see now
            out_json({"seq": view["seq"], "view": view})
        return
    replay = replay_format.read(Path(source))
    who = perspective(viewer, replay.header.get("players") or {})
    seq = at or len(replay.events)
    if seq > len(replay.events):
        fail(f"the replay has {len(replay.events)} events; there is no seq {seq}")
    rebuilt = view_at(replay, seq, who)
    if rebuilt is None:
        fail(f"cannot rebuild the battle at seq {seq}")
    out_json({"seq": seq, "view": rebuilt})


@replay_app.command("diff")
@clean_errors
def replay_diff(a: Path = typer.Argument(..., help="The first replay file."),
                b: Path = typer.Argument(..., help="The second replay file.")) -> None:
    """Show the first diverging event of two replays and the views there."""
    left, right = replay_format.read(a), replay_format.read(b)
    found = first_divergence(left, right)
    if found is None:
        typer.echo(f"identical: {len(left.events)} events")
        return
    typer.echo(f"first divergence at seq {found.seq}")
    typer.echo(f"  {a}: {event_line(found.left) if found.left else '(no event)'}")
    typer.echo(f"  {b}: {event_line(found.right) if found.right else '(no event)'}")
    out_json({"views": {str(a): view_at(left, found.seq), str(b): view_at(right, found.seq)}})
    raise typer.Exit(1)


app.command()(log)
replay_app.command("import")(replay_import)
audit_app.command("tournament")(audit_tournament_command)
app.add_typer(audit_app, name="audit")
app.command()(clean_errors(serve))
app.command()(clean_errors(bot))
app.command()(clean_errors(balance))
app.add_typer(projections_app, name="projections")


def main() -> None:
    """The `ringside` command. A usage error (an unknown option, a value out of range) is one
    `error:` line and exit 2, like every other refusal, rather than a boxed panel."""
    try:
        code = invoke(app, "ringside")
    except typer.Abort:
        typer.echo("error: aborted", err=True)
        code = 1
    sys.exit(code)


if __name__ == "__main__":
    main()
