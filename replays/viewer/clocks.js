// Battle clocks, for every ruleset alike (they are the engine's, not a game's).
//
// Each view of a clocked battle carries them under "clock": {at_ms, seats: {seat:
// {remaining_ms, running, moved, auto}}}, where `remaining_ms` is the seat's time left at
// `at_ms` (the time of the battle's last clock fact), every limit (bank, turn maximum, first
// move) already counted. A view of an unclocked battle has none, and the page shows none. The
// control (bank, increment, ...) never changes: the log's `ClockStarted` says it.
// - Replaying (any seq but the live head), each clock reads exactly as recorded then.
// - At the head of a live battle, a running clock ticks down from `remaining_ms` by the server's
//   time (servertime.js), never below 0: the server decides the timeout, the page only shows it.
// The clock events read as sentences in the log: a timeout, and a credit after an outage; the
// clock facts closing each batch (`Clocked`, `ClockStarted`) only say whose clock runs.

import { isObject, seatAndPlayer } from "./blocks.js";
import { el, humanize } from "./widgets.js";
import { serverNow } from "./servertime.js";

export const LOW_MS = 10_000;        // a clock under this shows tenths, and is highlighted
const TICK_MS = 50;
const NOTICES = new Set(["engine.TimedOut", "engine.ClockCredited"]);
export const CLOCK_FACTS = new Set(["engine.Clocked", "engine.ClockStarted"]);
const NOTICE_LOOKBACK = 400;         // events searched back from a seq for the timeout it shows

const pad = (n) => String(n).padStart(2, "0");

