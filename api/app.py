"""The FastAPI application: routers, JSON errors, and the services they share."""
from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI

from . import errors, streams
from .json import OrjsonResponse
from .routes import battles, replays, rulesets, sets, views
from .services import Services, Settings, bootstrap


WORKER_THREADS = 4


def create_app(settings: Settings | None = None, services: Services | None = None) -> FastAPI:
    services = services or bootstrap(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # A few worker threads for the sync endpoints: more only thrash the GIL and overflow
        # the store's connection pool (5 pooled SQLite connections; extra ones open per call).
        anyio.to_thread.current_default_thread_limiter().total_tokens = WORKER_THREADS
        services.start()
        try:
            yield
        finally:
            services.close()

    app = FastAPI(title="Ringside", version="0.1.0", lifespan=lifespan, default_response_class=OrjsonResponse,
                  description="Event-sourced battles: commands, views, streams, replays.")
    app.state.services = services
    errors.install(app)
    for module in (rulesets, views, battles, sets, replays, streams):
        app.include_router(module.router)
    return app
