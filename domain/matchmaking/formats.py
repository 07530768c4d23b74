"""The queues, as content: `queues.toml` declares each one's ruleset and format."""
from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

from domain.engine.battle import seat_table
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
    setup: dict[str, Any] = {}          # over the ruleset's fresh setup (rat's `enemy_seat`)
    ticket_seats: list[str] | None = None   # the two seats tickets take (default: the table's two)
    house: dict[str, str] = {}          # seats the house always plays: seat -> bot policy
    setup_parts: bool = True            # whether a ticket may bring its seat's part of the setup

    @property
    def rules(self) -> Ruleset[object]:
        return get_ruleset(self.ruleset)

    @property
    def clock_spec(self) -> ClockSpec | None:
        return parse_clock(self.clock)

    def battle_setup(self) -> dict[str, Any]:
        return {**self.rules.fresh_setup(), **self.setup}

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats tickets take: the first, and the second (a partner or an opponent)."""
        if self.ticket_seats is not None:
            return tuple(self.ticket_seats)
        return seat_table(self.rules, self.battle_setup()).seats


@cache
def queue_formats() -> dict[str, QueueFormat]:
    raw = tomllib.loads(CONTENT.read_text())["queues"]
    found = {qid: msgspec.convert({"id": qid, **spec}, QueueFormat) for qid, spec in raw.items()}
    for fmt in found.values():
        check_format(fmt)
    return found


def check_format(fmt: QueueFormat) -> None:
    """Tickets fill exactly two seats and the house the rest, on the table the setup makes."""
    table = seat_table(fmt.rules, fmt.battle_setup())
    filled = [*fmt.seats, *fmt.house]
    if len(fmt.seats) != 2 or sorted(filled) != sorted(table.seats):
        raise ValueError(f"queue {fmt.id}: tickets take two seats and the house the others, of {table.seats}")
    if fmt.backfill_bot is not None and fmt.backfill_after_s is None:
        raise ValueError(f"queue {fmt.id}: a backfill bot needs backfill_after_s")


def queue_format(queue_id: str) -> QueueFormat:
    found = queue_formats().get(queue_id)
    if found is None:
        raise UnknownQueue(f"no queue {queue_id!r}; the queues are {', '.join(sorted(queue_formats()))}",
                           queue=queue_id)
    return found
