// The battle list: live battles (refreshed while the page is open) and ended ones.
// showList returns the way to leave it: no more refreshes, and the one under way is cancelled.

import { getJSON } from "./api.js";
import { isAborted, reasonText } from "./blocks.js";
import { clear, el, playerName } from "./widgets.js";

const REFRESH_MS = 5000;

export function showList(root, onError) {
  const requests = new AbortController();
  const signal = requests.signal;
  const load = async () => {
    try {
      const [live, ended] = await Promise.all([
        getJSON("/battles", { query: { status: "live", limit: 50 }, signal }),
        getJSON("/battles", { query: { status: "ended", limit: 50 }, signal }),
      ]);
      fill(root.querySelector("#live-battles"), live.battles, "No battle is running right now.");
      fill(root.querySelector("#ended-battles"), ended.battles, "No battle has ended yet.");
    } catch (error) {
      onError(error);
    }
  };
  load();
  const timer = setInterval(load, REFRESH_MS);
  return () => {
    clearInterval(timer);
    requests.abort();
  };
}

function fill(table, battles, empty) {
  const body = table.querySelector("tbody");
  if (!battles.length) {
    clear(body, el("tr", {}, el("td", { colspan: 5, class: "none", text: empty })));
    return;
  }
  clear(body, battles.map((b) => el("tr", { data: { battle: b.battle_id } },
    el("td", {}, el("a", { href: `/viewer/battles/${encodeURIComponent(b.battle_id)}`, text: players(b.players) })),
    el("td", { text: b.ruleset }),
    el("td", { class: "num", text: b.seq }),
    el("td", { text: result(b) }),
    el("td", { class: "muted", text: (b.created_at ?? "").replace("T", " ").slice(0, 19) }))));
}

function players(map) {
  return Object.entries(map).map(([seat, player]) => `${playerName(player)} (${seat})`).join(" vs ");
}

function result(battle) {
  const outcome = battle.outcome;
  if (!outcome) return "running";
  if (outcome.winner === null) return `${isAborted(outcome) ? "aborted" : "draw"} · ${reasonText(outcome.reason)}`;
  return `${playerName(battle.players[outcome.winner]) || outcome.winner} won · ${reasonText(outcome.reason)}`;
}
