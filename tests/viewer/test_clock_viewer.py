"""Clocks in the viewer (issue 36, part 7): each seat's clock beside it, ticking down live by
the server's time and exact as recorded when replaying; a timeout and an outage credit read as
sentences, and the outcome says the battle was won on time.

The live test runs on the wall clock (a 6 s bank, so it waits a few seconds at most): the
server's timeout keeper appends the timeout at the deadline plus grace. The replay test writes
its battle with injected time, so every recorded value is exact.
"""
from __future__ import annotations

import re
import time
from typing import Any

from domain.ai.match import seeded_bytes
from domain.battles import Battles

from ..api.helpers import auth, create
from ..api.server import ROOT
from .helpers import PLAYERS, open_battle, shot, shown

SCREENSHOT = ROOT / "docs" / "screenshots" / "clock-viewer.png"
# The bank runs from the start (no first-move limit); the deckduel mulligan awaits both seats.
LIVE_CLOCK = {"bank_ms": 6000, "increment_ms": 0, "grace_ms": 200, "first_move_ms": None}
REPLAY_CLOCK = {"bank_ms": 185_000, "increment_ms": 2000, "grace_ms": 1000}
FACE = ".clocks .clock[data-seat='{}']"
BROWSER_BEHIND_MS = 45_000


def face(page: Any, seat: str) -> Any:
    return page.locator(FACE.format(seat))


def clock_text(page: Any, seat: str) -> str:
    return face(page, seat).locator(".clock-time").inner_text()


def classes(page: Any, seat: str) -> set[str]:
    return set(face(page, seat).get_attribute("class").split())


def as_ms(text: str) -> int:
    """ "0:04.3" -> 4300, "3:05" -> 185000: what a clock face says, in ms."""
    found = re.fullmatch(r"(\d+):(\d\d)(?:\.(\d))?", text)
    assert found, text
    return (int(found[1]) * 60 + int(found[2])) * 1000 + int(found[3] or 0) * 100


def view_at(http: Any, battle_id: str, seq: int) -> dict[str, Any]:
    answer = http.get(f"/battles/{battle_id}/at/{seq}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def clock_face(ms: int) -> str:
    """What the page shows for `ms` left (m:ss, tenths under 10 s), as the user reads it."""
    if ms < 10_000:
        return f"0:0{ms // 1000}.{ms % 1000 // 100}"
    return f"{ms // 60_000}:{ms // 1000 % 60:02d}"


def assert_ticks(page: Any, recorded: dict[str, Any], running: str, stopped: str) -> None:
    """`running`'s clock ticks down from its recorded time by the server's clock over a second;
    `stopped`'s reads as recorded throughout."""
    assert classes(page, stopped) & {"running", "ticking"} == set()
    assert {"running", "ticking"} <= classes(page, running)
    still = clock_face(recorded["seats"][stopped]["remaining_ms"])
    assert clock_text(page, stopped) == still
    before, at = as_ms(clock_text(page, running)), time.time() * 1000
    seat = recorded["seats"][running]
    # remaining then, less the time since; a Date header tells the time only to within a second
    assert abs(before - (seat["remaining_ms"] - (at - recorded["at_ms"]))) < 1500, (before, seat, at)
    page.wait_for_timeout(1000)
    after = as_ms(clock_text(page, running))
    assert 500 <= before - after <= 1600, (before, after)
    assert clock_text(page, stopped) == still


def test_live_clocks_tick_and_then_show_the_timeout(page: Any, server: str, http: Any) -> None:
    # given a browser whose clock is 45 s behind the server's
    page.add_init_script(f"{{ const real = Date.now; Date.now = () => real() - {BROWSER_BEHIND_MS}; }}")
    # and a deckduel battle on a 6 s bank, in which p1 has made its mulligan: p2's clock runs
    battle = create(http, "deckduel", PLAYERS, clock=LIVE_CLOCK)
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    move = http.get(f"/battles/{bid}/legal", headers=auth(tokens["p1"])).json()["legal"][0]
    moved = http.post(f"/battles/{bid}/commands", headers=auth(tokens["p1"]), json={"command": move})
    assert moved.status_code == 200, moved.text
    seq = moved.json()["seq"]
    recorded = view_at(http, bid, seq)["clock"]

    # when the viewer follows it live
    open_battle(page, server, bid)
    shown(page, seq)

    # then both clocks show: p1's stopped at its recorded time, p2's running and ticking down
    # by the server's time (read from its answers' Date headers), not the browser's
    assert "p1 · alice" in face(page, "p1").inner_text() and "p2 · bob" in face(page, "p2").inner_text()
    assert_ticks(page, recorded, running="p2", stopped="p1")
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT))

    # when the page goes back one event, to p1's move: p2's clock reads as recorded, still
    page.keyboard.press("ArrowLeft")
    shown(page, seq - 1)
    then = view_at(http, bid, seq - 1)["clock"]["seats"]["p2"]["remaining_ms"]
    assert clock_text(page, "p2") == clock_face(then) and "ticking" not in classes(page, "p2")
    page.wait_for_timeout(300)
    assert clock_text(page, "p2") == clock_face(then)
    page.keyboard.press("End")

    # then, once p2's bank (and the grace) has run out, the server's timeout shows: p2 forfeits
    page.wait_for_selector(".clock-notice", timeout=8000)
    assert page.locator(".clock-notice").inner_text() == "p2 ran out of time: forfeit"
    page.wait_for_selector("#status-badge.ended")
    assert page.locator(".outcome").inner_text() == "Winner: p1 · alice (on time)"
    assert clock_text(page, "p2") == "0:00.0" and {"low"} <= classes(page, "p2")
    assert "running" not in classes(page, "p2")
    row = page.locator('#log-list li[data-type="engine.TimedOut"]')
    assert row.locator(".ev-data").inner_text() == "p2 ran out of time: forfeit"
    shot(page, "clock-live-timeout")