// A clock's face: "4:05", "0:09.7" (tenths under 10 s), "1:02:03" from an hour; "—" for none.
export function clockText(ms) {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "—";
  const left = Math.max(0, ms);
  if (left < LOW_MS) {
    const tenths = Math.floor(left / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const seconds = Math.floor(left / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor(seconds / 60) % 60;
  return hours ? `${hours}:${pad(minutes)}:${pad(seconds % 60)}` : `${minutes}:${pad(seconds % 60)}`;
}

// A span of time in words: "12.3 s", "2 min 5 s", "3 h 20 min".
export function spanText(ms) {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "—";
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min${seconds % 60 ? ` ${seconds % 60} s` : ""}`;
  const minutes = Math.floor(seconds / 60) % 60;
  return `${Math.floor(seconds / 3600)} h${minutes ? ` ${minutes} min` : ""}`;
}

// The time control in one line: "3:00 + 2 s, first move within 0:30.0".
export function specText(spec) {
  if (!isObject(spec)) return "";
  const parts = [spec.bank_ms === null || spec.bank_ms === undefined ? "no bank" : clockText(spec.bank_ms)];
  if (spec.increment_ms) parts[0] += ` + ${spanText(spec.increment_ms)}`;
  if (spec.turn_max_ms) parts.push(`at most ${spanText(spec.turn_max_ms)} a turn`);
  if (spec.first_move_ms) parts.push(`first move within ${spanText(spec.first_move_ms)}`);
  return parts.join(", ");
}

const CONSEQUENCES = {
  forfeit: () => "forfeit",
  auto: (seat) => `the rules move for ${seat}`,
  abort: () => "battle aborted (no first move)",
};

// Whose clocks a clock fact leaves running: "runs: p2", or "clocks stopped".
function runningText(seats) {
  const running = Object.entries(isObject(seats) ? seats : {}).filter(([, c]) => isObject(c) && c.since_ms !== null
    && c.since_ms !== undefined).map(([seat]) => seat);
  return running.length ? `runs: ${running.join(", ")}` : "clocks stopped";
}

// The log's line for a clock event ("p2 ran out of time: forfeit"); null for any other event.
export function clockEventLine(event) {
  const data = isObject(event?.data) ? event.data : {};
  switch (event?.type) {
    case "engine.TimedOut": {
      const what = CONSEQUENCES[data.consequence]?.(data.seat) ?? humanize(data.consequence ?? "");
      return `${data.seat} ran out of time: ${what}`;
    }
    case "engine.ClockCredited":
      return `clocks credited ${spanText(data.credit_ms)} (${humanize(data.reason ?? "outage")})`;
    case "engine.ClockStarted":
      return `clock ${specText(data.spec)} · ${runningText(data.seats)}`;
    case "engine.Clocked":
      return runningText(data.seats);
    default:
      return null;
  }
}

// The timeout or credit the clocks of `view` come from, as a line to show beside them: the
// latest such event at or before the view's seq, as long as no later clock fact followed it.
export function clockNotice(events, view) {
  const at = view?.clock?.at_ms;
  if (typeof at !== "number") return null;
  const last = Math.min(view.seq, events.length);
  for (let seq = last; seq >= 1 && seq > last - NOTICE_LOOKBACK; seq -= 1) {
    const event = events[seq - 1];
    const when = event?.data?.at_ms;
    if (typeof when !== "number") continue;
    if (when < at) return null;
    if (NOTICES.has(event.type)) return clockEventLine(event);
  }
  return null;
}

// The battle's time control, from the `ClockStarted` among `events`; null if none is there.
export function clockControl(events) {
  const started = (events ?? []).find((event) => event?.type === "engine.ClockStarted");
  return isObject(started?.data?.spec) ? started.data.spec : null;
}

// The seats' clocks above the state panel, in the battle's seat order; null for no clock.
// `control` (clockControl) titles the strip.
export function clockStrip(view, notice, control) {
  const seats = isObject(view?.clock?.seats) ? view.clock.seats : null;
  if (!seats) return null;
  const order = [...Object.keys(view.players ?? {}).filter((s) => s in seats),
    ...Object.keys(seats).filter((s) => !(s in (view.players ?? {})))];
  return el("div", { class: "clocks", role: "timer", "aria-label": "Clocks", title: specText(control) },
    order.map((seat, i) => clockFace(seat, seats[seat], view.players, i)),
    notice ? el("div", { class: "clock-notice", text: notice }) : null);
}

function clockFace(seat, clock, players, index) {
  const running = clock?.running === true;
  const left = clock?.remaining_ms;
  return el("div", { class: `clock seat-${index}${running ? " running" : ""}${left < LOW_MS ? " low" : ""}`,
    data: { seat }, title: running ? `${seat}'s clock is running` : `${seat}'s clock is stopped` },
  el("span", { class: "clock-seat", text: seatAndPlayer(seat, players) }),
  el("span", { class: "clock-time", text: clockText(left) }));
}

// Keeps the running clocks of the strip on the page ticking, while `isLive(view)` says the view
// is the live head of the battle; otherwise each shows its recorded time. Stops by itself once
// the strip has left the page.
export class ClockTicker {
  constructor(isLive) {
    this.isLive = isLive;
    this.strip = null;
    this.view = null;
    this.timer = null;
  }

  attach(strip, view) {
    this.stop();
    if (!strip) return;
    this.strip = strip;
    this.view = view;
    this.update();
    if (Object.values(view.clock.seats).some((c) => c?.running)) this.timer = setInterval(() => this.update(), TICK_MS);
  }

  update() {
    if (!this.strip?.isConnected) return this.stop();
    const { at_ms: at, seats } = this.view.clock;
    // A spectator held behind the battle (`held_back`) sees clocks as of an earlier seq: they
    // stand still, as in any replay, rather than tick from a time long past.
    const live = this.isLive(this.view) && this.view.clock.held_back !== true;
    for (const face of this.strip.querySelectorAll(".clock[data-seat]")) {
      const clock = seats[face.dataset.seat];
      const ticking = live && clock?.running === true && typeof clock.remaining_ms === "number";
      const left = ticking ? Math.min(clock.remaining_ms, clock.remaining_ms - (serverNow() - at)) : clock?.remaining_ms;
      const text = clockText(left);
      const time = face.querySelector(".clock-time");
      if (time.textContent !== text) time.textContent = text;
      face.classList.toggle("ticking", ticking);
      face.classList.toggle("low", typeof left === "number" && left < LOW_MS);
    }
    return null;
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.strip = null;
  }
}
