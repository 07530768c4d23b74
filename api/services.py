"""One bootstrap wires the service's dependencies from the environment.

Every HTTP route, stream and background runner takes what it needs from `Services`;
nothing else reads the environment.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from domain.battles import Battles
from domain.sets import Sets
from projections.live import LiveHub
from projections.runner import Runner, Views
from projections.store import MemoryViewStore, RedisViewStore, ViewStore


@dataclass(frozen=True)
class Settings:
    database_url: str | None = None     # None: $RINGSIDE_DATABASE_URL or the embedded SQLite default
    redis_url: str | None = None        # None: single-process in-memory views and fan-out
    admin_token: str | None = None      # guards creating battles and sets when set
    redis_prefix: str = "ringside"      # namespace of every Redis key and channel
    external_projections: bool = False  # the projection runner is its own process

    @classmethod
    def from_env(cls) -> "Settings":
        return cls(database_url=os.environ.get("RINGSIDE_DATABASE_URL") or None,
                   redis_url=os.environ.get("RINGSIDE_REDIS_URL") or None,
                   admin_token=os.environ.get("RINGSIDE_ADMIN_TOKEN") or None,
                   redis_prefix=os.environ.get("RINGSIDE_REDIS_PREFIX") or "ringside",
                   external_projections=os.environ.get("RINGSIDE_PROJECTIONS") == "external")


@dataclass
class Services:
    settings: Settings
    battles: Battles
    sets: Sets
    live: LiveHub
    views: ViewStore
    projections: Views
    # Background components, started with the server and closed in reverse order.
    extras: dict[str, Any] = field(default_factory=dict)

    def start(self) -> None:
        """Start background components (runners, subscribers) once the server is up."""
        for component in self.extras.values():
            start = getattr(component, "start", None)
            if start is not None:
                start()

    def close(self) -> None:
        for component in reversed(list(self.extras.values())):
            close = getattr(component, "close", None)
            if close is not None:
                close()
        self.battles.close()


def bootstrap(settings: Settings | None = None) -> Services:
    settings = settings or Settings.from_env()
    battles = Battles(settings.database_url)
    live = LiveHub(settings.redis_url, prefix=settings.redis_prefix)
    battles.committed.append(live.publish)
    views = view_store(settings)
    projections = Views(battles, views)
    background: dict[str, Any] = {"live": live}
    if not settings.external_projections:
        background["projections"] = Runner(projections)
    background["views"] = views
    return Services(settings=settings, battles=battles, sets=Sets(battles), live=live, views=views,
                    projections=projections, extras=background)


def view_store(settings: Settings) -> ViewStore:
    """Redis when configured (shared by workers); otherwise in memory, rebuilt from the log."""
    if settings.redis_url:
        return RedisViewStore(settings.redis_url, prefix=settings.redis_prefix)
    return MemoryViewStore(prefix=settings.redis_prefix)
