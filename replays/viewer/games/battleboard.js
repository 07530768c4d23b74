// The state panel of the `battleboard` ruleset (seed 002, the 5x6 battle board): the board as
// a grid of terrain (a colour and pattern per type, elevated terrain with its level), the
// border between the heroes' rows and the foes' rows as a thick line with each section
// labelled beside it, each combatant on its cell (side colour, initial, name, rank, defense
// tokens as filled (untapped) and hollow (tapped) pips, effect tokens and guard stances as
// chips, focus and energy), this turn's movement paths as light trails under them (the other
// side's, from its last turn, fainter) and the last attack's attacker and target ringed.
// Beside the board: whose turn and which round, a defense the battle waits for, the last
// attack's dice (hits lit, rerolls marked, Attack Value against Defense and its band) and the
// combatants that are not on the board (defeated, or not arranged or not seen yet).
//
// The view is open information once both sides have arranged; before that a cell is null
// where this viewer may not see a placement, and a seat's own placements show as ghosts.
// Names of effect tokens, actions and the map come from the ruleset's content (GET
// /rulesets); until it arrives, or if it cannot be read, ids stand in for names.

import { withContent } from "../api.js";
import { fact, headline, isObject, seatAndPlayer } from "../blocks.js";
import { chip, el, humanize, titleCase } from "../widgets.js";

let svgNamespace = null;                     // read from the HTML parser, so no address is written here
const CELL_W = 120;                          // px; the overlay's viewBox is in the same units
const CELL_H = 96;
const SIDES = ["heroes", "foes"];
const TERRAIN_LABELS = { difficult: "difficult", challenging: "challenging", barrier: "barrier",
  hazardous: "⚠ hazardous", obscuring: "obscuring", liquid: "≈ liquid" };
const RANK_MARKS = { boss: "♛", elite: "★", mob: "·" };
const PIPS_MANY = 9;                         // more defense tokens than this: smaller pips

export const stylesheet = "battleboard.css";
// The phases and the two sides.
export const hints = {
  labels: { order: "initiative", arrange: "arrangement", turn: "combat", over: "over",
    heroes: "Heroes", foes: "Foes" },
};

// A view this module can draw: the battleboard ruleset's, with its tiles and combatants.
export function fits(state) {
  return state !== null && typeof state === "object" && Array.isArray(state.tiles)
    && Array.isArray(state.combatants);
}

export const render = withContent("battleboard", draw);

function draw(view, hints, content) {
  const state = view.state;
  const units = state.combatants.filter(isObject);
  const ctx = { view, state, hints, units, content, byId: new Map(units.map((u) => [u.id, u])),
    stances: stancesByUnit(state.stances), attack: isObject(state.last_attack) ? state.last_attack : null,
    waiting: isObject(state.waiting_defense) ? state.waiting_defense : null,
    done: new Set(Array.isArray(state.done) ? state.done : []),
    placing: state.phase === "order" || state.phase === "arrange" };
  ctx.dupes = duplicateNames(units);
  return el("div", { class: "view battleboard-view",
    data: { ruleset: "battleboard", names: Object.keys(content).length ? "content" : "ids" } },
    topLine(ctx),
    el("div", { class: "bb-field" },
      boardArea(ctx),
      el("div", { class: "bb-side" }, turnCard(ctx), waitingCard(ctx), attackCard(ctx), offBoard(ctx))));
}

// --- Names from the content, ids where it has none ----------------------------------------

function named(ctx, table, id) {
  return ctx.content[table]?.[id]?.name ?? titleCase(id ?? "?");
}

function label(key, ctx) {
  return ctx.hints.labels?.[key] ?? humanize(key);
}

function sideName(side, ctx) {
  return ctx.hints.labels?.[side] ?? titleCase(side ?? "?");
}

const safe = (value) => String(value ?? "unknown").toLowerCase().replace(/[^a-z0-9_-]/g, "");
const count = (value) => (Number.isInteger(value) && value > 0 ? value : 0);
const isCell = (p) => Array.isArray(p) && p.length === 2 && p.every(Number.isInteger);
const key = (p) => `${p[0]},${p[1]}`;

// A hero's seat by its hero's name; the foes' seat by the side's.
function seatName(seat, ctx) {
  const mine = ctx.units.filter((u) => u.seat === seat);
  if (mine.length === 1) return mine[0].name ?? seat;
  return mine.length && mine.every((u) => u.side === mine[0].side) ? sideName(mine[0].side, ctx) : seat;
}

