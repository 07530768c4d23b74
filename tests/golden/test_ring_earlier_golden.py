"""The golden logs of each earlier ring version (`ring_<version>/`), kept when a later version
changed the rules or the content: each still re-simulates, event by event and chain by chain,
under its own pinned version and content hash. `test_golden.py` checks that today's battles
reproduce today's logs."""
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

HERE = Path(__file__).parent
HASHES = {"1.0.0": "4e42f7059f26156685327047d0170fbc", "1.1.0": "8325d49c8ac007d034f8e277fe751d43",
          "1.2.0": "71ac78c573fdb1fd9202a0be1fbe940c", "1.3.0": "2e037cc574765f622358096ee9aefe1a"}
NAMES = ["ring_greedy_vs_memory", "ring_ko_swap_and_strike", "ring_set_battle_1", "ring_set_battle_2",
         "ring_set_battle_3"]


@pytest.mark.parametrize("version", HASHES)
def test_every_earlier_ring_golden_log_is_kept(version):
    assert sorted(p.stem for p in (HERE / f"ring_{version}").glob("*.jsonl")) == NAMES


@pytest.mark.parametrize(("version", "name"), [(version, name) for version in HASHES for name in NAMES])
def test_an_earlier_ring_golden_log_still_verifies_under_its_pinned_rules(version, name):
    lines = [orjson.loads(line) for line in (HERE / f"ring_{version}" / f"{name}.jsonl").read_text().splitlines()]
    records = [decode_record(x["seq"], x["type"], x["data"], x["chain"], x.get("v", 1)) for x in lines]
    created = records[0].event
    assert (created.ruleset_version, created.content_hash) == (version, HASHES[version])
    ruleset = ruleset_of(created)
    assert ruleset.version == version != RULESET.version
    state = None
    for rec in records:
        state = fold(ruleset, state, rec)
    report = verify(build(state, records))
    assert (report.status, report.reason, report.winner) == ("ok", None, state.outcome.winner)
