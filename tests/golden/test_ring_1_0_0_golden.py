"""The golden logs ring 1.0.0 pinned (`ring_1.0.0/`), kept when ring 1.1.0 changed the rules:
each still re-simulates, event by event and chain by chain, under its own pinned version and
content hash. `test_golden.py` checks that today's battles reproduce today's logs."""
from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from domain.engine.battle import fold
from domain.engine.events import decode_record
from domain.engine.ruleset import ruleset_of
from domain.rulesets.ring import RULESET
from replays.format import build
from replays.verify import verify

OLD = Path(__file__).parent / "ring_1.0.0"
LOGS = sorted(p.stem for p in OLD.glob("*.jsonl"))


def test_every_ring_1_0_0_golden_log_is_kept():
    assert LOGS == ["ring_greedy_vs_memory", "ring_ko_swap_and_strike", "ring_set_battle_1", "ring_set_battle_2",
                    "ring_set_battle_3"]


@pytest.mark.parametrize("name", LOGS)
def test_a_ring_1_0_0_golden_log_still_verifies_under_its_pinned_rules(name):
    lines = [orjson.loads(line) for line in (OLD / f"{name}.jsonl").read_text().splitlines()]
    records = [decode_record(x["seq"], x["type"], x["data"], x["chain"], x.get("v", 1)) for x in lines]
    created = records[0].event
    assert (created.ruleset_version, created.content_hash) == ("1.0.0", "4e42f7059f26156685327047d0170fbc")
    ruleset = ruleset_of(created)
    assert ruleset.version == "1.0.0" != RULESET.version
    state = None
    for rec in records:
        state = fold(ruleset, state, rec)
    report = verify(build(state, records))
    assert (report.status, report.reason, report.winner) == ("ok", None, state.outcome.winner)
