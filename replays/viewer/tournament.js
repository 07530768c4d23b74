// The tournament page (/viewer/tournaments/{id}), from GET /tournaments/{id}: its standings,
// then its rounds, as one block a round (Swiss) or a bracket of one column a round
// (elimination). Every pairing links its set; every entrant but a house one its player page.

import { fact } from "./blocks.js";
import { specText } from "./clocks.js";
import { entrantLink, halfPoints, openPage, progressBadge, scaled, section, setHref, table } from "./pages.js";
import { el } from "./widgets.js";

export function showTournament(root, id) {
  return openPage(root, "tournament", id, `/tournaments/${encodeURIComponent(id)}`, render);
}

function render(t) {
  const elimination = t.format === "elimination";
  const body = [
    summary(t),
    section("Standings", standings(t)),
    section(elimination ? "Bracket" : "Rounds", elimination ? bracket(t) : swissRounds(t)),
  ];
  return { body, name: t.name, title: [el("span", { class: "ruleset", text: t.ruleset }), el("span", { text: t.name })],
    badge: progressBadge(t.finished) };
}

function summary(t) {
  const planned = typeof t.rounds_planned === "number" ? ` of ${t.rounds_planned}` : "";   // a bracket: as it needs
  return el("header", { class: "info-head" },
    el("h1", { text: t.name }),
    el("div", { class: "facts" },
      fact("ruleset", t.ruleset), fact("format", t.format), fact("entrants", t.entrants.length),
      fact("rounds", `${t.rounds.length}${planned}`), fact("games a pairing", t.games),
      fact("clock", t.clock ? specText(t.clock) : "none")),
    t.champion ? el("div", { class: "champion-banner" }, "Champion: ", entrantLink(t.champion)) : null);
}

// Points are kept in half-points, Buchholz in half-points, Sonneborn-Berger in quarters.
function standings(t) {
  const rows = t.standings.map((s) => el("tr",
    { class: s.id === t.champion ? "champion" : null, data: { entrant: s.id } },
    el("td", { class: "num", text: s.rank }),
    el("td", {}, entrantLink(s.id)),
    el("td", { class: "num points", text: scaled(s.points, 2) }),
    el("td", { class: "num", text: scaled(s.buchholz, 2) }),
    el("td", { class: "num", text: scaled(s.sonneborn_berger, 4) }),
    el("td", { class: "num", text: s.wins })));
  return table("standings", ["Rank", "Entrant", "Points", "Buchholz", "SB", "Wins"], rows, "No round has ended yet.");
}

// A pairing's result (null while its set is played), found by who played it.
function resultOf(round, pairing) {
  return (round.results ?? []).find((r) => r.a === pairing.a && r.b === pairing.b) ?? null;
}

// Who went through: in elimination a result is never even; in Swiss an even one is a draw.
function winnerOf(result) {
  if (!result || result.points_a === result.points_b) return null;
  return result.points_a > result.points_b ? result.a : result.b;
}

function setLinks(pairing, result) {
  if (!pairing.set_id) return [];
  const tiebreaks = (result?.tiebreaks ?? []).map((id, i) => el("a", { class: "set-link tiebreak", href: setHref(id),
    text: `tiebreak ${i + 1}` }));
  return [el("a", { class: "set-link", href: setHref(pairing.set_id), text: "set ▸" }), ...tiebreaks];
}

function swissRounds(t) {
  if (!t.rounds.length) return el("p", { class: "none", text: "No round has been paired yet." });
  return el("div", { id: "rounds", class: "rounds" }, t.rounds.map((round) => el("section",
    { class: "round", data: { round: round.round } },
    el("h3", { text: `Round ${round.round}${round.results ? "" : " · playing"}` }),
    el("ol", { class: "pairings" }, round.pairings.map((p) => swissPairing(round, p))))));
}

function swissPairing(round, pairing) {
  const result = resultOf(round, pairing);
  if (pairing.b === null) {
    return el("li", { class: "pairing bye" }, entrantLink(pairing.a), el("span", { class: "vs", text: "–" }),
      el("span", { class: "bye-mark", text: "bye" }),
      el("span", { class: "result", text: result ? `+${scaled(result.points_a, 2)}` : "" }));
  }
  const score = result ? `${halfPoints(result.points_a)} – ${halfPoints(result.points_b)}` : "playing";
  const won = winnerOf(result);
  return el("li", { class: "pairing", data: { set: pairing.set_id ?? "" } },
    el("span", { class: won === pairing.a ? "entry won" : "entry" }, entrantLink(pairing.a)),
    el("span", { class: "vs", text: "–" }),
    el("span", { class: won === pairing.b ? "entry won" : "entry" }, entrantLink(pairing.b)),
    el("span", { class: "result", text: score }),
    setLinks(pairing, result));
}

function bracket(t) {
  if (!t.rounds.length) return el("p", { class: "none", text: "No round has been paired yet." });
  const last = t.rounds.length - 1;
  const ordered = bracketOrder(t.rounds);
  return el("div", { id: "bracket", class: "bracket" }, t.rounds.map((round, i) => el("section",
    { class: "bracket-round", data: { round: round.round } },
    el("h3", { text: `Round ${round.round}${i === last && round.pairings.length === 1 ? " · final" : ""}` }),
    el("div", { class: "matches" }, ordered[i].map((p) => match(t, round, p))))));
}

// Who goes on from a pairing: its winner, or the entrant given a bye; null while it is played.
function throughOf(round, pairing) {
  return pairing.b === null ? pairing.a : winnerOf(resultOf(round, pairing));
}

// Each round's pairings in the order of the pairings they feed, from the last round back, so
// a column's matches sit beside the match their winners meet in (the API lists them in
// pairing order: a bye after the sets, say).
function bracketOrder(rounds) {
  const ordered = rounds.map((round) => round.pairings);
  for (let i = rounds.length - 2; i >= 0; i -= 1) {
    const next = ordered[i + 1].flatMap((p) => [p.a, p.b]);
    const place = (p) => {
      const through = throughOf(rounds[i], p);
      const at = through === null ? -1 : next.indexOf(through);
      return at < 0 ? next.length : at;
    };
    ordered[i] = [...ordered[i]].sort((x, y) => place(x) - place(y));
  }
  return ordered;
}

function match(t, round, pairing) {
  const result = resultOf(round, pairing);
  const through = throughOf(round, pairing);
  // The champion won every pairing it played, so each of its slots is a winner's.
  const slot = (id, half) => el("div", {
    class: `slot${id === through ? " winner" : ""}${id === t.champion ? " champion" : ""}`, data: { entrant: id } },
    entrantLink(id),
    el("span", { class: "slot-score", text: [half, id === through ? "✓" : null].filter(Boolean).join(" ") }));
  const points = (half) => (result && pairing.b !== null ? halfPoints(half) : null);
  return el("div", { class: "match", data: { set: pairing.set_id ?? "" } },
    slot(pairing.a, points(result?.points_a)),
    pairing.b === null ? el("div", { class: "slot bye", text: "bye" }) : slot(pairing.b, points(result?.points_b)),
    pairing.set_id ? el("div", { class: "match-links" }, setLinks(pairing, result)) : null);
}