function unitName(id, ctx) {
  return ctx.byId.get(id)?.name ?? id ?? "?";
}

// A combatant named in a sentence, in its side's colour.
function who(id, ctx) {
  return el("span", { class: `bb-who side-${safe(ctx.byId.get(id)?.side)}`, text: unitName(id, ctx) });
}

// Two goblins of one kind are told apart by their ids' numbers.
function duplicateNames(units) {
  const seen = new Map();
  for (const u of units) seen.set(u.name, (seen.get(u.name) ?? 0) + 1);
  return new Set([...seen].filter(([, n]) => n > 1).map(([name]) => name));
}

function initial(u, ctx) {
  const letter = String(u.name ?? u.id ?? "?").trim().charAt(0).toUpperCase() || "?";
  return ctx.dupes.has(u.name) ? `${letter}${String(u.id ?? "").replace(/\D/g, "")}` : letter;
}

function stancesByUnit(list) {
  const found = new Map();
  for (const s of Array.isArray(list) ? list : []) {
    if (!isObject(s) || !s.unit) continue;
    if (!found.has(s.unit)) found.set(s.unit, []);
    found.get(s.unit).push(s);
  }
  return found;
}

// --- The top line: map, phase, round and turn, whose turn, and the outcome -----------------

function topLine(ctx) {
  const s = ctx.state;
  const facts = [fact("map", named(ctx, "maps", s.map)), fact("phase", label(s.phase ?? "?", ctx))];
  if (Number.isInteger(s.round)) facts.push(fact("round", String(s.round)));
  if (Number.isInteger(s.turn)) facts.push(fact("turn", String(s.turn)));
  if (s.active) facts.push(fact("to act", sideName(s.active, ctx)));
  if (s.arranging) facts.push(fact("arranging", sideName(s.arranging, ctx)));
  // Sides win battles; a seat that won is named with its player.
  const winnerName = (winner) => (SIDES.includes(winner) ? sideName(winner, ctx)
    : seatAndPlayer(winner, ctx.view.players));
  return headline(ctx.view.outcome ?? s.result, winnerName, facts);
}

// --- The board: row 0 (the heroes' edge) on top, as the maps are written -------------------

function boardArea(ctx) {
  const rows = ctx.state.tiles.map((row) => (Array.isArray(row) ? row : []));
  const height = rows.length;
  const width = Math.max(0, ...rows.map((r) => r.length));
  const sections = sectionsOf(ctx, height);
  const border = Number.isInteger(ctx.state.border) ? ctx.state.border : null;
  const onCell = new Map();
  for (const u of ctx.units) {
    if (u.defeated || !isCell(u.cell)) continue;
    if (!onCell.has(key(u.cell))) onCell.set(key(u.cell), []);
    onCell.get(key(u.cell)).push(u);
  }
  const trailCells = new Map();
  for (const u of ctx.units.filter((x) => hasTrail(x) && x.side === ctx.state.active)) {
    for (const p of u.path.filter(isCell)) trailCells.set(key(p), safe(u.side));
  }
  const node = el("div", { class: "bb-board", role: "grid", "aria-label": `Board ${named(ctx, "maps", ctx.state.map)}`,
    data: { width, height, border: border ?? "" } });
  node.style.gridTemplateColumns = `repeat(${width}, ${CELL_W}px)`;
  node.style.gridTemplateRows = `repeat(${height}, ${CELL_H}px)`;
  rows.forEach((row, r) => {
    for (let c = 0; c < width; c += 1) {
      node.append(cell(row[c], c, r, { units: onCell.get(`${c},${r}`) ?? [], trail: trailCells.get(`${c},${r}`),
        section: sections.find((s) => r >= s.from && r <= s.to)?.side }, ctx));
    }
  });
  if (border !== null && border > 0 && border < height) {
    const line = el("div", { class: "bb-border", data: { border },
      title: `section border: rows 0–${border - 1} | ${border}–${height - 1}` });
    line.style.top = `${border * CELL_H}px`;
    node.append(line);
  }
  node.prepend(overlay(ctx, width, height));
  return el("div", { class: "bb-board-wrap" }, bands(sections, height, ctx), node);
}

