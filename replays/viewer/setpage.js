// The set page (/viewer/sets/{id}), from GET /sets/{id}: who plays it, the score by side,
// the winner, and each of its battles linked to the battle page.

import { fact, seatAndPlayer } from "./blocks.js";
import { specText } from "./clocks.js";
import { battleHref, openPage, playerLink, progressBadge, section, table, when } from "./pages.js";
import { el, playerName } from "./widgets.js";

export function showSet(root, id) {
  return openPage(root, "set", id, `/sets/${encodeURIComponent(id)}`, render);
}

function render(s) {
  const players = Object.entries(s.players).map(([seat, entry]) => `${playerName(entry)} (${seat})`).join(" vs ");
  const body = [
    summary(s),
    section("Battles", battles(s)),
  ];
  return { body, name: `Set: ${players}`, title: [el("span", { class: "ruleset", text: s.ruleset }),
    el("span", { text: `Set · ${players}` })], badge: progressBadge(s.finished) };
}

// "best of 3", or "all 3 games" (every game is played, the most wins take it).
function gamesText(s) {
  return s.mode === "all" ? `all ${s.games} games` : `best of ${s.games}`;
}

// A side by its name, with its player where the side is one seat (as in every two-seat game).
function sideName(side, s) {
  return s.players[side] !== undefined ? seatAndPlayer(side, s.players) : side;
}

function summary(s) {
  const score = Object.entries(s.score ?? {});
  return el("header", { class: "info-head" },
    el("h1", { text: "Set" }),
    el("div", { id: "set-players", class: "set-players" }, Object.entries(s.players).map(([seat, entry]) =>
      el("span", { class: "set-player", data: { seat } },
        el("span", { class: "seat-name", text: seat }), playerLink(entry)))),
    el("div", { class: "facts" },
      fact("ruleset", s.ruleset), fact("games", gamesText(s)), fact("clock", s.clock ? specText(s.clock) : "none"),
      fact("started", when(s.created_at))),
    el("div", { id: "set-score", class: "set-score" },
      score.map(([side, wins], i) => [i ? el("span", { class: "vs", text: "–" }) : null,
        el("span", { class: "score-side", data: { side } }, el("span", { class: "k", text: sideName(side, s) }),
          el("span", { class: "score-wins", text: wins }))])),
    outcome(s));
}

function outcome(s) {
  if (!s.finished) {
    const current = s.battles.find((b) => b.battle_id === s.current_battle);
    const playing = current ? `, game ${current.index + 1} under way` : "";
    return el("div", { class: "set-state muted", text: `In progress${playing}.` });
  }
  const text = s.winner === null ? "Draw: no side won more games" : `Winner: ${sideName(s.winner, s)}`;
  return el("div", { id: "set-winner", class: "outcome", text });
}

function battles(s) {
  const rows = s.battles.map((b) => el("tr", { data: { battle: b.battle_id } },
    el("td", {}, el("a", { href: battleHref(b.battle_id), text: `Game ${b.index + 1}` })),
    el("td", { text: battleResult(b, s) }),
    el("td", { class: "muted hash", title: b.head ?? null, text: b.head ? b.head.slice(0, 16) : "—" })));
  return table("set-battles", ["Battle", "Result", "Head hash"], rows, "No battle has started yet.");
}

function battleResult(b, s) {
  if (b.battle_id === s.current_battle) return "playing";
  return b.winner === null ? "draw" : `${sideName(b.winner, s)} won`;
}
