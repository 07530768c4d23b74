"""One bootstrap wires the service's dependencies from the environment.

Every HTTP route, stream and background runner takes what it needs from `Services`;
nothing else reads the environment.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from domain.battles import DEFAULT_CACHE, Battles
from domain.engine.errors import InvalidInput
from domain.house import HOUSE_SWEEP_SECONDS, Claims, HouseSeats, LocalClaims, RedisClaims
from domain.matchmaking.service import Queues
from domain.matchmaking.sweep import WAVE_CHECK_SECONDS, QueueWaves
from domain.players import Players, RatingOf
from domain.sets import Sets
from domain.sets.sweep import DEFAULT_EVERY_SECONDS, SetSweep
from domain.sqlite_store import checkpointer
from domain.store import store_env
from domain.timers import CLOCK_SWEEP_SECONDS, ClockKeeper
from domain.tournaments.service import Tournaments
from domain.tournaments.sweep import EVERY_SECONDS as TOURNAMENT_SWEEP_SECONDS
from domain.tournaments.sweep import TournamentSweep
from domain.writer import wall_ms
from projections.live import OUTBOX_BATCHES, SEND_SECONDS, LiveHub
from projections.runner import Runner, Views
from projections.sqlite_views import SqliteViewStore
from projections.store import MemoryViewStore, RedisViewStore, ViewStore

from .runner_process import RunnerProcess


@dataclass(frozen=True)
class Settings:
    database_url: str | None = None     # None: $RINGSIDE_DATABASE_URL or the embedded SQLite default
    redis_url: str | None = None        # None: single-process in-memory views and fan-out
    admin_token: str | None = None      # guards creating battles and sets when set
    redis_prefix: str = "ringside"      # namespace of every Redis key and channel
    projections: str | None = None      # thread | process | external; None: the default (see served())
    views_path: str | None = None       # a SQLite file of views, shared by processes (see served())
    set_sweep_seconds: float = DEFAULT_EVERY_SECONDS    # how often sets left behind their battles move on
    house_sweep_seconds: float = HOUSE_SWEEP_SECONDS    # how often house seats due to act are looked for
    clock_sweep_seconds: float = CLOCK_SWEEP_SECONDS    # how often the log is read for other workers' clocks
    wave_check_seconds: float = WAVE_CHECK_SECONDS      # how often each queue is asked if a wave is due
    tournament_sweep_seconds: float = TOURNAMENT_SWEEP_SECONDS  # how often tournaments in play move on
    state_cache: int = DEFAULT_CACHE    # battle states kept in memory (and folded states per view runner)
    telemetry: bool = False             # FastAPI's native OpenTelemetry, through the global providers
    stream_outbox: int = OUTBOX_BATCHES         # batches a stream may have waiting before it is behind
    stream_send_seconds: float = SEND_SECONDS   # how long a frame may wait on a stalled socket

    @classmethod
    def from_env(cls) -> "Settings":
        return cls(database_url=os.environ.get("RINGSIDE_DATABASE_URL") or None,
                   redis_url=os.environ.get("RINGSIDE_REDIS_URL") or None,
                   admin_token=os.environ.get("RINGSIDE_ADMIN_TOKEN") or None,
                   redis_prefix=os.environ.get("RINGSIDE_REDIS_PREFIX") or "ringside",
                   projections=choice_setting("RINGSIDE_PROJECTIONS", PROJECTIONS),
                   views_path=os.environ.get("RINGSIDE_VIEWS_PATH") or None,
                   set_sweep_seconds=positive_seconds("RINGSIDE_SET_SWEEP_SECONDS", DEFAULT_EVERY_SECONDS),
                   house_sweep_seconds=positive_seconds("RINGSIDE_HOUSE_SWEEP_SECONDS", HOUSE_SWEEP_SECONDS),
                   clock_sweep_seconds=positive_seconds("RINGSIDE_CLOCK_SWEEP_SECONDS", CLOCK_SWEEP_SECONDS),
                   wave_check_seconds=positive_seconds("RINGSIDE_WAVE_CHECK_SECONDS", WAVE_CHECK_SECONDS),
                   tournament_sweep_seconds=positive_seconds("RINGSIDE_TOURNAMENT_SWEEP_SECONDS",
                                                             TOURNAMENT_SWEEP_SECONDS),
                   state_cache=count_setting("RINGSIDE_STATE_CACHE", DEFAULT_CACHE, MAX_STATE_CACHE),
                   telemetry=switch_setting("RINGSIDE_TELEMETRY", False),
                   stream_outbox=count_setting("RINGSIDE_STREAM_OUTBOX", OUTBOX_BATCHES, MAX_STREAM_OUTBOX),
                   stream_send_seconds=positive_seconds("RINGSIDE_STREAM_SEND_SECONDS", SEND_SECONDS))


# Where the projections run: a thread of this process, a child process it starts, or a
# process the operator runs (`ringside projections run`).
PROJECTIONS = ("thread", "process", "external")
MAX_SWEEP_SECONDS = 3600.0
MAX_STATE_CACHE = 10_000_000
MAX_STREAM_OUTBOX = 100_000


def positive_seconds(name: str, default: float) -> float:
    """A number of seconds from the environment, 0 < s <= an hour; InvalidInput names the variable."""
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        seconds = float(raw)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds <= MAX_SWEEP_SECONDS:
        raise InvalidInput(name, f"a number of seconds above 0 and at most {MAX_SWEEP_SECONDS:g}, not {raw[:20]!r}")
    return seconds


def count_setting(name: str, default: int, most: int) -> int:
    """A whole number from the environment, 1 <= n <= `most`; InvalidInput names the variable."""
    raw = os.environ.get(name)
    if not raw:
        return default
    digits = raw.strip()
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 12) or not 1 <= int(digits) <= most:
        raise InvalidInput(name, f"a whole number from 1 to {most:,}, not {raw[:20]!r}")
    return int(digits)


def choice_setting(name: str, choices: tuple[str, ...]) -> str | None:
    """One of `choices` from the environment (None when unset); InvalidInput names the variable."""
    raw = os.environ.get(name)
    if not raw:
        return None
    chosen = raw.strip().lower()
    if chosen not in choices:
        raise InvalidInput(name, f"one of {', '.join(choices)}, not {raw[:20]!r}")
    return chosen


SWITCH_WORDS = {"1": True, "true": True, "on": True, "yes": True, "0": False, "false": False, "off": False, "no": False}


def switch_setting(name: str, default: bool) -> bool:
    """On or off from the environment (1/0, true/false, on/off, yes/no); InvalidInput names it."""
    raw = os.environ.get(name)
    if not raw:
        return default
    found = SWITCH_WORDS.get(raw.strip().lower())
    if found is None:
        raise InvalidInput(name, f"on or off (1/0, true/false, on/off, yes/no), not {raw[:20]!r}")
    return found


class Background(Protocol):
    def start(self) -> None: ...
    def close(self) -> None: ...


@dataclass
class Services:
    settings: Settings
    battles: Battles
    sets: Sets
    live: LiveHub
    views: ViewStore
    projections: Views
    players: Players
    queues: Queues
    tournaments: Tournaments
    # Background components, started with the server and closed in reverse order.
    extras: dict[str, Background] = field(default_factory=dict)

    def start(self) -> None:
        """Start background components (runners, subscribers, house seats) once the server is up."""
        self.battles.committer.start()
        for component in self.extras.values():
            component.start()

    def close(self) -> None:
        for component in reversed(list(self.extras.values())):
            component.close()
        self.battles.close()


def bootstrap(settings: Settings | None = None, *, now_ms: Callable[[], int] = wall_ms) -> Services:
    """The services `settings` describe; `now_ms` is the wall clock of every battle's clock
    (tests inject their own)."""
    settings = settings or Settings.from_env()
    # The log first: a database that cannot be opened is named as the database.
    battles = Battles(settings.database_url, cache_size=settings.state_cache, now_ms=now_ms)
    try:
        views = view_store(settings)
    except BaseException:
        battles.close()
        raise
    live = LiveHub(settings.redis_url, prefix=settings.redis_prefix, outbox_batches=settings.stream_outbox,
                   send_seconds=settings.stream_send_seconds)
    battles.committed.append(live.publish)
    projections = Views(battles, views)
    background: dict[str, Background] = {}
    wal = checkpointer(battles.store)
    if wal is not None:         # first in, last out: it checkpoints after the others have stopped
        background["checkpoints"] = wal
    background["live"] = live
    if settings.projections == "process":
        background["projections"] = RunnerProcess(settings)
    elif settings.projections != "external":
        background["projections"] = Runner(projections)
    background["views"] = views
    # Before the house seats: an outage is credited before any seat, the house's too, moves.
    background["clocks"] = ClockKeeper(battles, claims(settings, "clock"), settings.clock_sweep_seconds,
                                       alone=not settings.redis_url)
    background["house"] = HouseSeats(battles, claims(settings, "house"), settings.house_sweep_seconds)
    sets = Sets(battles)
    players = Players(battles.store)
    rating_of = leaderboard_mu(views)
    queues = Queues(battles, players, rating_of)
    tournaments = Tournaments(battles, sets, rating_of)
    background["waves"] = QueueWaves(queues, settings.wave_check_seconds)
    background["tournaments"] = TournamentSweep(tournaments, settings.tournament_sweep_seconds)
    # The sets' commit listener may fail after a battle ends; the sweep moves such sets on.
    background["set_sweep"] = SetSweep(sets, settings.set_sweep_seconds)
    return Services(settings=settings, battles=battles, sets=sets, live=live, views=views,
                    projections=projections, players=players, queues=queues, tournaments=tournaments,
                    extras=background)


def leaderboard_mu(views: ViewStore) -> RatingOf:
    """A player's rating as queues and tournaments record it: its openskill mu on the ruleset's
    leaderboard, from the views; None before its first rated battle."""
    def rating_of(ruleset: str, player: str) -> float | None:
        row = views.hget(views.key("leaderboards", ruleset, "stats"), player)
        return None if row is None or row.get("mu") is None else float(row["mu"])
    return rating_of


def claims(settings: Settings, kind: str) -> Claims:
    """Who acts first on a battle at a seq (`kind`: house seats, or the clock keeper): shared by
    the workers on one Redis, else this process's."""
    return RedisClaims(settings.redis_url, settings.redis_prefix, kind) if settings.redis_url else LocalClaims()


