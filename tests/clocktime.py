"""The wall clock tests inject (`Battles(now_ms=...)`, `bootstrap(settings, now_ms=...)`), so
that no test waits on a deadline: time moves only when the test moves it."""
from __future__ import annotations

T0 = 1_700_000_000_000          # the injected time every test starts at (ms since the epoch)


class Clock:
    """The wall clock the battles read, moved on by the test alone."""

    def __init__(self, at_ms: int = T0):
        self.ms = at_ms

    def __call__(self) -> int:
        return self.ms

    def advance(self, ms: int) -> None:
        self.ms += ms
