// The building blocks of the state panel: facts, entity cards with bars, status chips with
// severity, piles of cards (face-down when hidden) and grids.

import { bar, card, chip, el, faceDown, humanize, playerName, titleCase } from "./widgets.js";

const BAR_ORDER = ["hp", "lp", "mp", "ap", "sp", "pp"];
const NAME_KEYS = new Set(["name", "id", "key", "seat", "unit"]);

export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
export const isScalar = (v) => v === null || ["string", "number", "boolean"].includes(typeof v);

// Every `x` that comes with a `max_x`: the bars an entity gets, HP first.
export function barKeys(o) {
  const rank = (k) => (BAR_ORDER.includes(k) ? BAR_ORDER.indexOf(k) : BAR_ORDER.length);
  return Object.keys(o)
    .filter((k) => typeof o[k] === "number" && typeof o[`max_${k}`] === "number")
    .sort((a, b) => rank(a) - rank(b));
}

export const isEntity = (v) => isObject(v) && barKeys(v).length > 0;
export const isEntityMap = (v) => isObject(v) && Object.keys(v).length > 0 && Object.values(v).every(isEntity);

export function entityName(key, e) {
  return e.name ?? titleCase(e.id ?? e.unit ?? key);
}

export function valueText(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.length ? value.map(valueText).join(", ") : "—";
  if (isObject(value)) return inline(value);
  return String(value);
}

// A small object on one line: "pool brawler · level 3 · slots 2".
export function inline(o) {
  return Object.entries(o).map(([k, v]) => `${humanize(k)} ${isScalar(v) ? valueText(v) : "…"}`).join(" · ") || "—";
}

export function fact(label, value) {
  return el("span", { class: "fact" }, el("span", { class: "k", text: label }), el("span", { class: "v", text: value }));
}

// The top line of every panel: how the battle ended, if it has, above the panel's facts.
// `winnerName` says who won as the game names it (a seat and its player, a side...).
export function headline(result, winnerName, facts) {
  const ended = outcomeText(result, winnerName);
  return el("div", { class: "headline" },
    ended ? el("div", { class: "outcome", text: ended }) : null,
    el("div", { class: "facts" }, facts));
}

// The engine's own reasons (a clock's), read as words; a ruleset's reasons are its own words.
const REASONS = {
  timeout: "on time",
  no_first_move: "the other side never made its first move",
  aborted_no_first_move: "a seat never made its first move",
};

// Why a battle ended, as words: "on time", "knockout", "turn limit".
export function reasonText(reason) {
  return REASONS[reason] ?? humanize(reason ?? "");
}

// A battle that ended without being played out (nobody wins, and it is not rated).
export const isAborted = (result) => result?.reason === "aborted_no_first_move";

// "Winner: p1 · alice (knockout)", "Winner: p2 · bob (on time)", "Draw (turn limit)",
// "Aborted, unrated (a seat never made its first move)", or "" while the battle runs.
export function outcomeText(result, winnerName) {
  if (!result) return "";
  const why = reasonText(result.reason);
  if (result.winner === null || result.winner === undefined) {
    return isAborted(result) ? `Aborted, unrated (${why})` : `Draw (${why})`;
  }
  return `Winner: ${winnerName(result.winner)} (${why})`;
}

// A seat as "p1 · alice" (its player, when the view names one), else the seat alone.
export function seatAndPlayer(seat, players) {
  const player = playerName(players?.[seat]);
  return player ? `${seat} · ${player}` : seat;
}

export function labelled(label, ...body) {
  return el("div", { class: "field" }, el("div", { class: "field-label", text: label }), el("div", { class: "field-body" }, body));
}

export function severityClass(severity) {
  if (typeof severity !== "number") return "";
  return severity >= 5 ? "sev-high" : severity >= 3 ? "sev-mid" : "sev-low";
}

export function statusChip(item, names) {
  if (!isObject(item)) return chip(titleCase(item), { kind: "status" });
  const name = item.name ?? titleCase(item.kind ?? item.id ?? "status");
  const severity = item.severity ?? item.stacks ?? item.level;
  const target = item.target ? names.get(item.target) ?? item.target : null;
  const inactive = item.active === false;
  const title = Object.entries(item).filter(([, v]) => isScalar(v) && v !== null)
    .map(([k, v]) => `${humanize(k)}: ${valueText(v)}`).join(" · ");
  return el("span", { class: `status ${severityClass(severity)} ${inactive ? "inactive" : "active"}`, title,
    data: { kind: String(item.kind ?? item.id ?? "") } },
    el("span", { class: "status-name", text: name }),
    target ? el("span", { class: "status-target", text: `→ ${target}` }) : null,
    severity !== undefined ? el("span", { class: "sev", text: severity, "aria-label": `severity ${severity}` }) : null,
    inactive ? el("span", { class: "status-off", text: "inactive" }) : null);
}