// The rows each side holds: the view's sections, else the border's split.
function sectionsOf(ctx, height) {
  const given = isObject(ctx.state.sections) ? ctx.state.sections : {};
  const border = ctx.state.border;
  return SIDES.map((side) => {
    let rows = given[side];
    if (!Array.isArray(rows) && Number.isInteger(border)) {
      rows = side === "heroes" ? [0, border - 1] : [border, height - 1];
    }
    if (!Array.isArray(rows) || !rows.every(Number.isInteger) || rows[0] > rows[1]) return null;
    return { side, from: Math.max(0, rows[0]), to: Math.min(height - 1, rows[1]) };
  }).filter(Boolean);
}

// The labels beside the board: one band per section, as tall as its rows.
function bands(sections, height, ctx) {
  const node = el("div", { class: "bb-bands", "aria-hidden": "true" });
  node.style.gridTemplateRows = `repeat(${Math.max(height, 1)}, ${CELL_H}px)`;
  for (const s of sections) {
    const rows = s.from === s.to ? `row ${s.from}` : `rows ${s.from}–${s.to}`;
    const band = el("div", { class: `bb-band side-${s.side}`, data: { side: s.side, rows: `${s.from}-${s.to}` },
      title: `${sideName(s.side, ctx)}' section: ${rows}` },
    el("span", { class: "bb-band-label" },
      el("span", { class: "bb-band-name", text: sideName(s.side, ctx) }),
      el("span", { class: "bb-band-rows", text: rows })));
    band.style.gridRow = `${s.from + 1} / ${s.to + 2}`;
    node.append(band);
  }
  return node;
}

function terrainText(terrain, level) {
  return terrain === "elevated" ? `elevated, level ${level}` : terrain;
}

function cell(tile, c, r, { units, trail, section }, ctx) {
  const terrain = isObject(tile) && tile.terrain ? String(tile.terrain) : "unknown";
  const level = isObject(tile) && Number.isInteger(tile.level) ? tile.level : 0;
  const classes = ["bb-cell", `t-${safe(terrain)}`, level > 0 && `lvl-${Math.min(level, 3)}`,
    section && `sec-${section}`, ctx.state.row_open === r && "row-open", trail && `on-trail trail-${trail}`,
    units.length > 1 && "crowded"].filter(Boolean);
  const where = `${c},${r}`;
  const mark = terrain === "elevated" ? el("span", { class: "bb-terrain", text: `▲${level}` })
    : TERRAIN_LABELS[terrain] ? el("span", { class: "bb-terrain", text: TERRAIN_LABELS[terrain] }) : null;
  return el("div", { class: classes.join(" "), role: "gridcell", data: { cell: where, terrain, level },
    title: `${where} · ${terrainText(terrain, level)}${ctx.state.row_open === r ? " · open row" : ""}` },
    units.map((u) => unitCard(u, ctx)),
    mark);
}

const hasTrail = (u) => !u.defeated && Array.isArray(u.path) && u.path.filter(isCell).length > 1;

// --- A combatant on its cell ----------------------------------------------------------------

function unitCard(u, ctx) {
  const attack = ctx.attack;
  const classes = ["bb-unit", `side-${safe(u.side)}`, `rank-${safe(u.rank)}`,
    ctx.placing && "placing", ctx.waiting?.unit === u.id && "defending", attack?.attacker === u.id && "attacker",
    attack?.target === u.id && "target"].filter(Boolean);
  return el("article", { class: classes.join(" "), data: { unit: u.id, side: u.side }, title: unitTitle(u, ctx) },
    el("header", { class: "bb-unit-head" },
      el("span", { class: "bb-initial", text: initial(u, ctx) }),
      el("span", { class: "bb-name", text: u.name ?? u.id }),
      actsMark(u, ctx)),
    defensePips(u),
    resources(u, ctx),
    chips(u, ctx));
}

function rankMark(u) {
  if (!u.rank || u.rank === "character") return null;
  return el("span", { class: `bb-rank rank-${safe(u.rank)}`, title: u.rank,
    text: `${RANK_MARKS[u.rank] ?? ""}${u.rank}` });
}

// The active side's actions this turn: a square per action it may take, filled once taken.
function actsMark(u, ctx) {
  if (ctx.state.active !== u.side || ctx.state.phase !== "turn" || u.defeated) return null;
  const taken = Array.isArray(u.taken) ? u.taken : [];
  const slots = Math.max(taken.length, count(u.slots) + (u.doubled ? 1 : 0));
  if (!slots) return null;
  const marks = [];
  for (let i = 0; i < slots; i += 1) marks.push(el("span", { class: `bb-act${i < taken.length ? " taken" : ""}` }));
  const title = taken.length ? `this turn: ${taken.map((a) => named(ctx, "actions", a)).join(", ")}`
    : "no action yet this turn";
  return el("span", { class: "bb-acts", data: { taken: taken.length }, title }, marks);
}

