"""Reading the viewer page the way a user sees it."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..api.server import ROOT

ARTIFACTS = ROOT / "test-artifacts" / "viewer"
LAPTOP = {"width": 1366, "height": 768}
PLAYERS = {"p1": "alice", "p2": "bob"}


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def position(page: Any) -> tuple[int, int]:
    """(current seq, last seq) from the timeline bar."""
    found = re.match(r"seq (\d+) / (\d+)", page.locator("#position").inner_text())
    assert found, page.locator("#position").inner_text()
    return int(found[1]), int(found[2])


def shown(page: Any, seq: int) -> None:
    """Wait until the state panel shows the view at `seq` (and the bar says so)."""
    page.wait_for_selector(f'#state[data-seq="{seq}"] .view')
    assert position(page)[0] == seq


def open_battle(page: Any, server: str, battle_id: str, query: str = "", token: str | None = None) -> None:
    page.goto(f"{server}/viewer/battles/{battle_id}{query}{f'#token={token}' if token else ''}")
    page.wait_for_selector("#state .view")
