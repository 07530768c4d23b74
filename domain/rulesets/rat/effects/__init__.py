"""Rat's hooks and steps. `queries` holds the hook registry and what the hooks modify;
`ailments` and `equipment` register the passives; `steps` the actions' behaviour.
`rules()` imports them all, so every registration is in place before a battle runs."""