def view_store(settings: Settings) -> ViewStore:
    """Redis when configured (shared by workers); else a SQLite file of views when one is set
    (shared by the processes on one machine); otherwise in memory, rebuilt from the log."""
    if settings.redis_url:
        return RedisViewStore(settings.redis_url, prefix=settings.redis_prefix)
    if settings.views_path:
        return SqliteViewStore(settings.views_path, prefix=settings.redis_prefix)
    if settings.projections in ("process", "external"):
        raise InvalidInput("RINGSIDE_PROJECTIONS", "views another process keeps need Redis or a SQLite store "
                           "(RINGSIDE_REDIS_URL, or RINGSIDE_DATABASE_URL=sqlite:///file)")
    return MemoryViewStore(prefix=settings.redis_prefix)


def served(settings: Settings) -> Settings:
    """A server's settings: on a SQLite file without Redis, its views go to a SQLite file beside
    the store, kept by a runner process of their own (`api/runner_process.py`), so commands and
    projections never queue for one interpreter lock. Otherwise the projections run as said
    (a thread when nothing is said)."""
    path = sqlite_file(settings.database_url)
    if settings.redis_url or path is None or settings.projections == "thread":
        return settings
    views_path = settings.views_path or views_beside(path)
    return replace(settings, projections=settings.projections or "process", views_path=views_path)


def sqlite_file(url: str | None) -> str | None:
    """The path of a SQLite store's file; None for PostgreSQL and in-memory SQLite."""
    env = store_env(url)
    path = env.get("SQLITE_DBNAME")
    return None if path is None or path.startswith("file:") else path


def views_beside(path: str) -> str:
    """`ringside.db` keeps its views in `ringside.views.db`."""
    return str(Path(path).with_suffix(".views.db"))
