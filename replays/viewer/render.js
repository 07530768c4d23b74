// The state panel: renders any ruleset's view JSON by walking it.
//
// - an object with `x` and `max_x` numbers (hp, lp, mp, ap...) is an entity with bars;
// - lists named dynamics/effects/statuses are chips with severity, shown on the entity
//   (`unit`) or the seat (`seat`) they belong to, else at the top;
// - `x_count` beside `x` is a pile: cards where the list is visible, a face-down count
//   where it is null. A null is all the page ever gets of a hidden value;
// - a 2-D list, or a `grid`/`board` key, is a grid;
// - an object keyed by the battle's seats is shown as sides, one column each.
//
// A game's hints (games/<id>.js) only order, group and label what is already there:
// - groups: for an object of entities, the sibling keys that pick them out, in order. Each
//   entity is shown once, in the first group that names it; `size` is "big" or "compact".
// - order: keys rendered first, in this order (the rest follow).
// - labels: display names of keys.
// - outOf: a counter shown as "value / other key's value" (the other key is then not shown).
// - secretIf: a key whose null means "hidden" while the named sibling flag is true.
// A game whose screen the generic walk cannot tell draws its own panel (games.js), used while
// its view has the shape that panel draws.

import { entityCard, entityName, fact, grid, headline, isEntity, isEntityMap, isObject, isScalar, labelled, pile,
  seatAndPlayer, statusChip, valueText } from "./blocks.js";
import { panelFor } from "./games.js";
import { chip, el, humanize, playerName, titleCase } from "./widgets.js";

const STATUS_LISTS = new Set(["dynamics", "effects", "statuses", "status_effects", "conditions", "buffs", "debuffs"]);
const GRID_KEYS = new Set(["grid", "board", "tiles", "map"]);
// Keys whose null means "hidden from this viewer" rather than "none" (hints.secretIf adds
// keys that are hidden only while a sibling flag is set, such as a locked pick).
const PILES = new Set(["hand", "hands", "deck", "library", "pile", "piles", "discard", "graveyard", "energy",
  "items", "inventory", "cards", "drills"]);
const is2D = (v) => Array.isArray(v) && v.length > 0 && v.every(Array.isArray);

export function renderView(view, hints) {
  if (view.state === null || view.state === undefined) {
    return el("p", { class: "empty-state", text: "The battle is being set up: the game starts a few events later." });
  }
  const own = panelFor(view);
  if (own) return own(view, hints);
  const seats = Object.keys(view.players);
  const ctx = { hints, seats, players: view.players, names: new Map(), onEntity: new Map(), onSeat: new Map(),
    active: view.state.active, awaiting: new Set(view.state.awaiting ?? []), winner: view.outcome?.winner };
  collectNames(view.state, ctx.names, 0);
  const global = attachStatuses(view.state, ctx);
  const rest = Object.keys(view.state).filter((k) => !isFlat(view.state[k]) && !STATUS_LISTS.has(k));
  return el("div", { class: "view" },
    topLine(view, ctx),
    global.map(([key, items]) => el("div", { class: "statuses global" },
      el("span", { class: "statuses-label", text: labelOf(key, ctx) }), items.map((s) => statusChip(s, ctx.names)))),
    orderKeys(rest, hints.order).map((key) => topField(key, view.state[key], ctx)));
}

const isFlat = (v) => isScalar(v) || (Array.isArray(v) && v.every(isScalar) && v.length <= 8);

function labelOf(key, ctx) {
  return ctx.hints.labels?.[key] ?? humanize(key);
}

function orderKeys(keys, order = []) {
  const first = order.filter((k) => keys.includes(k));
  return [...first, ...keys.filter((k) => !first.includes(k))];
}

// Entity keys -> names, so a status or a grid can name what it points at.
function collectNames(value, names, depth) {
  if (depth > 6 || !value || typeof value !== "object") return;
  if (isEntityMap(value)) for (const [k, e] of Object.entries(value)) names.set(k, entityName(k, e));
  for (const child of Object.values(value)) collectNames(child, names, depth + 1);
}

function attachStatuses(state, ctx) {
  const global = [];
  for (const [key, list] of Object.entries(state)) {
    if (!STATUS_LISTS.has(key) || !Array.isArray(list)) continue;
    const left = [];
    for (const item of list) {
      if (isObject(item) && item.id !== undefined) ctx.names.set(item.id, item.name ?? titleCase(item.kind ?? item.id));
      const unit = isObject(item) ? item.unit : undefined;
      const seat = isObject(item) ? item.seat : undefined;
      if (unit && ctx.names.has(unit)) push(ctx.onEntity, unit, item);
      else if (seat && ctx.seats.includes(seat)) push(ctx.onSeat, seat, item);
      else left.push(item);
    }
    if (left.length) global.push([key, left]);
  }
  return global;
}

function push(map, key, item) {
  if (!map.has(key)) map.set(key, []);
  map.get(key).push(item);
}

// The top line: the state's scalars ("phase battle", "turn 12 / 80") and the outcome.
function topLine(view, ctx) {
  const state = view.state;
  const outOf = ctx.hints.outOf ?? {};
  const hidden = new Set(Object.values(outOf));
  const facts = [];
  for (const key of orderKeys(Object.keys(state), ctx.hints.order)) {
    const value = state[key];
    if (!isFlat(value) || hidden.has(key) || value === null || STATUS_LISTS.has(key)) continue;
    const shown = outOf[key] && state[outOf[key]] !== undefined ? `${value} / ${state[outOf[key]]}` : valueText(value);
    facts.push(fact(labelOf(key, ctx), shown));
  }
  return headline(view.outcome, (winner) => seatAndPlayer(winner, view.players), facts);
}

