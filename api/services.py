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


@dataclass(frozen=True)
class Settings:
    database_url: str | None = None     # None: $RINGSIDE_DATABASE_URL or the embedded SQLite default
    redis_url: str | None = None        # None: single-process in-memory views and fan-out
    admin_token: str | None = None      # guards creating battles and sets when set
    redis_prefix: str = "ringside"      # namespace of every Redis key and channel

    @classmethod
    def from_env(cls) -> "Settings":
        return cls(database_url=os.environ.get("RINGSIDE_DATABASE_URL") or None,
                   redis_url=os.environ.get("RINGSIDE_REDIS_URL") or None,
                   admin_token=os.environ.get("RINGSIDE_ADMIN_TOKEN") or None,
                   redis_prefix=os.environ.get("RINGSIDE_REDIS_PREFIX") or "ringside")


@dataclass
class Services:
    settings: Settings
    battles: Battles
    sets: Sets
    live: LiveHub
    # Components added by the projection and live-stream layers, keyed by name.
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
    return Services(settings=settings, battles=battles, sets=Sets(battles), live=live,
                    extras={"live": live})
