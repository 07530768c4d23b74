"""The queues, as content: `queues.toml` declares each one's ruleset and format."""
from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

import msgspec

from domain.engine.clock import ClockSpec, parse_clock
from domain.engine.errors import RingsideError
from domain.engine.ruleset import Ruleset, get_ruleset

CONTENT = Path(__file__).with_name("queues.toml")


class UnknownQueue(RingsideError):
    code = "not_found"


class QueueFormat(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    ruleset: str
    clock: str | None                   # a preset's name; every battle of the queue runs it
    wave_s: float
    min_wave: int
    backfill_after_s: float | None = None
    backfill_bot: str | None = None

    @property
    def rules(self) -> Ruleset[object]:
        return get_ruleset(self.ruleset)

    @property
    def clock_spec(self) -> ClockSpec | None:
        return parse_clock(self.clock)

    @property
    def seats(self) -> tuple[str, ...]:
        return self.rules.default_table().seats


@cache
def queue_formats() -> dict[str, QueueFormat]:
    raw = tomllib.loads(CONTENT.read_text())["queues"]
    return {qid: msgspec.convert({"id": qid, **spec}, QueueFormat) for qid, spec in raw.items()}


def queue_format(queue_id: str) -> QueueFormat:
    found = queue_formats().get(queue_id)
    if found is None:
        raise UnknownQueue(f"no queue {queue_id!r}; the queues are {', '.join(sorted(queue_formats()))}",
                           queue=queue_id)
    return found
