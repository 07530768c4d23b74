"""Records replays under a ruleset's installed version, as rule-evolution fixtures:
`python -m tests.replays.record RULESET` writes `tests/replays/fixtures/<id>_<version>/`: one
battle per bot policy (random, greedy, memory) on the default setup, one per further setup
below, and for a ruleset with set rules the three battles of a set, each carried over. Run it
once per released version, before the rules change; it never overwrites a version's fixtures,
which must stay as they were recorded."""
from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from domain.ai import get_policy, policy_names
from domain.ai.match import play, seeded_bytes
from domain.engine.battle import seat_table
from domain.engine.ruleset import Ruleset, get_ruleset
from domain.sets import battle_setup, carry_after
from replays.format import build, dumps

FIXTURES = Path(__file__).parent / "fixtures"
CREATED = "2026-11-23T12:00:00Z"
POLICIES = ("random", "greedy", "memory")
# Setups beyond the default that reach rules the default does not (name -> setup, greedy bots)
SCENARIOS: dict[str, dict[str, dict[str, Any]]] = {
    "rat": {"kings_court": {"formation": "rat_kings_court"}, "frozen_cistern": {"formation": "frozen_cistern"},
            "plague_ward": {"formation": "plague_ward", "enemy_ai": "memory"},
            "no_memory_ai": {"formation": "boiler_room", "enemy_ai": "no_memory"},
            "random_ai": {"formation": "back_alley", "enemy_ai": "random"}},
    "skirmish": {"raid": {"mode": "raid", "p1": {"team": ["sigil", "quill", "fang", "brick", "wisp"]},
                          "p2": {"boss": "tempest_wyrm"}}},
    "battleboard": {"drake_lair": {"heroes": ["aria", "bram", "cass"], "encounter": "drake_lair"}},
}


def players_for(ruleset: Ruleset[Any], setup: Mapping[str, Any]) -> dict[str, str]:
    seats = seat_table(ruleset, setup).seats
    return {seat: f"player{n}" for n, seat in enumerate(seats, 1)}


def record(ruleset: Ruleset[Any], out: Path, name: str, n: int, policy: str,
           setup: Mapping[str, Any] | None = None) -> Any:
    setup = dict(setup if setup is not None else ruleset.fresh_setup())
    players = players_for(ruleset, setup)
    bots = {seat: get_policy(policy, ruleset.id) for seat in players}
    m = play(ruleset, bots, battle_id=f"00000000-0000-4000-8000-{n:012d}", setup=setup, players=players,
             revealed=seeded_bytes(f"{ruleset.id}-fixture", name), bot_seed=seeded_bytes(f"{ruleset.id}-bots", name),
             created_at=CREATED)
    (out / f"{name}.jsonl").write_bytes(dumps(build(m.state, m.records)))
    return m


def main(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    out = FIXTURES / f"{ruleset.id}_{ruleset.version}"
    if out.exists():
        raise SystemExit(f"error: {out} exists; a version's fixtures are recorded once")
    out.mkdir(parents=True)
    n = 1000
    for policy in (p for p in POLICIES if p in policy_names(ruleset.id)):
        record(ruleset, out, policy, n := n + 1, policy)
    for name, setup in SCENARIOS.get(ruleset.id, {}).items():
        record(ruleset, out, name, n := n + 1, "greedy", setup)
    if ruleset.set_rules is not None:
        carry = None
        for i in range(1, 4):
            setup = battle_setup(ruleset, ruleset.fresh_setup(), carry)
            m = record(ruleset, out, f"set_battle_{i}", n := n + 1, "greedy", setup)
            carry = carry_after(ruleset, carry, setup, m.state)
    print(f"wrote {out}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m tests.replays.record RULESET")
    main(sys.argv[1])
