"""`ring`: the monster battler of seed 000. Being built in steps; it is not registered as a
ruleset until it passes the conformance contract. Done so far: the number rules (formulas.py)."""