def write_replay(db_file: str) -> dict[str, Any]:
    """A clocked deckduel battle written with injected time: both mulligans, an outage credited
    and the awaited seat's timeout, long after its bank ran out.

    Its times start now, so no deadline has passed while it is written: the server's keeper,
    which follows the log, finds nothing to time out before the battle has ended."""
    start = int(time.time() * 1000)
    now = [start]
    with Battles(db_file, now_ms=lambda: now[0]) as battles:
        made = battles.create("deckduel", PLAYERS, clock=REPLAY_CLOCK, revealed=seeded_bytes(36, "clock viewer"))
        bid = made.battle_id
        now[0] = start + 4250
        battles.submit(bid, "p1", battles.legal(bid, "p1")[0])
        now[0] = start + 10_000
        both = battles.submit(bid, "p2", battles.legal(bid, "p2")[0]).seq
        now[0] = start + 32_300
        credit = battles.credit_later(bid, start + 20_000, "outage", both).result().seq
        [late] = [seat for seat in PLAYERS if battles.legal(bid, seat)]
        now[0] = start + 400_000
        ended = battles.timeout_later(bid, late, credit).result().seq
    return {"battle_id": bid, "both": both, "credit": credit, "ended": ended, "late": late}


def test_replaying_shows_each_clock_exactly_as_recorded(page: Any, server: str, http: Any, db_file: str) -> None:
    # given an ended clocked battle (bank 3:05 + 2 s); from its start p1 mulligans at 4.25 s,
    # p2 at 10 s and the round awaits p2 (the seed picks it), an outage from 20 s to 32.3 s
    # is credited, and p2 times out at 400 s
    found = write_replay(db_file)
    bid = found["battle_id"]
    assert found["late"] == "p2"
    first = next(e["seq"] for e in http.get(f"/battles/{bid}/events").json()["events"]
                 if e["type"] == "engine.ClockStarted")
    open_battle(page, server, bid, query=f"?seq={first}")
    shown(page, first)
    # then at the start both banks run: 185000 ms = 3:05
    assert [clock_text(page, s) for s in ("p1", "p2")] == ["3:05", "3:05"]
    assert all({"running"} <= classes(page, s) for s in ("p1", "p2"))

    # when it moves on to p1's mulligan: p1 stopped with 185000 - 4250 + 2000 = 182750 (3:02),
    # p2 running with 185000 - 4250 = 180750 left then (3:00), and not ticking
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    shown(page, first + 2)
    assert [clock_text(page, s) for s in ("p1", "p2")] == ["3:02", "3:00"]
    assert "running" not in classes(page, "p1") and "running" in classes(page, "p2")
    page.wait_for_timeout(300)
    assert clock_text(page, "p2") == "3:00" and "ticking" not in classes(page, "p2")

    # then after p2's mulligan (at 10 s) p2's turn runs: 185000 - 10000 + 2000 = 177000 (2:57)
    page.locator(f'#log-list li[data-seq="{found["both"]}"]').click()
    shown(page, found["both"])
    assert [clock_text(page, s) for s in ("p1", "p2")] == ["3:02", "2:57"]
    assert page.locator(".clock-notice").count() == 0
    # and at the credit (32.3 s) p2 has lost only the 10 s before the outage: 177000 - 10000 = 2:47
    page.locator(f'#log-list li[data-seq="{found["credit"]}"]').click()
    shown(page, found["credit"])
    assert [clock_text(page, s) for s in ("p1", "p2")] == ["3:02", "2:47"]
    assert page.locator(".clock-notice").inner_text() == "clocks credited 12.3 s (outage)"
    row = page.locator(f'#log-list li[data-seq="{found["credit"]}"] .ev-data')
    assert row.inner_text() == "clocks credited 12.3 s (outage)"

    # and at the end: p2's clock at 0:00.0, its timeout, and p1 the winner on time
    page.keyboard.press("End")
    shown(page, found["ended"])
    assert page.locator(".outcome").inner_text() == "Winner: p1 · alice (on time)"
    assert page.locator(".clock-notice").inner_text() == "p2 ran out of time: forfeit"
    assert [clock_text(page, s) for s in ("p1", "p2")] == ["3:02", "0:00.0"]
    assert "low" in classes(page, "p2") and page.locator(".clocks .running").count() == 0
    shot(page, "clock-replay-ended")


