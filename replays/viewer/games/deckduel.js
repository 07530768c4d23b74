// The `deckduel` ruleset (seed 004) in the viewer: the generic panel, laid out by these hints
// (each seat's character first, then its hand and piles).

export const hints = {
  order: ["character", "hand", "hand_count", "deck_count", "energy_count", "drills", "discard"],
  labels: { hand_size: "hand size" },
};
