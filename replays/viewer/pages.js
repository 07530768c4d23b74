// What the tournament, set and player pages share: reading their one JSON answer, saying
// plainly when it cannot be read, and the links between the pages.

import { getJSON } from "./api.js";
import { clear, el, playerName } from "./widgets.js";

const HOUSE = "house:";

export const battleHref = (id) => `/viewer/battles/${encodeURIComponent(id)}`;
export const setHref = (id) => `/viewer/sets/${encodeURIComponent(id)}`;
export const playerHref = (id) => `/viewer/players/${encodeURIComponent(id)}`;
export const tournamentHref = (id) => `/viewer/tournaments/${encodeURIComponent(id)}`;

// A count kept in halves or quarters, in the units people count: scaled(3, 2) -> "1.5".
// Every such value is a small dyadic fraction, so the decimal is exact.
export function scaled(value, scale) {
  return typeof value === "number" ? String(value / scale) : "—";
}

// A pairing's half-points as a score line reads them: 2 -> "1", 1 -> "½", 0 -> "0".
export function halfPoints(value) {
  if (value === 1) return "½";
  return scaled(value, 2);
}

// A tournament entrant: a link to its player page; a house entrant ("house:greedy#1") is the
// tournament's own and has none.
export function entrantLink(id) {
  if (String(id).startsWith(HOUSE)) return el("span", { class: "entrant house", text: id });
  return el("a", { class: "entrant", href: playerHref(id), text: id });
}

// The id a seat's player is listed under (a house seat as "house:<policy>"), as the API's
// player pages name it.
export function seatPlayerId(entry) {
  return entry !== null && typeof entry === "object" ? `${HOUSE}${entry.bot ?? "bot"}` : String(entry);
}

// A seat's player, linked to its player page.
export function playerLink(entry) {
  return el("a", { class: "player-link", href: playerHref(seatPlayerId(entry)), text: playerName(entry) });
}

// A table of `rows` (tr nodes) under `headings`; a heading is aligned as its column's cells.
export function table(id, headings, rows, empty) {
  const body = rows.length ? rows
    : [el("tr", {}, el("td", { colspan: headings.length, class: "none", text: empty }))];
  const numeric = (i) => Boolean(rows[0]?.cells[i]?.classList.contains("num"));
  return el("table", { id, class: "info-table" },
    el("thead", {}, el("tr", {}, headings.map((h, i) => el("th", { class: numeric(i) ? "num" : null, text: h })))),
    el("tbody", {}, body));
}

export function section(title, ...body) {
  return el("section", { class: "info-block" }, el("h2", { text: title }), body);
}

export const when = (stamp) => String(stamp ?? "").replace("T", " ").slice(0, 19);

export function progressBadge(finished) {
  return finished ? { text: "finished", title: "Every game of it has been played.", kind: "ended" }
    : { text: "in progress", title: "Games of it are still being played.", kind: "live" };
}

// Reads `path` and draws what `render` makes of it into `root`. A refusal (an unknown id, a
// server that cannot be reached) is said in the page, never thrown: it resolves to null.
// `render` returns {body, name, title, badge}: the page, and what the top bar shows of it.
export async function openPage(root, what, id, path, render) {
  clear(root, el("p", { class: "muted loading", text: `Loading the ${what}…` }));
  let found;
  try {
    found = await getJSON(path);
  } catch (error) {
    clear(root, failure(what, id, error));
    return null;
  }
  const shown = render(found);
  clear(root, shown.body);
  return shown;
}

function failure(what, id, error) {
  const missing = error.status === 404;
  return el("div", { class: "page-error" },
    el("h1", { text: missing ? `Not found: no ${what} “${id}”` : `The ${what} could not be read` }),
    el("p", { class: "error-state", text: missing ? `The server knows no ${what} by that id.` : error.message }),
    el("p", {}, el("a", { href: "/viewer/", text: "Back to the battle list" })));
}
