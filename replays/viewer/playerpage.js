// The player page (/viewer/players/{id}), from GET /players/{id}: the player's rating in each
// ruleset, every battle and set it played with the result of its side, and every tournament
// it entered, each linked to its page. A house bot is listed as "house:<policy>".

import { reasonText } from "./blocks.js";
import { battleHref, openPage, section, setHref, table, tournamentHref, when } from "./pages.js";
import { el, playerName } from "./widgets.js";

export function showPlayer(root, id) {
  return openPage(root, "player", id, `/players/${encodeURIComponent(id)}`, render);
}

function render(p) {
  const body = [
    el("header", { class: "info-head" }, el("h1", { text: p.player })),
    section("Ratings", ratings(p)),
    section("Battles", battles(p)),
    section("Sets", sets(p)),
    section("Tournaments", tournaments(p)),
  ];
  const title = [el("span", { class: "ruleset", text: "player" }), el("span", { text: p.player })];
  return { body, name: p.player, title, badge: null };
}

// The rating is the openskill ordinal, mu - 3 sigma, as the leaderboards rank by.
function ratings(p) {
  const rows = Object.entries(p.ratings).map(([ruleset, r]) => el("tr", { data: { ruleset } },
    el("td", { text: ruleset }),
    el("td", { class: "num rating", text: r.rating }),
    el("td", { class: "num", text: r.mu }),
    el("td", { class: "num", text: r.sigma }),
    el("td", { class: "num", text: r.games }),
    el("td", { class: "num", text: r.wins })));
  return table("player-ratings", ["Ruleset", "Rating", "Mu", "Sigma", "Games", "Wins"], rows, "Not rated yet.");
}

function versus(players) {
  return Object.entries(players ?? {}).map(([seat, entry]) => `${playerName(entry)} (${seat})`).join(" vs ");
}

function result(value) {
  return el("span", { class: `result-chip result-${value ?? "running"}`, text: value ?? "running" });
}

function battles(p) {
  const rows = p.battles.map((b) => el("tr", { data: { battle: b.battle_id } },
    el("td", {}, el("a", { href: battleHref(b.battle_id), text: versus(b.players) })),
    el("td", { text: b.ruleset }),
    el("td", { text: b.seat }),
    el("td", {}, result(b.result)),
    el("td", { text: b.reason ? reasonText(b.reason) : "" }),
    el("td", { class: "muted", text: when(b.created_at) })));
  return table("player-battles", ["Battle", "Ruleset", "Seat", "Result", "Why it ended", "Started"], rows,
    "No battle played.");
}

function sets(p) {
  const rows = p.sets.map((s) => el("tr", { data: { set: s.set_id } },
    el("td", {}, el("a", { href: setHref(s.set_id), text: versus(s.players) })),
    el("td", { text: s.ruleset }),
    el("td", { text: s.mode === "all" ? `all ${s.games}` : `best of ${s.games}` }),
    el("td", { text: s.seat }),
    el("td", {}, result(s.result)),
    el("td", { class: "muted", text: when(s.created_at) })));
  return table("player-sets", ["Set", "Ruleset", "Games", "Seat", "Result", "Started"], rows, "No set played.");
}

function tournaments(p) {
  const rows = (p.tournaments ?? []).map((t) => el("tr", { data: { tournament: t.tournament_id } },
    el("td", {}, el("a", { href: tournamentHref(t.tournament_id), text: t.name })),
    el("td", { text: t.ruleset }),
    el("td", { text: t.format }),
    el("td", { class: "muted", text: when(t.created_at) })));
  return table("player-tournaments", ["Tournament", "Ruleset", "Format", "Created"], rows, "No tournament entered.");
}
