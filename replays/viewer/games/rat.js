// The state panel of the `rat` ruleset (seed 003, In-Battle UI and Status Ailments): the
// priority queue as a strip on one side, the enemies above the party, each entity with its
// HP as far as this viewer may know it, its ailments as chips with the turns they have left,
// and its stat levels where they are not 0.
//
// HP: a party member's bar is exact (hp / max_hp). An enemy's numbers reach only its own
// side or an omniscient viewer (then its bar is exact too); otherwise an enemy ANALYZE has
// read shows a level bar from `hp_pct` (a percent, never HP numbers), and any other enemy
// shows no bar at all: an empty or a full one would claim something nobody has seen.

import { fact, headline } from "../blocks.js";
import { bar, chip, el, humanize, playerName, titleCase } from "../widgets.js";

const SIDES = ["enemies", "party"];          // drawn top to bottom, as on the battle screen
const INF_LEVEL = 4;                         // a stat level of +4 is +infinity, -4 is -infinity
const STATS = ["atk", "def", "spd"];

export const stylesheet = "rat.css";
// The sides and the ailments named as the battle screen names them; the seat that plays each
// side, to name a winning side's player.
export const hints = {
  labels: { party: "Party", enemies: "Enemies", accelerated_status: "accelerated",
    decelerated_status: "decelerated" },
  sideSeats: { party: "p1", enemies: "p2" },
};

// A view this module can draw: the rat ruleset's, with its party and enemies listed.
export function fits(state) {
  return state !== null && typeof state === "object" && Array.isArray(state.party) && Array.isArray(state.enemies);
}

export function render(view, hints = {}) {
  const state = view.state;
  const entities = new Map();
  for (const side of SIDES) for (const e of state[side]) entities.set(e.id, { e, side });
  const ctx = { hints, entities, acted: new Set(state.acted ?? []), plans: state.plans ?? {},
    choosing: state.to_choose ?? null };
  return el("div", { class: "view rat-view", data: { ruleset: "rat" } },
    topLine(view, ctx),
    el("div", { class: "rat-field" },
      queueStrip(state, ctx),
      el("div", { class: "rat-sides" }, SIDES.map((side) => sideSection(side, state[side], ctx)))));
}

function label(key, ctx) {
  return ctx.hints.labels?.[key] ?? humanize(key);
}

// --- The top line: turn, formation, whose choice it is, and how the battle ended ---------

function topLine(view, ctx) {
  const state = view.state;
  const facts = [fact("turn", String(state.turn)), fact("formation", titleCase(state.formation ?? "?"))];
  if (state.side) facts.push(fact("viewing as", label(state.side, ctx)));
  if (ctx.choosing) facts.push(fact("to choose", nameOf(ctx.choosing, ctx)));
  return headline(view.outcome ?? state.result, (winner) => winnerName(winner, view, ctx), facts);
}

// A winning side, with the player of its seat (hints.sideSeats); the enemies are the rules' AI.
function winnerName(winner, view, ctx) {
  const seat = view.players?.[winner] !== undefined ? winner : ctx.hints.sideSeats?.[winner];
  const who = seat && view.players?.[seat] !== undefined ? ` · ${playerName(view.players[seat])}`
    : winner === "enemies" ? " · the rules' AI" : "";
  return `${label(winner, ctx)}${who}`;
}

function nameOf(id, ctx) {
  return ctx.entities.get(id)?.e.name ?? titleCase(id);
}

// --- The priority queue: this turn's order; who has acted is dimmed, the dead are gone ---

function queueStrip(state, ctx) {
  const ids = (state.queue ?? []).filter((id) => !ctx.entities.get(id)?.e.dead);
  return el("aside", { class: "rat-queue-box", "aria-label": "Priority queue" },
    el("div", { class: "field-label" }, "Priority queue", el("span", { class: "count", text: ids.length })),
    el("ol", { class: "rat-queue" }, ids.map((id, i) => queueItem(id, i, ctx))));
}

