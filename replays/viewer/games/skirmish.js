// The state panel of the `skirmish` ruleset (seed 001, a tactical card game on tiles): the
// board as a grid with each character on its tile (seat colour, class, damage against armor,
// effects as chips), rocks as rocks, and beside it each seat's AP, Storm counter and piles,
// with the characters that are off the board (fainted, not placed, not fielded) listed there.
//
// Names and texts (characters, classes, cards, effects, talents, the board's deployment
// zones) come from the ruleset's content, read once from GET /rulesets; until it arrives, or
// if it cannot be read, ids stand in for names. A hand is face-up only where the view has it
// (the seat's own, or an omniscient view); otherwise only its count is shown.

import { withContent } from "../api.js";
import { fact, headline, isObject, seatAndPlayer } from "../blocks.js";
import { chip, el, faceDown, humanize, playerName, titleCase } from "../widgets.js";

const ROCK = "#";
const ZONES = { a: 0, b: 1 };                // a board's deployment marks: p1's zone, p2's
const AP_PIPS = 10;
const TURN_MARKS = [["moved", "➜"], ["attacked", "⚔"], ["countered", "↺"]];

export const stylesheet = "skirmish.css";
export const hints = {
  labels: { select: "selection", place: "placement", mulligan: "starting hand", combat: "combat" },
};

// A view this module can draw: the skirmish ruleset's, with its tiles, units and seats.
export function fits(state) {
  return state !== null && typeof state === "object" && Array.isArray(state.tiles)
    && isObject(state.units) && isObject(state.seats);
}

export const render = withContent("skirmish", draw);

function draw(view, hints, content) {
  const state = view.state;
  const seats = Object.keys(state.seats);
  const ctx = { view, state, hints, seats, content, active: state.active,
    awaiting: new Set(state.awaiting ?? []), winner: view.outcome?.winner };
  return el("div", { class: "view skirmish-view", data: { ruleset: "skirmish", names: Object.keys(content).length ? "content" : "ids" } },
    topLine(ctx),
    el("div", { class: "sk-field" },
      board(ctx),
      el("div", { class: "sk-seats" }, seats.map((seat, i) => seatPanel(seat, i, ctx)))));
}

// --- Names from the content, ids where it has none ----------------------------------------

function named(ctx, table, id) {
  return ctx.content[table]?.[id]?.name ?? titleCase(id ?? "?");
}

function label(key, ctx) {
  return ctx.hints.labels?.[key] ?? humanize(key);
}

function seatIndex(seat, ctx) {
  return Math.max(0, ctx.seats.indexOf(seat));
}

// --- The top line: mode, board, phase, turn and round, whose turn, and the outcome --------

function topLine(ctx) {
  const s = ctx.state;
  const facts = [fact("mode", titleCase(s.mode ?? "?")), fact("board", s.board?.name ?? named(ctx, "boards", s.board?.id)),
    fact("phase", label(s.phase, ctx)), fact("turn", String(s.turn)), fact("round", String(s.round))];
  if (s.active) facts.push(fact("to act", seatAndPlayer(s.active, ctx.view.players)));
  if (ctx.awaiting.size && s.phase !== "combat") facts.push(fact("awaiting", [...ctx.awaiting].join(", ")));
  return headline(ctx.view.outcome, (winner) => seatAndPlayer(winner, ctx.view.players), facts);
}

// --- The board: row 0 (p1's edge) on top ---------------------------------------------------

function board(ctx) {
  const rows = ctx.state.tiles;
  const width = Math.max(0, ...rows.map((r) => r.length));
  const zones = ctx.content.boards?.[ctx.state.board?.id]?.rows ?? [];
  const ghosts = placementGhosts(ctx);
  const node = el("div", { class: "sk-board", "aria-label": `Board ${ctx.state.board?.name ?? ""}`.trim(),
    data: { width, height: rows.length } });
  node.style.gridTemplateColumns = `repeat(${width}, minmax(0, 1fr))`;
  rows.forEach((row, r) => {
    for (let c = 0; c < width; c += 1) {
      const where = `${c},${r}`;
      node.append(tile(row[c] ?? "", where, ctx, { zone: ZONES[zones[r]?.[c]], ghost: ghosts.get(where) }));
    }
  });
  return node;
}