TEXTS = """async () => {
  const { clockText, clockEventLine } = await import("/viewer/assets/clocks.js");
  const { outcomeText } = await import("/viewer/assets/blocks.js");
  const timedOut = (consequence) => clockEventLine({ type: "engine.TimedOut",
    data: { seat: "p2", at_ms: 5, consequence } });
  const name = (seat) => `${seat} · ann`;
  return {
    faces: [185000, 60000, 10000, 9999, 7750, 100, 0, -40, 3723000, null].map(clockText),
    lines: ["forfeit", "auto", "abort"].map(timedOut).concat([
      clockEventLine({ type: "engine.ClockCredited", data: { since_ms: 1, at_ms: 2, credit_ms: 12345, reason: "outage" } }),
      clockEventLine({ type: "engine.Clocked", data: { at_ms: 3, seats: { p1: { since_ms: null }, p2: { since_ms: 3 } } } }),
      clockEventLine({ type: "engine.BattleEnded", data: {} })]),
    outcomes: [{ winner: "p1", reason: "timeout" }, { winner: "p1", reason: "no_first_move" },
      { winner: null, reason: "aborted_no_first_move" }, { winner: "p1", reason: "knockout" }]
      .map((result) => outcomeText(result, name)),
  };
}"""


def test_clock_faces_timeouts_and_outcomes_read_well(page: Any, server: str) -> None:
    page.goto(f"{server}/viewer/")
    found = page.evaluate(TEXTS)
    # m:ss, tenths under 10 s (cut, never rounded up), h:mm:ss from an hour, never below 0
    assert found["faces"] == ["3:05", "1:00", "0:10", "0:09.9", "0:07.7", "0:00.1", "0:00.0", "0:00.0",
                              "1:02:03", "—"]
    assert found["lines"] == ["p2 ran out of time: forfeit", "p2 ran out of time: the rules move for p2",
                              "p2 ran out of time: battle aborted (no first move)",
                              "clocks credited 12.3 s (outage)", "runs: p2", None]
    assert found["outcomes"] == ["Winner: p1 · ann (on time)",
                                 "Winner: p1 · ann (the other side never made its first move)",
                                 "Aborted, unrated (a seat never made its first move)",
                                 "Winner: p1 · ann (knockout)"]


SERVER_TIME = """async () => {
  const { noteAnswer, skewMs } = await import("/viewer/assets/servertime.js");
  const t = Date.now();
  const seen = [skewMs()];
  noteAnswer({ date: new Date(t).toUTCString() }, t - 5, t + 5);
  seen.push(skewMs());
  noteAnswer({ nowMs: t + 60000 }, t - 10, t + 10);
  seen.push(skewMs());
  noteAnswer({ nowMs: t + 60004 }, t - 2, t + 8);
  seen.push(skewMs());
  noteAnswer({ date: "not a date" }, t, t);
  seen.push(skewMs());
  noteAnswer({ date: new Date(t - 120000).toUTCString() }, t, t + 20);
  seen.push(skewMs());
  return { seen, late: t % 1000 };
}"""


def test_the_page_reads_the_server_time_from_its_answers(page: Any, server: str) -> None:
    page.goto(f"{server}/viewer/")
    found = page.evaluate(SERVER_TIME)
    seen, late = found["seen"], found["late"]
    # a Date header that agrees with the browser's clock leaves it trusted (no correction)
    assert seen[:2] == [0, 0]
    # now_ms sent 60 s ahead, taken between t-10 and t+10: 60000 - 10 .. 60000 + 10, middle 60000;
    # a second, t-2 .. t+8 around 60004: 59996 .. 60006 with the first, middle 60001
    assert seen[2:5] == [60000, 60001, 60001]
    # a Date header 2 min behind, the second cut down: -120000 - late - 20 .. -120000 - late + 2500
    assert seen[5] == (-120000 - late - 20 + -120000 - late + 2500) / 2
