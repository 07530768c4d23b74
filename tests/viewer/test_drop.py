"""A replay file opened or dropped on the page plays from the file: the log is read in the
browser (gzip too), the views come from POST /replays/at, and the file is verified."""
from __future__ import annotations

import base64
import gzip

from .helpers import position, shot, shown

DROP = """async ([name, data]) => {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const transfer = new DataTransfer();
  transfer.items.add(new File([bytes], name, { type: "application/x-ndjson" }));
  document.querySelector("#log-list").dispatchEvent(
    new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
}"""


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


def test_a_replay_dropped_on_a_battle_page_replaces_it(page, server, http, finished_ring):
    replay = http.get(f"/battles/{finished_ring}/replay").content
    page.goto(f"{server}/viewer/battles/{finished_ring}?seq=5")
    page.wait_for_selector('#state[data-seq="5"] .view')
    page.evaluate(DROP, ["dropped.jsonl", base64.b64encode(replay).decode()])
    page.wait_for_selector("#status-badge.ok")
    page.wait_for_url(f"{server}/viewer/")
    last = len(replay.splitlines()) - 1
    shown(page, last)
    assert position(page) == (last, last)


def test_a_file_that_is_no_replay_is_refused(page, server, tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_text("these are not events\n")
    page.goto(f"{server}/viewer/")
    page.set_input_files("#file-input", str(path))
    toast = page.locator("#toast.error")
    toast.wait_for()
    assert "not a replay file" in toast.inner_text()
    assert page.locator("#list-page").is_visible()
