"""`ringside projections run|rebuild`: the projection runner as its own process, and rebuilds."""
from __future__ import annotations

import os

import typer
from rich.progress import Progress

from projections.runner import Runner, Views
from projections.views import PROJECTIONS

from . import runtime
from .cli_errors import check_redis, clean_errors, fail

projections_app = typer.Typer(help="Run or rebuild the read models (views, AI memory, leaderboards, history).",
                              no_args_is_help=True)


DB = typer.Option(None, "--db", help="Database URL (default: $RINGSIDE_DATABASE_URL or sqlite:///./ringside.db)")
REDIS = typer.Option(None, "--redis", help="Redis URL of the views (default: $RINGSIDE_REDIS_URL)")


def _services(db: str | None, redis: str | None):
    """The services over the Redis views, once the Redis URL is known good and its server answers."""
    from .services import Settings, bootstrap

    url = redis or os.environ.get("RINGSIDE_REDIS_URL")
    if not url:
        fail("the views to run or rebuild live in Redis: pass --redis or set RINGSIDE_REDIS_URL "
             "(embedded in-memory views are rebuilt by the server at every start)")
    check_redis(url, "--redis" if redis else "RINGSIDE_REDIS_URL")
    prefix = os.environ.get("RINGSIDE_REDIS_PREFIX")
    return bootstrap(Settings(database_url=db, redis_url=url, external_projections=True,
                              **({"redis_prefix": prefix} if prefix else {})))


@projections_app.command("run")
@clean_errors
def run(db: str = DB, redis: str = REDIS) -> None:
    """Follow the event log and keep the Redis views current (the production runner process)."""
    services = _services(db, redis)
    typer.echo(f"projections following the log into {services.settings.redis_url}")
    runtime.settle()
    try:
        Runner(services.projections).run_forever()
    finally:
        services.close()


@projections_app.command("rebuild")
@clean_errors
def rebuild(name: str = typer.Argument(None, help=f"One of {', '.join(PROJECTIONS)}; all when omitted."),
            db: str = DB, redis: str = REDIS) -> None:
    """Drop a view (or all) and rebuild it from the event log."""
    if name is not None and name not in PROJECTIONS:
        fail(f"unknown view {name!r}; known: {', '.join(PROJECTIONS)}")
    services = _services(db, redis)
    try:
        names = [name] if name else list(PROJECTIONS)
        for view in names:
            services.views.drop(view)
        views = Views(services.battles, services.views, names)
        total = views.head()
        with Progress() as progress:
            task = progress.add_task(f"rebuilding {', '.join(names)}", total=total or 1)
            read = views.catch_up(lambda n: progress.advance(task, n))
        typer.echo(f"rebuilt {', '.join(names)} from {read} logged records")
    finally:
        services.close()