function queueItem(id, index, ctx) {
  const found = ctx.entities.get(id);
  const e = found?.e;
  const acted = ctx.acted.has(id);
  const classes = ["q-item", `side-${found?.side ?? "unknown"}`, acted && "acted", e?.ko && "ko",
    ctx.choosing === id && "choosing"].filter(Boolean).join(" ");
  const notes = [acted && "has acted", e?.ko && "knocked out", ctx.choosing === id && "choosing now"].filter(Boolean);
  return el("li", { class: classes, data: { id }, title: [nameOf(id, ctx), ...notes].join(" · ") },
    el("span", { class: "q-pos", text: index + 1 }),
    el("span", { class: "q-name", text: nameOf(id, ctx) }),
    e && e.priority ? el("span", { class: "q-prio", title: "priority", text: signed(e.priority) }) : null,
    e?.ko ? el("span", { class: "q-ko", text: "KO" }) : null,
    acted ? el("span", { class: "q-done", "aria-label": "acted", text: "✓" }) : null);
}

// --- The two sides and their entities ----------------------------------------------------

function sideSection(side, list, ctx) {
  const standing = list.filter((e) => !e.dead).length;
  return el("section", { class: `rat-side side-${side}`, data: { side } },
    el("header", { class: "field-label" }, label(side, ctx),
      el("span", { class: "count", title: "standing / all", text: `${standing}/${list.length}` })),
    el("div", { class: "rat-entities" }, list.map((e) => entityCard(e, side, ctx))));
}

function entityCard(e, side, ctx) {
  const classes = ["rat-entity", `side-${side}`, e.ko && "is-ko", e.dead && "is-dead", ctx.acted.has(e.id) && "acted",
    ctx.choosing === e.id && "choosing"].filter(Boolean).join(" ");
  return el("article", { class: classes, data: { id: e.id } },
    el("header", { class: "rat-head", title: e.kind ? titleCase(e.kind) : null },
      el("span", { class: "entity-name", text: e.name ?? titleCase(e.id) }),
      e.dead ? chip("DEAD", { kind: "rat-dead" }) : null,
      !e.dead && ctx.acted.has(e.id) ? chip("acted", { kind: "rat-acted" }) : null),
    hpLine(e),
    ailmentChips(e, ctx),
    statLine(e),
    extras(e, side, ctx),
    movesLine(e),
    details(e, ctx));
}

function hpLine(e) {
  if (typeof e.hp === "number" && typeof e.max_hp === "number") {
    const exact = bar("hp", e.hp, e.max_hp);
    exact.classList.add("rat-hp", "exact");
    return exact;
  }
  if (typeof e.hp_pct === "number") return gauge(e.hp_pct);
  if (e.dead) return null;              // out of the battle: nothing left to find out
  return el("div", { class: "rat-hp-hidden", title: "An enemy's HP stays hidden until ANALYZE reads it" },
    el("span", { class: "bar-label", text: "HP" }), el("span", { text: "unknown · not analyzed" }));
}

// ANALYZE's level bar: how much is left, as a percent of max HP, and nothing more.
function gauge(pct) {
  const share = Math.max(0, Math.min(100, pct));
  const fill = el("span", { class: "bar-fill" });
  fill.style.width = `${share}%`;
  const level = share <= 25 ? "low" : share <= 50 ? "mid" : "high";
  return el("div", { class: `bar bar-hp rat-hp gauge level-${level}`, title: `HP ${pct}% (ANALYZE)`,
    data: { pct: String(pct) } },
    el("span", { class: "bar-label", text: "HP" }),
    el("span", { class: "bar-track" }, fill),
    el("span", { class: "bar-value", text: `${pct}%` }));
}

// KNOCKED_OUT first and loudest; each other ailment with the turns it has left (none: until cured).
function ailmentChips(e, ctx) {
  const list = e.ailments ?? [];
  if (!list.length) return null;
  return el("div", { class: "ailments" }, list.map((a) => ailmentChip(a, ctx)));
}

