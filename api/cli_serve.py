"""`ringside serve`: the HTTP service, on the embedded SQLite default unless told otherwise."""
from __future__ import annotations

import os

import typer


def serve(host: str = typer.Option("127.0.0.1", help="Interface to listen on."),
          port: int = typer.Option(8000, min=1, max=65535),
          workers: int = typer.Option(1, min=1, max=64, help="Worker processes (use PostgreSQL + Redis for > 1)."),
          db: str = typer.Option(None, "--db", help="Database URL (default: $RINGSIDE_DATABASE_URL or sqlite:///./ringside.db)"),
          redis: str = typer.Option(None, "--redis", help="Redis URL for views and fan-out (default: $RINGSIDE_REDIS_URL; none: in-memory)."),
          log_level: str = typer.Option("warning", help="uvicorn log level.")) -> None:
    """Run the HTTP/WebSocket service."""
    import uvicorn

    from domain.store import store_env

    if db:
        os.environ["RINGSIDE_DATABASE_URL"] = db
    if redis:
        os.environ["RINGSIDE_REDIS_URL"] = redis
    store_env(os.environ.get("RINGSIDE_DATABASE_URL"))     # a bad URL fails here, in one line
    typer.echo(f"ringside serving on http://{host}:{port} (docs at /docs), {workers} worker(s)")
    uvicorn.run("api.app:create_app", factory=True, host=host, port=port, workers=workers,
                log_level=log_level, access_log=False)
