"""`ringside projections run|status|rebuild`: the projection runner as its own process, where
each view stands (and the battles it set aside), and rebuilds."""
from __future__ import annotations

import os
import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING

import orjson
import typer
from rich.progress import Progress

from projections.runner import Runner, Views
from projections.views import PROJECTIONS

from . import runtime
from .cli_errors import check_redis, clean_errors, fail
from .runner_process import NICENESS

if TYPE_CHECKING:
    from .services import Services

projections_app = typer.Typer(help="Run or rebuild the read models (views, AI memory, leaderboards, history).",
                              no_args_is_help=True)


DB = typer.Option(None, "--db", help="Database URL (default: $RINGSIDE_DATABASE_URL or sqlite:///./ringside.db)")
REDIS = typer.Option(None, "--redis", help="Redis URL of the views (default: $RINGSIDE_REDIS_URL)")
VIEWS = typer.Option(None, "--views", help="SQLite file of the views, without Redis (default: $RINGSIDE_VIEWS_PATH "
                                          "or the store's file with .views.db)")


def _services(db: str | None, redis: str | None, views: str | None) -> Services:
    """The services over the shared views: Redis once its URL is known good and its server
    answers; else a SQLite file beside a SQLite store."""
    from domain.store import store_env

    from .services import Settings, bootstrap, served

    store_env(db)       # a bad URL fails here, in one line
    url = redis or os.environ.get("RINGSIDE_REDIS_URL")
    prefix = os.environ.get("RINGSIDE_REDIS_PREFIX")
    base = Settings(database_url=db, projections="external")
    if prefix:
        base = replace(base, redis_prefix=prefix)
    if url:
        check_redis(url, "--redis" if redis else "RINGSIDE_REDIS_URL")
        return bootstrap(replace(base, redis_url=url))
    # As the server places them: beside a SQLite store's file, unless a file is named.
    settings = served(replace(base, views_path=views or os.environ.get("RINGSIDE_VIEWS_PATH") or None))
    if not settings.views_path:
        fail("the views to run or rebuild live in Redis, or in a SQLite file beside a SQLite store: "
             "pass --redis or set RINGSIDE_REDIS_URL (in-memory views are rebuilt by the server at every start)")
    return bootstrap(settings)


def watch_parent(parent: int) -> None:
    """Exit as soon as `parent` is gone (a server killed outright leaves no runner behind)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)     # a page half-applied is one SQLite transaction: rolled back

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


@projections_app.command("run")
@clean_errors
def run(db: str = DB, redis: str = REDIS, views: str = VIEWS,
        parent: int = typer.Option(None, "--parent", hidden=True, help="Stop when this process is gone.")) -> None:
    """Follow the event log and keep the shared views current (the production runner process)."""
    if parent is not None:      # a server's child (api/runner_process.py): it yields the CPU to its server
        watch_parent(parent)
        os.nice(NICENESS)
    services = _services(db, redis, views)
    where = services.settings.redis_url or services.settings.views_path
    typer.echo(f"projections following the log into {where}")
    runtime.settle()
    try:
        Runner(services.projections).run_forever()
    finally:
        services.close()


@projections_app.command("status")
@clean_errors
def status(db: str = DB, redis: str = REDIS, views: str = VIEWS,
           as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Each view's position in the log, and the battles it set aside after failing on them."""
    services = _services(db, redis, views)
    try:
        stored = services.views.positions()
        followed = Views(services.battles, services.views)
        head = followed.head()
        positions = {name: stored.get(name) for name in PROJECTIONS}
        aside = followed.set_aside()
    finally:
        services.close()
    if as_json:
        typer.echo(orjson.dumps({"head": head, "positions": positions, "set_aside": aside}).decode())
        return
    typer.echo(f"log head {head}")
    for name, position in positions.items():
        typer.echo(f"{name:<14} at {position if position is not None else '-'}")
    for name, failed in aside.items():
        for owner, why in failed.items():
            typer.echo(f"set aside: {name} {owner} seq {why['seq']} ({why['type']}): {why['error']}")
    if not aside:
        typer.echo("nothing set aside")


@projections_app.command("rebuild")
@clean_errors
def rebuild(name: str = typer.Argument(None, help=f"One of {', '.join(PROJECTIONS)}; all when omitted."),
            db: str = DB, redis: str = REDIS, views: str = VIEWS) -> None:
    """Drop a view (or all) and rebuild it from the event log."""
    if name is not None and name not in PROJECTIONS:
        fail(f"unknown view {name!r}; known: {', '.join(PROJECTIONS)}")
    services = _services(db, redis, views)
    try:
        names = [name] if name else list(PROJECTIONS)
        for view in names:
            services.views.drop(view)
        rebuilt = Views(services.battles, services.views, names)
        total = rebuilt.head()
        with Progress() as progress:
            task = progress.add_task(f"rebuilding {', '.join(names)}", total=total or 1)
            read = rebuilt.catch_up(lambda n: progress.advance(task, n))
        typer.echo(f"rebuilt {', '.join(names)} from {read} logged records")
        aside = sum(len(failed) for failed in rebuilt.set_aside().values())
        if aside:
            typer.echo(f"{aside} set aside after failing: see `ringside projections status`")
    finally:
        services.close()