function topField(key, value, ctx) {
  if (isObject(value) && sameSet(Object.keys(value), ctx.seats)) return sides(value, ctx);
  return el("section", { class: "block" }, field(key, value, ctx));
}

const sameSet = (a, b) => a.length === b.length && a.every((x) => b.includes(x));

function sides(map, ctx) {
  return el("div", { class: "sides" }, ctx.seats.map((seat, i) => side(seat, map[seat], ctx, i)));
}

function side(seat, value, ctx, index) {
  const marks = [ctx.active === seat && "to act", ctx.awaiting.has(seat) && "awaited", ctx.winner === seat && "winner"]
    .filter(Boolean);
  const attached = ctx.onSeat.get(seat) ?? [];
  return el("section", { class: `side seat-${index}`, data: { seat } },
    el("header", { class: "side-head" },
      el("span", { class: "seat-name", text: seat }),
      el("span", { class: "player-name", text: playerName(ctx.players[seat]) }),
      marks.map((m) => chip(m, { kind: `mark mark-${m.replace(/ /g, "-")}` }))),
    attached.length ? el("div", { class: "statuses" }, attached.map((s) => statusChip(s, ctx.names))) : null,
    isObject(value) ? body(value, ctx) : field(seat, value, ctx));
}

// An object's fields: its scalars on one line of facts, then piles, entities and the rest.
function body(obj, ctx) {
  const used = new Set();
  for (const [key, refs] of Object.entries(ctx.hints.groups ?? {})) {
    if (isEntityMap(obj[key])) refs.forEach((g) => used.add(g.ref));
  }
  const facts = [];
  const parts = [];
  for (const key of orderKeys(Object.keys(obj), ctx.hints.order)) {
    if (used.has(key)) continue;
    const value = obj[key];
    const counted = key.match(/^(.+)_count$/);
    const base = counted ? counted[1] : key;
    if (counted || `${key}_count` in obj) {
      used.add(base).add(`${base}_count`);
      parts.push(pile(labelOf(base, ctx), obj[base], obj[`${base}_count`], base));
    } else if (ctx.hints.groups?.[key] && isEntityMap(value)) {
      parts.push(groups(key, value, obj, ctx.hints.groups[key], ctx));
    } else if (value === null && hidden(key, obj, ctx)) {
      parts.push(pile(labelOf(key, ctx), null, undefined, key));
    } else if (isScalar(value)) {
      facts.push(fact(labelOf(key, ctx), valueText(value)));
    } else {
      parts.push(field(key, value, ctx));
    }
  }
  return el("div", { class: "body" }, facts.length ? el("div", { class: "facts" }, facts) : null, parts);
}

// An object of entities split by the sibling keys that pick them out (hints.groups).
function groups(key, map, obj, refs, ctx) {
  const shown = new Set();
  const sections = refs.map((g) => {
    const keys = [obj[g.ref]].flat().filter((k) => typeof k === "string" && k in map && !shown.has(k));
    keys.forEach((k) => shown.add(k));
    return keys.length ? group(g.label, keys, map, ctx, g.size ?? "normal") : null;
  });
  const rest = Object.keys(map).filter((k) => !shown.has(k));
  if (rest.length) sections.push(group(labelOf(key, ctx), rest, map, ctx, "normal"));
  return el("div", { class: "groups" }, sections);
}

function group(label, keys, map, ctx, size) {
  return el("div", { class: `group group-${size}` },
    el("div", { class: "group-label" }, label, el("span", { class: "count", text: keys.length })),
    el("div", { class: `entities ${size}` }, keys.map((k) => entityCard(k, map[k], ctx, size))));
}

function hidden(key, obj, ctx) {
  const flag = ctx.hints.secretIf?.[key];
  return PILES.has(key) || (flag !== undefined && obj[flag] === true);
}

function field(key, value, ctx) {
  const label = labelOf(key, ctx);
  if (isScalar(value)) return fact(label, valueText(value));
  if (Array.isArray(value)) return list(key, value, ctx);
  if (isEntity(value)) return entityCard(key, value, ctx, "normal");
  if (isEntityMap(value)) {
    return labelled(label, el("div", { class: "entities" },
      Object.entries(value).map(([k, e]) => entityCard(k, e, ctx, "normal"))));
  }
  return labelled(label, body(value, ctx));
}

function list(key, value, ctx) {
  const label = labelOf(key, ctx);
  if (STATUS_LISTS.has(key)) {
    return labelled(label, value.length ? el("div", { class: "statuses" }, value.map((s) => statusChip(s, ctx.names)))
      : el("span", { class: "none", text: "none" }));
  }
  if (GRID_KEYS.has(key) || is2D(value)) return labelled(label, grid(value, ctx));
  if (value.every(isScalar)) {
    if (PILES.has(key)) return pile(label, value, undefined, key);
    return labelled(label, value.length ? value.map((x) => chip(titleCase(x))) : el("span", { class: "none", text: "—" }));
  }
  return labelled(label, value.map((item) => (isEntity(item) ? entityCard(key, item, ctx, "compact")
    : el("div", { class: "line", text: valueText(item) }))));
}
