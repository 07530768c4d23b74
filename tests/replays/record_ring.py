"""Records ring replays under the installed ring version, as rule-evolution fixtures:
`python -m tests.replays.record_ring` writes `tests/replays/fixtures/ring_<version>/` (three
battles with random, greedy and memory bots, and a set of three battles carried over). Run it
once per released version, before the rules change; it never overwrites a version's fixtures,
which must stay as they were recorded."""
from __future__ import annotations

from pathlib import Path

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.rulesets.ring import RULESET
from domain.sets import battle_setup, carry_after
from replays.format import build, dumps

PLAYERS = {"p1": "ann", "p2": "bob"}
CREATED = "2026-11-23T12:00:00Z"


def main() -> None:
    out = Path(__file__).parent / "fixtures" / f"ring_{RULESET.version}"
    if out.exists():
        raise SystemExit(f"error: {out} exists; a version's fixtures are recorded once")
    out.mkdir(parents=True)
    for n, policy in enumerate(("random", "greedy", "memory")):
        bots = {seat: get_policy(policy, "ring") for seat in PLAYERS}
        m = play(RULESET, bots, battle_id=f"00000000-0000-4000-8000-0000000010{n:02d}",
                 revealed=seeded_bytes("ring-fixture", policy), bot_seed=seeded_bytes("ring-fixture-bots", policy),
                 players=PLAYERS, created_at=CREATED)
        (out / f"{policy}.jsonl").write_bytes(dumps(build(m.state, m.records)))
    bots = {"p1": get_policy("greedy", "ring"), "p2": get_policy("memory", "ring")}
    carry = None
    for i in range(3):
        setup = battle_setup(RULESET, RULESET.fresh_setup(), carry)
        m = play(RULESET, bots, battle_id=f"00000000-0000-4000-8000-0000000011{i:02d}",
                 revealed=seeded_bytes("ring-fixture-set", i), bot_seed=seeded_bytes("ring-fixture-set-bots", i),
                 setup=setup, players=PLAYERS, created_at=CREATED)
        carry = carry_after(RULESET, carry, setup, m.state)
        (out / f"set_battle_{i + 1}.jsonl").write_bytes(dumps(build(m.state, m.records)))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
