"""The FastAPI application: routers, JSON errors, and the services they share."""
from __future__ import annotations

from fastapi import FastAPI

from .services import Services, Settings, bootstrap


def create_app(settings: Settings | None = None, services: Services | None = None) -> FastAPI:
    services = services or bootstrap(settings)
    app = FastAPI(title="Ringside", version="0.1.0",
                  description="Event-sourced battles: commands, views, streams, replays.")
    app.state.services = services
    app.add_event_handler("shutdown", services.close)
    return app