function unitTitle(u, ctx) {
  const lines = [`${u.name ?? u.id} (${u.id}) · ${sideName(u.side, ctx)} · ${u.rank ?? "?"}`,
    isCell(u.cell) ? `at ${key(u.cell)}${ctx.placing ? " (placement)" : ""}`
      : u.defeated ? "defeated" : "not on the board",
    `speed ${u.speed ?? "?"} · evasion ${u.evasion ?? "?"} · defense ${u.defense ?? "?"}`
      + ` · resilience ${u.resilience ?? "?"}`,
    `defense tokens: ${count(u.untapped)} untapped, ${count(u.tapped)} tapped`
      + (Number.isInteger(u.untaps_left) ? ` · ${u.untaps_left} more may be untapped this round` : "")];
  if (u.focus_stat || u.focus) lines.push(`focus ${u.focus ?? 0} (gains ${u.focus_stat ?? 0} a round)`);
  if (u.energy_stat || u.energy) lines.push(`energy ${u.energy ?? 0} (of ${u.energy_stat ?? 0})`);
  if (count(u.mp)) lines.push(`movement points ${u.mp}`);
  if (Array.isArray(u.movement) && u.movement.length) lines.push(`moves by ${u.movement.map(humanize).join(", ")}`);
  return lines.join("\n");
}

// Defense tokens: a filled pip for each untapped one, a hollow pip for each tapped one.
function defensePips(u) {
  const untapped = count(u.untapped);
  const tapped = count(u.tapped);
  const pips = [];
  for (let i = 0; i < untapped; i += 1) pips.push(el("span", { class: "bb-pip untapped" }));
  for (let i = 0; i < tapped; i += 1) pips.push(el("span", { class: "bb-pip tapped" }));
  return el("div", { class: `bb-defense${untapped + tapped > PIPS_MANY ? " many" : ""}`,
    data: { untapped, tapped }, title: `defense tokens: ${untapped} untapped (filled), ${tapped} tapped (hollow)` },
    el("span", { class: "bb-pips" }, pips.length ? pips : el("span", { class: "none", text: "no tokens" })));
}

// The rank of a foe; focus and energy where the combatant has them (mobs have neither). The
// rest of its numbers (Defense, movement points...) are in its title.
function resources(u, ctx) {
  const parts = [rankMark(u)];
  if (u.focus_stat || u.focus) {
    parts.push(el("span", { class: "bb-res bb-focus", data: { stat: "focus" }, title: `focus ${u.focus ?? 0}` },
      el("span", { class: "k", text: "◆" }), ` ${u.focus ?? 0}`));
  }
  if (u.energy_stat || u.energy) {
    parts.push(el("span", { class: "bb-res bb-energy", data: { stat: "energy" }, title: `energy ${u.energy ?? 0}` },
      el("span", { class: "k", text: "⚡" }), ` ${u.energy ?? 0}`));
  }
  return parts.some(Boolean) ? el("div", { class: "bb-resources" }, parts) : null;
}

// Effect tokens as "Poisoned ×2", guard stances after them.
function chips(u, ctx) {
  const tokens = Object.entries(isObject(u.tokens) ? u.tokens : {}).filter(([, n]) => count(n));
  const stances = ctx.stances.get(u.id) ?? [];
  if (!tokens.length && !stances.length) return null;
  return el("div", { class: "bb-chips" },
    tokens.map(([kind, n]) => effectChip(kind, n, ctx)),
    stances.map((s) => stanceChip(s)));
}

function effectChip(kind, n, ctx) {
  const rule = ctx.content.tokens?.[kind];
  const tone = rule ? (rule.negative ? " bad" : " good") : "";
  return el("span", { class: `bb-effect${tone}`, data: { kind, count: n },
    title: rule ? `${rule.name} ×${n}: ${rule.text}` : `${titleCase(kind)} ×${n}` },
    el("span", { class: "bb-effect-name", text: rule?.name ?? titleCase(kind) }), " ",
    el("span", { class: "bb-effect-n", text: `×${n}` }));
}