export function entityCard(key, e, ctx, size = "normal") {
  const bars = barKeys(e);
  const flags = Object.keys(e).filter((k) => e[k] === true);
  const attached = ctx.onEntity.get(key) ?? [];
  const shownBars = size === "compact" ? bars.slice(0, 1) : bars;
  return el("article", { class: `entity ${size} ${flags.map((f) => `is-${f}`).join(" ")}`, data: { key } },
    el("header", { class: "entity-head" },
      el("span", { class: "entity-name", text: entityName(key, e) }),
      flags.map((f) => chip(humanize(f), { kind: `flag flag-${f}` }))),
    shownBars.map((b) => bar(b, e[b], e[`max_${b}`])),
    size === "big" ? entityFacts(e, bars) : null,
    attached.length ? el("div", { class: "statuses" }, attached.map((s) => statusChip(s, ctx.names))) : null,
    size === "compact" ? null : entityDetails(e, bars, size !== "big"));
}

// Numbers beside the bars: counters, costs, and a stats object as "atk 111 · def 40".
function entityFacts(e, bars) {
  const skip = new Set([...bars, ...bars.map((b) => `max_${b}`), ...NAME_KEYS]);
  const parts = [];
  for (const [k, v] of Object.entries(e)) {
    if (skip.has(k)) continue;
    if (typeof v === "number") parts.push(fact(humanize(k), String(v)));
    else if (isObject(v) && Object.keys(v).length && Object.values(v).every((x) => typeof x === "number")) {
      parts.push(fact(humanize(k), inline(v)));
    }
  }
  return parts.length ? el("div", { class: "facts" }, parts) : null;
}

// The rest (names, lists, nested objects; on smaller cards the numbers too), folded away.
function entityDetails(e, bars, withNumbers) {
  const skip = new Set([...bars, ...bars.map((b) => `max_${b}`), "name", "seat", "key"]);
  const rows = withNumbers ? [entityFacts(e, bars)] : [];
  for (const [k, v] of Object.entries(e)) {
    if (skip.has(k) || typeof v === "number" || typeof v === "boolean") continue;
    if (isObject(v) && Object.values(v).every((x) => typeof x === "number")) continue;
    if (Array.isArray(v) && v.every(isScalar)) {
      rows.push(labelled(humanize(k), v.length ? v.map((x) => chip(titleCase(x))) : el("span", { class: "none", text: "—" })));
    } else if (Array.isArray(v)) {
      rows.push(labelled(humanize(k), v.map((x) => el("div", { class: "line", text: valueText(x) }))));
    } else {
      rows.push(fact(humanize(k), valueText(v)));
    }
  }
  if (!rows.some(Boolean)) return null;
  return el("details", { class: "entity-more" }, el("summary", { text: "details" }), rows);
}

// A pile: face-up cards where the viewer may see them, else only a face-down count.
export function pile(label, cards, count, key) {
  const n = Array.isArray(cards) ? cards.length : count;
  let body;
  if (Array.isArray(cards)) body = cards.length ? cards.map(card) : [el("span", { class: "none", text: "empty" })];
  else body = [faceDown(Number.isInteger(count) ? count : undefined)];
  return el("div", { class: "pile", data: { pile: key } },
    el("span", { class: "pile-label" }, label, Number.isInteger(n) ? el("span", { class: "count", text: n }) : null),
    el("div", { class: "cards" }, body));
}

export function grid(rows, ctx) {
  const width = Math.max(...rows.map((r) => r.length));
  const node = el("div", { class: "grid", role: "grid" });
  node.style.gridTemplateColumns = `repeat(${width}, minmax(2.75rem, 1fr))`;
  rows.forEach((row, y) => {
    for (let x = 0; x < width; x += 1) node.append(gridCell(row[x], ctx, x, y));
  });
  return node;
}

function gridCell(value, ctx, x, y) {
  const where = `${x},${y}`;
  if (value === null || value === undefined || value === "") return el("div", { class: "cell empty", title: where });
  if (isScalar(value)) return el("div", { class: "cell", title: where, text: valueText(value) });
  if (isEntity(value)) {
    const b = barKeys(value)[0];
    return el("div", { class: "cell unit", title: `${where} ${inline(value)}` },
      el("span", { class: "cell-name", text: entityName(where, value) }), bar(b, value[b], value[`max_${b}`]));
  }
  if (isObject(value)) {
    return el("div", { class: "cell", title: `${where} ${inline(value)}`,
      text: value.name ?? titleCase(value.kind ?? value.type ?? value.id ?? "?") });
  }
  return el("div", { class: "cell", title: where, text: valueText(value) });
}
