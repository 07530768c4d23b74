"""A replay file opened or dropped on the page plays from the file: the log is read in the
browser (gzip too), the views come from POST /replays/at, and the file is verified. Nothing
the battle it replaces still had under way (a request, an address-bar update) reaches the page."""
from __future__ import annotations

import base64
import gzip
from pathlib import Path
from typing import Any

import pytest

from .helpers import position, shot, shown

DROP = """async ([name, data]) => {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const transfer = new DataTransfer();
  transfer.items.add(new File([bytes], name, { type: "application/x-ndjson" }));
  document.querySelector("#log-list").dispatchEvent(
    new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
}"""
SETTLED_MS = 600      # past the page's 250 ms address-bar delay and a local round trip


def drop(page: Any, name: str, replay: bytes) -> None:
    page.evaluate(DROP, [name, base64.b64encode(replay).decode()])


def holding(page: Any, pattern: str) -> list[Any]:
    """Requests matching `pattern` are held (unanswered) until the test answers them itself."""
    held: list[Any] = []
    page.route(pattern, lambda route: held.append(route))
    return held


def test_an_opened_gzip_replay_plays_from_the_file(page, server, http, finished_ring, tmp_path):
    replay = http.get(f"/battles/{finished_ring}/replay").content
    path = tmp_path / "battle.jsonl.gz"
    path.write_bytes(gzip.compress(replay))
    marks = http.post("/replays/timeline", content=replay).json()
    last = marks["seq"]
    assert last == len(replay.splitlines()) - 1

    page.goto(f"{server}/viewer/")
    page.set_input_files("#file-input", str(path))
    page.wait_for_selector("#status-badge.ok")
    assert page.locator("#status-badge").inner_text() == "battle.jsonl.gz · verified"
    shown(page, last)
    assert page.locator("#log-count").inner_text() == f"{last} events"
    page.keyboard.press("ArrowLeft")
    shown(page, last - 1)

    third = next(t["seq"] for t in marks["turns"] if t["turn"] == 3)
    page.fill("#jump-turn", "3")
    page.press("#jump-turn", "Enter")
    shown(page, third)
    page.select_option("#perspective", "p1")
    page.wait_for_selector('.side[data-seat="p1"] [data-pile="items"] .card.face')
    assert page.locator("#status-badge.ok").inner_text() == "battle.jsonl.gz · verified"
    assert page.locator('.side[data-seat="p2"] [data-pile="items"] .card.back').count() == 1
    shot(page, "ring-replay-file")


@pytest.fixture
def replay(http, finished_ring) -> bytes:
    return http.get(f"/battles/{finished_ring}/replay").content


def last_seq(replay: bytes) -> int:
    return len(replay.splitlines()) - 1


def stays_on_the_file(page: Any, server: str, last: int) -> None:
    """Once whatever the old battle still had under way would have landed: still the file, at its end."""
    page.wait_for_timeout(SETTLED_MS)
    assert page.url == f"{server}/viewer/"
    assert position(page) == (last, last) and page.locator(f'#state[data-seq="{last}"] .view').count() == 1
    assert page.locator("#toast.error").count() == 0


def test_a_replay_dropped_on_a_battle_page_replaces_it(page, server, finished_ring, replay):
    page.goto(f"{server}/viewer/battles/{finished_ring}?seq=5")
    page.wait_for_selector('#state[data-seq="5"] .view')
    drop(page, "dropped.jsonl", replay)
    page.wait_for_selector("#status-badge.ok")
    page.wait_for_url(f"{server}/viewer/")
    last = last_seq(replay)
    shown(page, last)
    assert position(page) == (last, last)


def test_a_replay_dropped_right_after_a_seek_keeps_its_own_address(page, server, finished_ring, replay):
    page.goto(f"{server}/viewer/battles/{finished_ring}?seq=5")
    shown(page, 5)
    page.keyboard.press("ArrowRight")                   # the address bar would say seq=6 in 250 ms
    drop(page, "dropped.jsonl", replay)
    shown(page, last_seq(replay))
    stays_on_the_file(page, server, last_seq(replay))


def test_a_view_still_loading_for_the_old_battle_is_cancelled(page, server, finished_ring, replay):
    page.goto(f"{server}/viewer/battles/{finished_ring}?seq=5")
    shown(page, 5)
    held = holding(page, f"**/battles/{finished_ring}/at/6*")
    with page.expect_request(f"**/battles/{finished_ring}/at/6*"):
        page.keyboard.press("ArrowRight")
    drop(page, "dropped.jsonl", replay)
    shown(page, last_seq(replay))                       # without waiting for the old battle's answer
    held[0].fulfill(status=503, json={"error": {"code": "unavailable", "message": "the old battle failed late"}})
    stays_on_the_file(page, server, last_seq(replay))


def test_the_old_battle_answering_late_does_not_reopen_it(page, server, finished_ring, replay):
    held = holding(page, f"**/viewer/api/battles/{finished_ring}/timeline*")
    with page.expect_request(f"**/viewer/api/battles/{finished_ring}/timeline*"):
        page.goto(f"{server}/viewer/battles/{finished_ring}?seq=5")
    drop(page, "dropped.jsonl", replay)
    page.wait_for_selector("#status-badge.ok")
    shown(page, last_seq(replay))
    held[0].continue_()                                 # it would reopen the battle at seq 5
    stays_on_the_file(page, server, last_seq(replay))
    assert page.locator("#status-badge").inner_text() == "dropped.jsonl · verified"


def test_a_file_that_is_no_replay_is_refused(page, server, tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_text("these are not events\n")
    page.goto(f"{server}/viewer/")
    page.set_input_files("#file-input", str(path))
    toast = page.locator("#toast.error")
    toast.wait_for()
    assert "not a replay file" in toast.inner_text()
    assert page.locator("#list-page").is_visible()


def test_a_replay_of_an_earlier_ring_version_plays_under_its_own_rules(page, server):
    """Recorded under ring 1.0.0 before the rules changed: verified and shown by the pinned rules."""
    path = Path(__file__).parents[1] / "replays" / "fixtures" / "ring_1.0.0" / "greedy.jsonl"
    last = last_seq(path.read_bytes())
    page.goto(f"{server}/viewer/")
    page.set_input_files("#file-input", str(path))
    page.wait_for_selector("#status-badge.ok")
    assert page.locator("#status-badge").inner_text() == "greedy.jsonl · verified"
    shown(page, last)
    page.keyboard.press("ArrowLeft")
    shown(page, last - 1)
    assert page.locator("#toast.error").count() == 0