function stanceChip(s) {
  const amount = Number.isInteger(s.amount) && s.amount > 1 ? ` ${s.amount}` : "";
  return el("span", { class: "bb-stance", data: { stance: s.stance },
    title: `guard stance: ${humanize(s.stance ?? "?")}${amount} (until its next turn)`,
    text: `${titleCase(s.stance ?? "?")}${amount}` });
}

// --- The trails, drawn under the combatants: this turn's, and fainter the other side's last --

function svg(tag, attrs = {}) {
  if (svgNamespace === null) {
    svgNamespace = new DOMParser().parseFromString("<svg></svg>", "text/html").body.firstChild.namespaceURI;
  }
  const node = document.createElementNS(svgNamespace, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  }
  return node;
}

const centre = (p) => [p[0] * CELL_W + CELL_W / 2, p[1] * CELL_H + CELL_H / 2];

function overlay(ctx, width, height) {
  const node = svg("svg", { class: "bb-overlay", viewBox: `0 0 ${width * CELL_W} ${height * CELL_H}`,
    "aria-hidden": "true", focusable: "false" });
  const defs = svg("defs");
  for (const [id, cls] of [["bb-head-heroes", "side-heroes"], ["bb-head-foes", "side-foes"]]) {
    const marker = svg("marker", { id, viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 13, markerHeight: 13,
      orient: "auto", markerUnits: "userSpaceOnUse" });
    marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", class: `bb-head ${cls}` }));
    defs.append(marker);
  }
  node.append(defs);
  for (const u of ctx.units.filter(hasTrail)) {
    const points = u.path.filter(isCell).map(centre);
    const side = SIDES.includes(u.side) ? u.side : "heroes";
    const when = u.side === ctx.state.active ? "this-turn" : "last-turn";
    const group = svg("g", { class: `bb-trail side-${side} ${when}`, "data-unit": u.id, "data-steps": points.length - 1,
      "data-turn": when });
    group.append(svg("polyline", { points: points.map((p) => p.join(",")).join(" "),
      "marker-end": `url(#bb-head-${side})` }));
    group.append(svg("circle", { class: "bb-trail-start", cx: points[0][0], cy: points[0][1], r: 7 }));
    node.append(group);
  }
  return node;
}

// --- Beside the board: the turn, a waiting defense, the last attack, who is off the board --

function turnCard(ctx) {
  const s = ctx.state;
  const active = s.active;
  const parts = [];
  if (active) {
    parts.push(el("div", { class: `bb-turn-side side-${safe(active)}`, data: { side: active } },
      `${sideName(active, ctx)} to act`,
      s.half ? chip("half turn", { kind: "bb-half", title: "the first side's half turn: one action each" }) : null));
  } else if (s.phase === "arrange" && s.arranging) {
    parts.push(el("div", { class: `bb-turn-side side-${safe(s.arranging)}`,
      text: `${sideName(s.arranging, ctx)} arranging` }));
  } else {
    parts.push(el("div", { class: "bb-turn-side", text: label(s.phase ?? "?", ctx) }));
  }
  const facts = [];
  if (Number.isInteger(s.round)) facts.push(fact("round", String(s.round)));
  if (s.first) facts.push(fact("first", sideName(s.first, ctx)));
  if (s.fatigue > 0) facts.push(fact("fatigue", `${s.fatigue} token${s.fatigue === 1 ? "" : "s"} tapped a turn`));
  if (ctx.done.size) facts.push(fact("done", [...ctx.done].map((seat) => seatName(seat, ctx)).join(", ")));
  return el("section", { class: "bb-card bb-turn", data: { active: active ?? "" } },
    parts,
    facts.length ? el("div", { class: "facts" }, facts) : null,
    Number.isInteger(s.row_open) ? el("div", { class: "bb-row-open", data: { row: s.row_open },
      text: `Row ${s.row_open} is open: ${sideName(active, ctx)} may take it` }) : null);
}

function waitingCard(ctx) {
  const w = ctx.waiting;
  if (!w) return null;
  return el("section", { class: "bb-card bb-waiting", data: { unit: w.unit ?? "" } },
    el("div", { class: "bb-card-title", text: "Awaiting defense" }),
    el("div", { class: "bb-waiting-line" },
      who(w.unit, ctx),
      ` takes AV ${w.av ?? "?"}`,
      w.attacker ? [" from ", who(w.attacker, ctx)] : null,
      w.action ? ` (${named(ctx, "actions", w.action)})` : null),
    el("div", { class: "bb-hint", text: "tap or discard a defense token, maybe with focus" }));
}

