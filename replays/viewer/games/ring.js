// The `ring` ruleset (seed 000) in the viewer: the generic panel, laid out by these hints. Each
// seat's units are split into the one in the Ring, the bench and the reserve; a `pick` that is
// null while `picked` is set is a pick made but hidden from this viewer, shown face down.

export const stylesheet = "ring.css";
export const hints = {
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
};
