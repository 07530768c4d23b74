"""CPU time used by the processes under measurement, read from /proc (Linux): a measure of
their work that the other loads on a shared machine disturb less than they disturb latency."""
from __future__ import annotations

import os

TICK = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> tuple[int, float] | None:
    """The process's session id and the CPU seconds (user + system) it has used; None once it
    has ended."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[3]), (int(fields[11]) + int(fields[12])) / TICK


def session_cpu(sessions: list[int]) -> float:
    """CPU seconds used so far by the live processes of these sessions (a server started in a
    session of its own, and every process it started)."""
    total = 0.0
    for entry in os.scandir("/proc"):
        found = process_cpu(int(entry.name)) if entry.name.isdigit() else None
        if found is not None and found[0] in sessions:
            total += found[1]
    return total
