// The games the viewer knows, each in one file: games/<ruleset id>.js, found by the ruleset id
// the API reports, so the shared code names no game.
//
// To give a new ruleset its own place in the viewer, add games/<id>.js (and nothing else). All
// of its exports are optional; without the file the generic panel draws the view unaided.
//   export const hints = { ... };     layout hints for the generic panel (render.js lists them),
//                                     passed to `render` too
//   export function fits(state)       whether `render` can draw this state (else: generic panel)
//   export function render(view, hints)  the game's own panel: a DOM node, built with el()
//   export const stylesheet = "<id>.css";  its style, in games/, loaded before it first draws
// A panel uses the shared blocks (blocks.js: headline, facts, piles...) and widgets.js, and may
// read the ruleset's content with api.js's withContent.

import { el } from "./widgets.js";

const RULESET_ID = /^[a-z0-9_-]+$/;          // only such names can be a file in games/
const loading = new Map();                   // ruleset id -> the promise of its module (null: none)
const loaded = new Map();                    // ruleset id -> its module, once imported

// The game's module, imported once; null where there is none (or it failed to load, in which
// case the next call tries again).
export function loadGame(id) {
  if (typeof id !== "string" || !RULESET_ID.test(id)) return Promise.resolve(null);
  if (!loading.has(id)) {
    loading.set(id, importGame(id).catch(() => {
      loading.delete(id);
      return null;
    }));
  }
  return loading.get(id);
}

async function importGame(id) {
  const game = await import(`./games/${id}.js`);
  if (typeof game.stylesheet === "string") {
    await linkStylesheet(new URL(`./games/${game.stylesheet}`, import.meta.url));
  }
  loaded.set(id, game);
  return game;
}

// Resolves once the sheet has loaded (or failed to): a panel is never drawn unstyled first.
function linkStylesheet(href) {
  return new Promise((resolve) => {
    document.head.append(el("link", { rel: "stylesheet", href: href.href, onload: resolve, onerror: resolve }));
  });
}

export function hintsFor(id) {
  return loaded.get(id)?.hints ?? {};
}

// The game's own panel for this view, if it has one and the view has the shape it draws.
export function panelFor(view) {
  const game = loaded.get(view.ruleset);
  return typeof game?.render === "function" && game.fits?.(view.state) ? game.render : null;
}