function tile(value, where, ctx, { zone, ghost }) {
  if (value === ROCK) return el("div", { class: "sk-tile rock", data: { cell: where }, title: `${where} · rock` });
  if (value) return unitTile(value, ctx.state.units[value], where, ctx);
  const zoneClass = zone === undefined ? "" : ` zone-${zone}`;
  if (ghost) {
    return el("div", { class: `sk-tile ghost seat-${seatIndex(ghost.seat, ctx)}${zoneClass}`,
      data: { cell: where, placed: ghost.key }, title: `${where} · ${named(ctx, "characters", ghost.character)} goes here` },
      el("span", { class: "sk-name", text: named(ctx, "characters", ghost.character) }));
  }
  return el("div", { class: `sk-tile open${zoneClass}`, data: { cell: where }, title: where });
}

// A seat's own placements before they are revealed: where each character will stand.
function placementGhosts(ctx) {
  const ghosts = new Map();
  for (const [seat, part] of Object.entries(ctx.state.seats)) {
    for (const [character, cell] of Object.entries(part.placements ?? {})) {
      ghosts.set(`${cell[0]},${cell[1]}`, { seat, character, key: `${seat}.${character}` });
    }
  }
  return ghosts;
}

function unitTile(key, u, where, ctx) {
  if (!u) return el("div", { class: "sk-tile unit", data: { cell: where, unit: key }, text: key });
  const classes = ["sk-tile", "unit", `seat-${seatIndex(u.seat, ctx)}`, u.boss && "boss"].filter(Boolean).join(" ");
  return el("div", { class: classes, data: { cell: where, unit: key }, title: unitTitle(u, where, ctx) },
    el("div", { class: "sk-unit-head" },
      el("span", { class: "sk-name", text: named(ctx, "characters", u.character) }),
      u.boss ? el("span", { class: "sk-boss", title: "boss", text: "♛" }) : null,
      turnMarks(u)),
    el("div", { class: "sk-unit-sub" },
      el("span", { class: "sk-class", text: named(ctx, "classes", u.class) }),
      el("span", { class: "sk-power", title: "power" }, el("span", { class: "k", text: "pow" }), ` ${u.power}`)),
    armorBar(u),
    effectChips(u, ctx));
}

function unitTitle(u, where, ctx) {
  const talent = ctx.content.talents?.[u.talent];
  return [`${named(ctx, "characters", u.character)} (${u.seat}) at ${where}`,
    `${named(ctx, "classes", u.class)}, ${u.ranged ? "ranged" : "melee"}`,
    `power ${u.power} · damage ${u.damage} of armor ${u.armor}`,
    `talent ${talent ? `${talent.name}: ${talent.text}` : titleCase(u.talent)}`].join("\n");
}

function turnMarks(u) {
  const done = TURN_MARKS.filter(([flag]) => u[flag]);
  if (!done.length) return null;
  return el("span", { class: "sk-marks", title: `this turn: ${done.map(([f]) => f).join(", ")}` },
    done.map(([flag, glyph]) => el("span", { class: `sk-mark ${flag}`, data: { mark: flag }, text: glyph })));
}

// Damage against armor: "24/90", and a bar of the armor left (a character faints once its
// damage is above its armor).
function armorBar(u) {
  const left = u.armor > 0 ? Math.max(0, Math.min(1, (u.armor - u.damage) / u.armor)) : 0;
  const fill = el("span", { class: "bar-fill" });
  fill.style.width = `${(left * 100).toFixed(1)}%`;
  const level = left <= 0.25 ? "low" : left <= 0.5 ? "mid" : "high";
  return el("div", { class: `sk-armor level-${level}`, title: `damage ${u.damage} of armor ${u.armor}` },
    el("span", { class: "bar-track" }, fill),
    el("span", { class: "sk-dmg", text: `${u.damage}/${u.armor}` }));
}

function effectChips(u, ctx) {
  if (!u.effects?.length) return null;
  return el("div", { class: "sk-effects" }, u.effects.map((kind) => effectChip(kind, ctx)));
}

function effectChip(kind, ctx) {
  const rule = ctx.content.effects?.[kind];
  return el("span", { class: `sk-effect lasts-${rule?.lasts ?? "unknown"}`, data: { kind },
    title: rule ? `${rule.name}: ${rule.text}` : titleCase(kind), text: rule?.name ?? titleCase(kind) });
}

// --- A seat: its resources, piles and the characters off the board -----------------------

function seatPanel(seat, index, ctx) {
  const part = ctx.state.seats[seat];
  return el("section", { class: `sk-seat seat-${index}`, data: { seat } },
    seatHead(seat, part, ctx),
    el("div", { class: "sk-resources" }, apMeter(part), storm(part)),
    el("div", { class: "sk-piles" }, handPile(part, ctx), countPile("deck", "Deck", part.deck_count),
      discardPile(part, ctx)),
    offBoard(seat, ctx));
}

