"""The FastAPI application: routers, JSON errors, body limits, and the services they share.

The seats' presence (projections/presence.py) is the app's, beside the services: it is made
from what they hold (the live hub that carries its notices, the battles' clock, Redis), and
started and closed with them.
"""
from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from projections.presence import Presence

from . import errors, runtime, streams
from .fast import FastRoutes
from .json import OrjsonResponse
from .routes import battles, players, queues, replays, rulesets, sets, tournaments, viewer, views
from .services import Services, Settings, bootstrap, served
from .timelines import Timelines

MAX_BODY_BYTES = 1024 * 1024        # a JSON request body; the largest real one (a ring setup) is ~10 KB
# Replay uploads (JSONL or gzip): their routes inflate them under limits of their own.
UPLOAD_PATHS = {"/replays/verify": replays.MAX_REPLAY_BYTES, "/replays/at": replays.MAX_REPLAY_BYTES,
                "/replays/timeline": replays.MAX_REPLAY_BYTES}
# Each module's `router`, in order.
ROUTED = (rulesets, views, players, queues, battles, sets, tournaments, replays, viewer, streams)


def create_app(settings: Settings | None = None, services: Services | None = None, *,
               long_running: bool = False) -> FastAPI:
    """`long_running`: the app is a server process's for its lifetime (`ringside serve`), which
    tunes the interpreter once it has started (`runtime.settle`)."""
    services = services or bootstrap(settings)
    presence = Presence(services.live.notify, services.battles.now_ms, services.settings.redis_url,
                        services.settings.redis_prefix)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services.start()
        presence.start()
        if long_running:
            runtime.settle()
        try:
            yield
        finally:
            presence.close()
            services.close()

    # FastAPI's native telemetry looks the OpenTelemetry providers up on every request, even
    # when none is configured: on only when asked for (RINGSIDE_TELEMETRY).
    traced = services.settings.telemetry
    app = FastAPI(title="Ringside", version="0.1.0", lifespan=lifespan, default_response_class=OrjsonResponse,
                  description="Event-sourced battles: commands, views, streams, replays.",
                  telemetry={"tracing": traced, "metrics": traced, "logs": traced})
    app.state.services = services
    app.state.timelines = Timelines()
    app.state.presence = presence
    errors.install(app)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, per_path=UPLOAD_PATHS)
    # The outermost of the app's own layers, so the requests it answers skip the others and the
    # router; only the framework's own error, telemetry and body-size layers run before it.
    app.add_middleware(FastRoutes, services=services, body_limit=MAX_BODY_BYTES)
    for module in ROUTED:
        app.include_router(module.router)
    return app


def server_app() -> FastAPI:
    """The app factory each worker of `ringside serve` builds, with a server's settings
    (`services.served`: on a SQLite file, views in a file beside it, kept by a child process)."""
    return create_app(served(Settings.from_env()), long_running=True)


class BodyLimit:
    """Refuses a request body past its limit with 413 `payload_too_large`: at once when its
    Content-Length says so, otherwise as soon as the bytes received (chunked uploads too) pass
    it, before the route has buffered them all."""

    def __init__(self, app: ASGIApp, limit: int, per_path: Mapping[str, int]):
        self.app = app
        self.limit = limit
        self.per_path = per_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.per_path.get(scope["path"], self.limit)
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and declared.isdigit():
            if int(declared) > limit:
                await errors.too_large_response(limit)(scope, receive, send)
            else:       # the server reads no more than the declared length: nothing to count
                await self.app(scope, receive, send)
            return
        received, started = 0, False

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise errors.BodyTooLarge(limit)
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, tracked)
        except errors.BodyTooLarge:
            # Raised where no handler saw it (a stream listening for the client to leave).
            if not started:
                await errors.too_large_response(limit)(scope, receive, send)
