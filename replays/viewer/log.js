// The event-log panel: one row per event as the server sent it for this perspective (hidden
// fields arrive as null and are shown as "hidden"), a filter, click-to-seek, the current
// event highlighted, and the current event's full data below the list. A clock event reads
// as a sentence ("p2 ran out of time: forfeit"); the clock facts closing each batch are dimmed.

import { CLOCK_FACTS, clockEventLine } from "./clocks.js";
import { clear, el } from "./widgets.js";

const SUMMARY_CHARS = 110;

export class EventLog {
  constructor(root, onSeek) {
    this.list = root.querySelector("#log-list");
    this.filterInput = root.querySelector("#log-filter");
    this.actionsOnly = root.querySelector("#log-actions");
    this.count = root.querySelector("#log-count");
    this.detail = root.querySelector("#event-detail");
    this.rows = [];
    this.events = [];
    this.actions = new Set();
    this.turnStarts = new Map();
    this.current = 0;
    this.list.addEventListener("click", (event) => {
      const row = event.target.closest("li[data-seq]");
      if (row) onSeek(Number(row.dataset.seq));
    });
    this.filterInput.addEventListener("input", () => this.applyFilter());
    this.actionsOnly.addEventListener("change", () => this.applyFilter());
  }

  reset(events, { actions, turns }) {
    this.events = [];
    this.rows = [];
    this.actions = new Set(actions);
    this.turnStarts = new Map(turns.map((t) => [t.seq, t.turn]));
    this.current = 0;
    clear(this.list);
    this.append(events);
  }

  setMarks({ actions, turns }) {
    this.actions = new Set(actions);
    this.turnStarts = new Map(turns.map((t) => [t.seq, t.turn]));
    for (const row of this.rows) this.decorate(row);
  }

  append(events) {
    const fresh = events.filter((e) => e.seq === this.events.length + 1 && this.events.push(e));
    const nodes = fresh.map((e) => this.row(e));
    this.rows.push(...nodes);
    this.list.append(...nodes);
    this.applyFilter();
  }

  row(event) {
    const dot = event.type.indexOf(".");
    const line = clockEventLine(event);
    const kind = line === null ? null : CLOCK_FACTS.has(event.type) ? "clock-fact" : "clock-event";
    const node = el("li", { class: kind, data: { seq: event.seq, type: event.type }, title: "Click to seek here" },
      el("span", { class: "ev-seq", text: event.seq }),
      el("span", { class: "ev-type" },
        el("span", { class: "ev-ns", text: event.type.slice(0, dot + 1) }), event.type.slice(dot + 1)),
      el("span", { class: "ev-data", text: line ?? summary(event) }));
    if (event.seq > this.current) node.classList.add("future");
    this.decorate(node);
    return node;
  }

  decorate(node) {
    const seq = Number(node.dataset.seq);
    node.classList.toggle("action", this.actions.has(seq));
    const turn = this.turnStarts.get(seq);
    node.classList.toggle("turn-start", turn !== undefined);
    if (turn !== undefined) node.dataset.turn = `turn ${turn}`;
  }

  applyFilter() {
    const words = this.filterInput.value.toLowerCase().split(/\s+/).filter(Boolean);
    const onlyActions = this.actionsOnly.checked;
    let shown = 0;
    for (const node of this.rows) {
      const text = node.textContent.toLowerCase();
      const visible = (!onlyActions || node.classList.contains("action")) && words.every((w) => text.includes(w));
      node.hidden = !visible;
      shown += visible ? 1 : 0;
    }
    this.count.textContent = shown === this.rows.length ? `${shown} events` : `${shown} of ${this.rows.length}`;
  }

  // Move the highlight, dimming only the rows between the old and the new position.
  highlight(seq) {
    const [low, high] = [Math.min(seq, this.current), Math.max(seq, this.current)];
    for (let s = low + 1; s <= high && s <= this.rows.length; s += 1) this.rows[s - 1].classList.toggle("future", s > seq);
    this.rows[this.current - 1]?.classList.remove("current");
    this.current = seq;
    this.showDetail(this.events[seq - 1]);
    const row = this.rows[seq - 1];
    if (row) {
      row.classList.add("current");
      if (!row.hidden) row.scrollIntoView({ block: "nearest" });
    }
  }

  showDetail(event) {
    if (!event) return clear(this.detail);
    const hidden = event.redacted ? el("span", { class: "chip hidden-chip", text: "partly hidden" }) : null;
    return clear(this.detail,
      el("div", { class: "detail-head" }, el("b", { text: `#${event.seq} ` }), event.type, " ", hidden),
      el("pre", { class: "detail-json", text: pretty(event.data) }));
  }
}

// Indented JSON with short lists of scalars kept on one line.
function pretty(data) {
  return JSON.stringify(data, null, 2).replace(/\[\s+([^[\]{}]*?)\s+\]/g,
    (whole, inner) => (inner.length < 160 ? `[${inner.split(/,\s+/).join(", ")}]` : whole));
}

// One line of an event's data: the acting seat first, hidden (null) fields of a redacted
// event marked as such, long lists and objects shortened.
function summary(event) {
  const redacted = event.redacted === true;
  const parts = [];
  for (const [key, value] of Object.entries(event.data)) {
    if (value === null) {
      if (redacted) parts.push(`${key}: hidden`);
    } else {
      parts.push(key === "seat" ? String(value) : `${key}: ${short(value)}`);
    }
  }
  const text = parts.join(" · ");
  return text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS - 1)}…` : text;
}

function short(value, depth = 0) {
  if (value === null) return "null";
  if (Array.isArray(value)) {
    if (depth > 1 || value.some((v) => v && typeof v === "object")) return `[${value.length}]`;
    return `[${value.slice(0, 4).join(", ")}${value.length > 4 ? `, …+${value.length - 4}` : ""}]`;
  }
  if (typeof value === "object") {
    const keys = Object.keys(value);
    if (depth > 1 || keys.length > 4) return `{${keys.length} fields}`;
    return `{${keys.map((k) => `${k}: ${short(value[k], depth + 1)}`).join(", ")}}`;
  }
  return String(value);
}
