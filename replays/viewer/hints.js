// Light per-ruleset layout hints for the generic renderer (render.js). A ruleset without
// hints still renders fully; hints only order, group and label what is already there.
//
// - groups: for an object of entities, the sibling keys that pick them out, in order. Each
//   entity is shown once, in the first group that names it; `size` is "big" or "compact".
// - order: keys rendered first, in this order (the rest follow).
// - labels: display names of keys.
// - outOf: a counter shown as "value / other key's value" (the other key is then not shown).
// - secretIf: a key whose null means "hidden" while the named sibling flag is true.
// - sideSeats (rat): the seat that plays each side, to name a winning side's player.
//
// rat has its own panel (rat.js: the priority queue, HP bars, ailment chips); its hints
// name the sides and the ailments as the battle screen shows them. skirmish has its own too
// (skirmish.js: the board of tiles, AP and piles); its hints name the phases. So has
// battleboard (battleboard.js: the 5x6 board of terrain and sections, tokens and dice); its
// hints name the phases and the two sides.

export const HINTS = {
  ring: {
    groups: {
      units: [
        { label: "In the Ring", ref: "ring", size: "big" },
        { label: "Bench", ref: "team" },
        { label: "Reserve", ref: "deck", size: "compact" },
      ],
    },
    order: ["leader", "items", "picked", "pick", "units"],
    secretIf: { pick: "picked" },
    labels: { turn_number: "turn", swap_required: "swap required", time_limit: "time limit" },
    outOf: { turn_number: "max_turns" },
  },
  rat: {
    labels: { party: "Party", enemies: "Enemies", accelerated_status: "accelerated",
      decelerated_status: "decelerated" },
    sideSeats: { party: "p1", enemies: "p2" },
  },
  skirmish: {
    labels: { select: "selection", place: "placement", mulligan: "starting hand", combat: "combat" },
  },
  battleboard: {
    labels: { order: "initiative", arrange: "arrangement", turn: "combat", over: "over",
      heroes: "Heroes", foes: "Foes" },
  },
  deckduel: {
    order: ["character", "hand", "hand_count", "deck_count", "energy_count", "drills", "discard"],
    labels: { hand_size: "hand size" },
  },
};

export function hintsFor(ruleset) {
  return HINTS[ruleset] ?? {};
}