function seatHead(seat, part, ctx) {
  const marks = [ctx.active === seat && "to act", ctx.awaiting.has(seat) && ctx.state.phase !== "combat" && "awaited",
    part.locked && "locked", ctx.winner === seat && "winner"].filter(Boolean);
  return el("header", { class: "side-head" },
    el("span", { class: "seat-name", text: seat }),
    el("span", { class: "player-name", text: playerName(ctx.view.players?.[seat]) }),
    ctx.state.first_player === seat ? chip("first", { kind: "mark", title: "plays first" }) : null,
    marks.map((m) => chip(m, { kind: `mark mark-${m.replace(/ /g, "-")}` })));
}

function apMeter(part) {
  const pips = [];
  for (let i = 0; i < Math.min(AP_PIPS, Math.max(part.max_ap, part.ap)); i += 1) {
    pips.push(el("span", { class: `sk-pip${i < part.ap ? " full" : ""}` }));
  }
  return el("div", { class: "sk-ap", data: { stat: "ap" }, title: `action points ${part.ap} of ${part.max_ap}` },
    el("span", { class: "k", text: "AP" }),
    el("span", { class: "sk-pips" }, pips),
    el("span", { class: "v", text: `${part.ap}/${part.max_ap}` }));
}

function storm(part) {
  return el("div", { class: "sk-storm", data: { stat: "storm" }, title: "Storm counter: skills with Storm used" },
    el("span", { class: "k", text: "Storm" }), el("span", { class: "v", text: part.storm }));
}

function pileBox(key, title, count, ...body) {
  return el("div", { class: "pile sk-pile", data: { pile: key } },
    el("span", { class: "pile-label" }, title, el("span", { class: "count", text: count })),
    el("div", { class: "cards" }, body));
}

function handPile(part, ctx) {
  if (!Array.isArray(part.hand)) return pileBox("hand", "Hand", part.hand_count, faceDown(part.hand_count));
  const cards = part.hand.map((id) => faceCard(id, ctx));
  return pileBox("hand", "Hand", part.hand.length, cards.length ? cards : el("span", { class: "none", text: "empty" }));
}

function faceCard(id, ctx) {
  const known = ctx.content.cards?.[id];
  return el("span", { class: "card face sk-card", data: { card: id }, title: known?.text || null },
    known ? el("span", { class: "sk-cost", title: "AP cost", text: known.cost }) : null,
    el("span", { class: "sk-card-name", text: named(ctx, "cards", id) }));
}

function countPile(key, title, count) {
  return pileBox(key, title, count, faceDown(count));
}

// The discard pile is public: its count, and its top card face-up.
function discardPile(part, ctx) {
  const pile = part.discard ?? [];
  const top = pile.length ? faceCard(pile[pile.length - 1], ctx) : el("span", { class: "none", text: "empty" });
  return pileBox("discard", "Discard", pile.length, top);
}

// The seat's characters that are not on the board, by why.
function offBoard(seat, ctx) {
  const units = Object.entries(ctx.state.units).filter(([, u]) => u.seat === seat);
  const groups = [
    ["fainted", "Fainted", units.filter(([, u]) => u.fainted)],
    ["waiting", ctx.state.phase === "place" ? "To place" : "Off the board",
      units.filter(([, u]) => u.fielded && !u.fainted && !u.cell)],
    ["bench", "Not fielded", units.filter(([, u]) => !u.fielded && !u.fainted)],
  ].filter(([, , list]) => list.length);
  if (!groups.length) return null;
  return el("div", { class: "sk-off-board" }, groups.map(([kind, title, list]) =>
    el("div", { class: `sk-off-group ${kind}`, data: { group: kind } },
      el("div", { class: "field-label" }, title, el("span", { class: "count", text: list.length })),
      el("ul", { class: "sk-off-list" }, list.map(([key, u]) => offItem(key, u, kind, ctx))))));
}

function offItem(key, u, kind, ctx) {
  return el("li", { class: `sk-off ${kind}`, data: { unit: key }, title: unitTitle(u, "off the board", ctx) },
    el("span", { class: "sk-name", text: named(ctx, "characters", u.character) }),
    el("span", { class: "sk-class", text: named(ctx, "classes", u.class) }),
    kind === "fainted" ? el("span", { class: "sk-dmg", text: `${u.damage}/${u.armor}` }) : null,
    u.returning ? chip("returns next turn", { kind: "sk-returning" }) : null,
    u.boss ? el("span", { class: "sk-boss", title: "boss", text: "♛" }) : null);
}