function ailmentName(kind, ctx) {
  return String(ctx.hints.labels?.[kind] ?? kind).replace(/_/g, " ").toUpperCase();
}

function ailmentChip(a, ctx) {
  const name = ailmentName(a.kind, ctx);
  const left = typeof a.left === "number" ? a.left : null;
  const ko = a.kind === "knocked_out";
  const title = left === null ? `${name}: until cured` : `${name}: ${left} turn${left === 1 ? "" : "s"} left`;
  return el("span", { class: `ailment${ko ? " ailment-ko" : ""}`, data: { kind: a.kind }, title },
    el("span", { class: "ailment-name", text: name }),
    left !== null ? el("span", { class: "left", "aria-label": `${left} turns left`, text: left }) : null);
}

// Stat levels (only those not 0), priority, and the stats themselves where this viewer has them.
function statLine(e) {
  const parts = [];
  for (const stat of STATS) {
    const level = e.levels?.[stat];
    if (level === undefined || level === 0) continue;
    const up = level > 0;
    parts.push(el("span", { class: `lvl ${up ? "up" : "down"}`, data: { stat }, title: `${stat.toUpperCase()} level` },
      `${stat.toUpperCase()} `, el("span", { class: "lvl-value", text: levelText(level) })));
  }
  if (e.priority) parts.push(el("span", { class: "lvl prio", title: "priority" }, "PRI ", signed(e.priority)));
  const known = STATS.filter((s) => e[s] !== undefined).map((s) => fact(s.toUpperCase(), String(e[s])));
  if (!parts.length && !known.length) return null;
  return el("div", { class: "rat-stats" }, parts, known.length ? el("span", { class: "facts" }, known) : null);
}

function levelText(level) {
  if (level >= INF_LEVEL) return "+inf";
  if (level <= -INF_LEVEL) return "-inf";
  return signed(level);
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

// What is pending on the entity: PROTECT, a WISH, its planned action (own side), ANALYZE.
function extras(e, side, ctx) {
  const marks = [];
  if (e.protected) marks.push(chip("protected", { kind: "rat-mark protected" }));
  if (e.wish) marks.push(chip(`wish ${e.wish}`, { kind: "rat-mark wish", title: "healed by this much soon" }));
  if (side === "enemies" && e.analyzed) marks.push(chip("analyzed", { kind: "rat-mark analyzed" }));
  const plan = ctx.plans[e.id];
  if (plan) {
    const target = plan.target ? ` → ${nameOf(plan.target, ctx)}` : "";
    marks.push(chip(`plans ${titleCase(plan.action)}${target}`, { kind: "rat-mark plan" }));
  }
  return marks.length ? el("div", { class: "rat-marks" }, marks) : null;
}

// Moves with their PP, as far as this viewer knows them (an enemy's: those it has used).
function movesLine(e) {
  const moves = Object.entries(e.moves ?? {});
  if (!moves.length) return null;
  return el("div", { class: "rat-moves", title: "moves and their PP left" }, moves.map(([m, pp]) =>
    el("span", { class: `rat-move${pp === 0 ? " spent" : ""}` }, `${titleCase(m)} `,
      el("b", { text: e.max_pp?.[m] !== undefined ? `${pp}/${e.max_pp[m]}` : pp }))));
}

// Intrinsic moves, consumables, equipment and the enemy's AI level, folded away.
function details(e, ctx) {
  const rows = [];
  if (e.intrinsic?.length) rows.push(fact("intrinsic", e.intrinsic.map(titleCase).join(", ")));
  const items = Object.entries(e.items ?? {});
  if (items.length) rows.push(fact("items", items.map(([k, v]) => `${titleCase(k)} ×${v.count}`).join(", ")));
  if (e.equipment?.length) rows.push(fact("equipment", e.equipment.map(titleCase).join(", ")));
  if (e.ai) rows.push(fact("AI", humanize(e.ai)));
  if (!rows.length) return null;
  return el("details", { class: "entity-more" }, el("summary", { text: label("details", ctx) }), rows);
}
