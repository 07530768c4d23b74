"""The FastAPI application: routers, JSON errors, and the services they share."""
from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from . import errors, streams
from .json import OrjsonResponse
from .routes import battles, replays, rulesets, sets, viewer, views
from .services import Services, Settings, bootstrap
from .timelines import Timelines


def create_app(settings: Settings | None = None, services: Services | None = None) -> FastAPI:
    services = services or bootstrap(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services.start()
        try:
            yield
        finally:
            services.close()

    app = FastAPI(title="Ringside", version="0.1.0", lifespan=lifespan, default_response_class=OrjsonResponse,
                  description="Event-sourced battles: commands, views, streams, replays.")
    app.state.services = services
    app.state.timelines = Timelines()
    errors.install(app)
    for module in (rulesets, views, battles, sets, replays, viewer, streams):
        app.include_router(module.router)
    return app
