"""How a long-running Ringside process uses the interpreter: thread switching and the cyclic
garbage collector.

Measured on the durable-commands bench (`bench/commands.py`, SQLite, one worker): with
CPython's defaults, full collections paused the service for up to 175 ms each, 17 times in
20 s, and freed nothing. Most of what they walked was loaded once at start (modules, routes,
every ruleset's content); the rest is the battle states and views that the caches keep.
"""
from __future__ import annotations

import gc
import sys

# How long a thread may hold the interpreter lock while another waits for it (CPython's
# default is 5 ms). The service's threads hand work to one another (the event loop, the
# group-commit writer, the projection runner), and the writer takes the lock back after each
# store call: at 5 ms a wait, a command's few hand-offs alone could cost tens of ms.
SWITCH_SECONDS = 0.0005
# Net container allocations between young collections (CPython's default is 700). A command
# allocates a few thousand short-lived containers (views, wire events, JSON): at 700 the
# young collections ran ~120 times a second and promoted in-flight objects to the old
# generations, which made the full collections come often.
YOUNG_THRESHOLD = 20_000


def settle() -> None:
    """Call once the process has loaded what it keeps for its lifetime: collects once, then
    moves every surviving object to the permanent generation (`gc.freeze`), which later
    collections never walk, and widens the young generation."""
    sys.setswitchinterval(SWITCH_SECONDS)
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
