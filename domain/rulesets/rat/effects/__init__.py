"""Rat's hooks and steps. `queries` holds the hook registry and what the hooks modify;
`ailments` and `equipment` register the passives; `steps` the actions' behaviour.
`decide` imports `ailments` and `equipment`, so every hook is registered before a battle runs."""