function attackCard(ctx) {
  const a = ctx.attack;
  const title = el("div", { class: "bb-card-title", text: "Last attack" });
  if (!a) {
    return el("section", { class: "bb-card bb-attack empty" }, title,
      el("div", { class: "none", text: "no attack yet" }));
  }
  const band = safe(a.band);
  return el("section", { class: "bb-card bb-attack",
    data: { attacker: a.attacker ?? "", target: a.target ?? "", band } },
    title,
    el("div", { class: "bb-attack-who" },
      who(a.attacker, ctx),
      el("span", { class: "bb-arrow", text: "→" }),
      who(a.target, ctx),
      a.expression ? el("span", { class: "bb-expression", title: "N d12; Attack Value = hits × M + K",
        text: a.expression }) : null),
    dice(a),
    el("div", { class: "bb-attack-sum" },
      el("span", { class: "bb-hits", text: `${count(a.hits)} hit${a.hits === 1 ? "" : "s"}` }),
      el("span", { class: "bb-av" }, el("span", { class: "k", text: "AV" }), ` ${a.av ?? "?"}`),
      el("span", { class: "vs", text: "vs" }),
      el("span", { class: "bb-defense-value" }, el("span", { class: "k", text: "Defense" }), ` ${a.defense ?? "?"}`),
      a.band ? el("span", { class: `bb-band-result band-${band}`, data: { band }, text: a.band }) : null));
}

// Every die as rolled, a rerolled one with the value it replaced; the hits lit. A hit is a die
// above the target's evasion (or an 11 or 12), so the hits are always the highest dice.
function dice(a) {
  const rolled = Array.isArray(a.dice) ? a.dice.map(Number) : [];
  const final = [...rolled];
  const was = new Map();
  for (const r of Array.isArray(a.rerolls) ? a.rerolls : []) {
    if (!Array.isArray(r) || !Number.isInteger(r[0]) || r[0] < 0 || r[0] >= final.length) continue;
    was.set(r[0], final[r[0]]);
    final[r[0]] = Number(r[1]);
  }
  const hits = count(a.hits);
  const order = final.map((value, i) => [value, i]).sort((x, y) => y[0] - x[0] || x[1] - y[1]);
  const lit = new Set(order.slice(0, hits).map(([, i]) => i));
  if (!final.length) return el("div", { class: "bb-dice none", text: "no dice" });
  return el("div", { class: "bb-dice" }, final.map((value, i) => el("span", {
    class: `bb-die ${lit.has(i) ? "hit" : "miss"}${was.has(i) ? " rerolled" : ""}`,
    data: { value, ...(was.has(i) ? { was: was.get(i) } : {}) },
    title: `${value}: ${lit.has(i) ? "hit" : "miss"}${was.has(i) ? ` (rerolled with focus; was ${was.get(i)})` : ""}` },
  was.has(i) ? el("span", { class: "bb-die-was", text: was.get(i) }) : null,
  el("span", { class: "bb-die-value", text: value }),
  was.has(i) ? el("span", { class: "bb-die-reroll", text: "↻" }) : null)));
}

// The combatants not on the board: the defeated, and those not arranged (or not seen) yet.
function offBoard(ctx) {
  const groups = [
    ["defeated", "Defeated", ctx.units.filter((u) => u.defeated)],
    ["waiting", ctx.placing ? "Not on the board yet" : "Off the board",
      ctx.units.filter((u) => !u.defeated && !isCell(u.cell))],
  ].filter(([, , list]) => list.length);
  if (!groups.length) return null;
  return el("section", { class: "bb-card bb-off" }, groups.map(([kind, title, list]) =>
    el("div", { class: `bb-off-group ${kind}`, data: { group: kind } },
      el("div", { class: "field-label" }, title, el("span", { class: "count", text: list.length })),
      el("ul", { class: "bb-off-list" }, list.map((u) => offItem(u, kind, ctx))))));
}

function offItem(u, kind, ctx) {
  return el("li", { class: `bb-off-item ${kind} side-${safe(u.side)}`, data: { unit: u.id }, title: unitTitle(u, ctx) },
    el("span", { class: "bb-initial", text: initial(u, ctx) }),
    el("span", { class: "bb-name", text: u.name ?? u.id }),
    rankMark(u),
    kind === "defeated" ? null : chips(u, ctx));
}
