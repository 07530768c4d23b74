"""Clocks on the command line: `--clock` and `--think-ms` of `ringside simulate`, and the
presets `ringside rulesets` lists.

A clock is given as on `POST /battles`: a preset's name (`--clock blitz`), or its fields as
JSON (`--clock '{"preset": "blitz", "on_timeout": "auto"}'`, or `@file.json`). A bad value is
one `error:` line naming the option and the field.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.engine.clock import MAX_MS, PRESETS, ClockSpec, parse_clock
from domain.engine.errors import InvalidInput

from .cli_errors import fail, parse_json_option

CLOCK_HELP = (f"Play clocked battles in virtual time: a preset ({', '.join(PRESETS)}) or the clock's "
              "fields as JSON (or @file.json), as POST /battles takes them.")
THINK_HELP = ("Each bot's virtual think time per move, in ms, with --clock: one for every seat, or one per "
              "seat, comma-separated (default 1000). A bot that thinks past its time times out.")


@dataclass(frozen=True)
class Pace:
    """The clock simulated battles run (None: none), and each bot's virtual think time per move."""
    clock: ClockSpec | None
    think_ms: int | dict[str, int]


def read_clock(text: str | None) -> ClockSpec | None:
    """`--clock`: a preset's name, or JSON (inline or `@path`) of the clock's fields."""
    if text is None:
        return None
    raw: Any = text.strip()
    if raw.startswith(("{", "@")):
        raw = parse_json_option(raw, "--clock")
    try:
        return parse_clock(raw)
    except InvalidInput as exc:
        fail(f"--{exc.message}")


def read_think(text: str | None, seats: Sequence[str], default: int) -> int | dict[str, int]:
    """`--think-ms`: one time for every seat, or one per seat in table order."""
    if text is None:
        return default
    parts = [part.strip() for part in text.split(",")]
    if len(parts) not in (1, len(seats)):
        fail(f"--think-ms needs one time, or {len(seats)}, one per seat ({','.join(seats)})")
    times = []
    for part in parts:
        if not part.isdigit() or int(part) > MAX_MS:
            fail(f"--think-ms: {part!r} is not a whole number of milliseconds from 0 to {MAX_MS}")
        times.append(int(part))
    return times[0] if len(times) == 1 else dict(zip(seats, times, strict=True))


def preset_rows() -> dict[str, dict[str, Any]]:
    """Every clock preset's fields, by name (as `GET /rulesets` lists them)."""
    return {name: msgspec.to_builtins(spec) for name, spec in PRESETS.items()}


def preset_lines() -> list[str]:
    """The presets as a table a person reads (`-`: none)."""
    lines = ["clock presets:", f"  {'preset':<15}{'bank':>8}{'+incr':>7}{'turn max':>10}{'grace':>7}"
             f"{'first move':>12}  on timeout (max auto)"]
    for name, spec in PRESETS.items():
        lines.append(f"  {name:<15}{duration(spec.bank_ms):>8}{duration(spec.increment_ms):>7}"
                     f"{duration(spec.turn_max_ms):>10}{duration(spec.grace_ms):>7}"
                     f"{duration(spec.first_move_ms):>12}  {spec.on_timeout} ({spec.max_auto})")
    return lines


UNITS = (("d", 86_400_000), ("h", 3_600_000), ("min", 60_000), ("s", 1000), ("ms", 1))


def duration(ms: int | None) -> str:
    """A time in the largest unit it is a whole number of (150 s stays 150s); `-` for none."""
    if ms is None:
        return "-"
    if ms == 0:
        return "0"
    return next(f"{ms // size}{unit}" for unit, size in UNITS if ms % size == 0)
