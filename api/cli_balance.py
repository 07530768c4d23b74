"""`ringside balance`: play every matchup a ruleset declares, bot against bot in memory, and
report the win rates (by seat, side, entry, matchup and, with two bots, of the first bot), each
with its 95% interval, how the battles ended and how long they lasted. The report is printed
and written, with its picture, into a folder (`docs/balance.md`)."""
from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson
import typer
from rich.console import Console
from rich.progress import Progress

from domain.balance import BattleLog, Fought, Plan, play_plan, plan, report
from domain.balance.workers import battles as battles_of
from domain.balance.plot import draw
from domain.engine.ruleset import get_ruleset

from .cli_bot import POLICY_NAMES
from .cli_errors import fail

LABEL_WIDTH = 26            # the least width of the names column
GRID_CELL = 16              # a matchup grid's column: "100.0 [68-100]" and a gap


def balance(ruleset: str = typer.Option(..., help="Ruleset id."),
            bots: str = typer.Option("greedy", help="One policy, which plays every side, or two, A,B: each "
                                                    "matchup is played with A on the first side and B on the "
                                                    f"second and the other way round, equally ({POLICY_NAMES}; "
                                                    "search@N: N iterations a move)."),
            battles: int = typer.Option(20, min=1, help="Battles per matchup (with two bots, rounded up to even)."),
            seed: str = typer.Option("0", help="Run seed: same seed, same battles, same report."),
            first_on: str = typer.Option(None, "--first-on", metavar="SIDE",
                                         help="With two bots: play only the battles with the first on SIDE "
                                              "(half the run: the same battles a full run plays there)."),
            matchups: str = typer.Option(None, "--matchups", metavar="NAMES",
                                         help="Play only these matchups: comma-separated matchup labels or "
                                              "entries (a deck, team, formation or encounter)."),
            out: Path = typer.Option(None, "--out", help="Folder for balance.json, balance.svg and balance.png "
                                                         "(default: balance-<ruleset>/ here)."),
            jobs: int = typer.Option(1, "--jobs", min=1, max=256, help="Battles played at once, each in its own "
                                                                       "process: one a core at most."),
            log: Path = typer.Option(None, "--log", help="A file that keeps each battle as it ends; given again "
                                                         "with the same run, only the battles it lacks are played."),
            as_json: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Play bot-vs-bot battles over every matchup of a ruleset and report its balance."""
    started = time.perf_counter()
    run = plan(get_ruleset(ruleset), names(bots), battles, seed, only=names(matchups) if matchups else (),
               first_on=first_on)
    fought = play_with_progress(run, jobs, BattleLog(log, run) if log is not None else None)
    figures = report(run.as_json(), fought)
    folder = out if out is not None else Path(f"balance-{run.ruleset.id}")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "balance.json").write_bytes(orjson.dumps(figures, option=orjson.OPT_INDENT_2) + b"\n")
        draw(figures, lengths(fought), folder)
    except OSError as exc:
        fail(f"--out: cannot write {exc.filename or folder}: {exc.strerror}")
    if as_json:
        sys.stdout.write(orjson.dumps(figures, option=orjson.OPT_INDENT_2).decode() + "\n")
        return
    for line in text(figures):
        typer.echo(line)
    typer.echo(f"\nwrote {folder}/balance.json, balance.svg and balance.png in {time.perf_counter() - started:.1f}s")


def lengths(fought: list[Fought]) -> dict[str, list[int]]:
    """Each ended battle's decisions and turns, for the histograms."""
    return {"decisions": [f.decisions for f in fought if f.decisions is not None],
            "turns": [f.turns for f in fought if f.turns is not None]}


def names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def play_with_progress(run: Plan, jobs: int, log: BattleLog | None) -> list[Fought]:
    """The run's battles, `jobs` at a time, each kept in the `log` as it ends (those the log
    holds already are not played again), with a progress bar on stderr when it is a terminal."""
    done = log.read() if log is not None else {}
    total = len(battles_of(run))
    with Progress(console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty()) as progress:
        task = progress.add_task(f"{run.ruleset.id} balance", total=total, completed=len(done))

        def each(fought: Fought, number: int) -> None:
            if log is not None:
                log.append(fought, number)
            progress.advance(task)
        if log is not None:
            log.open()
        try:
            return play_plan(run, each, jobs=jobs, done=done)
        finally:
            if log is not None:
                log.close()


def text(figures: Mapping[str, Any]) -> list[str]:
    """The report as the terminal shows it, its names in one column as wide as the longest."""
    p = figures["parameters"]
    bots, kept = seating(p)
    limit, unfinished = figures["endings"]["limit"], figures["endings"]["unfinished"]
    width = max(LABEL_WIDTH, *(len(name) + 2 for name in listed_names(figures)))
    lines = [f"{p['ruleset']} {p['version']}: {figures['battles']} battles, {p['battles_per_matchup']} per matchup"
             f"{kept} over {plural(len(p['matchups']), 'matchup')}; {bots}; seed {p['seed']}",
             "win %: a draw counts half a win; [low, high]: its 95% Wilson score interval", "",
             f"ended by a turn or round limit: {limit['count']} of {figures['battles']}, "
             f"{percent(limit['share'])}% [{percent(limit['low'])}, {percent(limit['high'])}]"]
    if unfinished["count"]:
        lines.append(f"never ended (counted as draws): {unfinished['count']} of {figures['battles']}")
    if figures["bot"] is not None:
        bot = figures["bot"]
        lines += ["", heading(f"{bot['policy']} against {bot['against']}", width),
                  rate_line("overall", bot["overall"], width),
                  *(rate_line(f"on {side}", score, width) for side, score in bot["sides"].items())]
    for title, key in (("by seat", "seats"), ("by side", "sides"), ("by entry", "entries")):
        lines += ["", heading(title, width), *(rate_line(name, score, width) for name, score in figures[key].items())]
    return [*lines, "", *matchup_lines(figures["matchups"], width), "", *ending_lines(figures), "",
            *length_lines(figures["lengths"], width), *play_lines(figures["play"])]


def seating(parameters: Mapping[str, Any]) -> tuple[str, str]:
    """Who played which side, and which of each matchup's battles were played."""
    bots, first_on = parameters["bots"], parameters.get("first_on")
    if len(bots) == 1:
        return f"{bots[0]} on every side", ""
    if first_on is None:
        return f"{bots[0]} and {bots[1]} swapping sides", ""
    return f"{bots[0]} on {first_on} against {bots[1]}", f" (the half with {bots[0]} on {first_on})"


def play_lines(play: Mapping[str, Mapping[str, Mapping[str, float]]]) -> list[str]:
    """The game's own tallies of each policy's play on each side, per 100 battles."""
    lines: list[str] = []
    for policy, sides in play.items():
        for side, counts in sides.items():
            tallied = {name: value for name, value in counts.items() if name != "battles"}
            if tallied:
                lines += ["", f"{policy} on {side}, per 100 battles ({number(counts['battles'])} played)",
                          *(f"  {name:<{LABEL_WIDTH}}{number(value):>9}" for name, value in tallied.items())]
    return lines


def listed_names(figures: Mapping[str, Any]) -> list[str]:
    """Every name a line of rates starts with."""
    table = figures["matchups"]
    pairs = [f"{c['row']} v {c['column']}" for c in table["cells"]] if is_list(table) else []
    return [*figures["seats"], *figures["sides"], *figures["entries"], *pairs]


def heading(title: str, width: int) -> str:
    return f"{title:<{width + 2}}win %  95% interval    battles"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def percent(rate: float | None, digits: int = 1) -> str:
    return "-" if rate is None else f"{100 * rate:.{digits}f}"


def rate_line(name: str, score: Mapping[str, Any], width: int) -> str:
    interval = f"[{percent(score['low'])}, {percent(score['high'])}]"
    return f"  {name:<{width}}{percent(score['rate']):>5}  {interval:<14}{score['battles']:>9}"


def is_list(table: Mapping[str, Any]) -> bool:
    """Whether the matchup table reads better as a list: one side played a single entry."""
    return len(table["rows"]) == 1 or len(table["columns"]) == 1


def matchup_lines(table: Mapping[str, Any], width: int) -> list[str]:
    """The matchup table: a grid of the row entry's win % (interval in whole percents) with
    its columns numbered, or a line a cell when one side played a single entry."""
    rows, columns = table["rows"], table["columns"]
    cells = {(c["row"], c["column"]): c for c in table["cells"]}
    if is_list(table):
        return [heading("by matchup", width), *(rate_line(f"{row} v {column}", cells[(row, column)], width)
                                                for row in rows for column in columns if (row, column) in cells)]
    label = max(len(row) for row in rows) + 6
    lines = ["by matchup: win % of the row entry against the column entry [95% interval]",
             " " * (label + 2) + "".join(f"({n})".center(GRID_CELL) for n in range(1, len(columns) + 1))]
    for row in rows:
        number = f"({columns.index(row) + 1}) " if row in columns else ""
        lines.append(f"  {number + row:<{label}}" + "".join(grid_cell(cells.get((row, column))).center(GRID_CELL)
                                                           for column in columns))
    if rows != columns:
        lines.append("  columns: " + ", ".join(f"({n}) {column}" for n, column in enumerate(columns, 1)))
    return lines


def grid_cell(cell: Mapping[str, Any] | None) -> str:
    if cell is None:
        return "-"
    return f"{percent(cell['rate'])} [{percent(cell['low'], 0)}-{percent(cell['high'], 0)}]"


def ending_lines(figures: Mapping[str, Any]) -> list[str]:
    reasons = figures["endings"]["reasons"]
    width = max([LABEL_WIDTH, *(len(r["reason"]) + 2 for r in reasons)])
    return [f"{'endings':<{width + 2}}battles  share",
            *(f"  {r['reason']:<{width}}{r['count']:>7}  {percent(r['share']):>5}%" for r in reasons)]


def length_lines(lengths: Mapping[str, Mapping[str, Any]], width: int) -> list[str]:
    lines = [f"{'lengths':<{width + 2}}median    p10    p90    max"]
    for name, label in (("decisions", "decisions per battle"), ("turns", "turns (the game's count)")):
        row = lengths[name]
        lines.append(f"  {label:<{width}}" + "".join(f"{number(row[k]):>7}" for k in ("median", "p10", "p90", "max")))
    return lines


def number(value: float | int | None) -> str:
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
