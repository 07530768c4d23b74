"""Swap Unit's cost goes through the resolver, so a Dynamic that changes it is logged; that
holds whatever Python runs the rules, `python -O` (which skips `assert` statements) too."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

from domain.engine.events import decode_event
from domain.engine.hooks import EffectTriggered
from domain.rulesets.ring.events import ApSpent, UnitSwapped

ROOT = Path(__file__).resolve().parents[3]

# p1 (Captain Gale: Swap Unit 3 AP) holds Quick Hands and swaps Fang Shrike in for Grizzlor.
SWAP_UNDER_QUICK_HANDS = """
import sys
import orjson
from domain.engine.events import event_data
from domain.rulesets.ring.commands import Swap
from tests.rulesets.ring.given import Dyn, battle, decide_after

hands = Dyn(id="d1", kind="quick_hands", source="leader", seat="p1", severity=5, by="p1")
events = decide_after(battle(dynamics=[hands]), "p1", Swap(unit="fang_shrike"))
sys.stdout.buffer.write(orjson.dumps([sys.flags.optimize, [[e.TOPIC, event_data(e)] for e in events]]))
"""


def test_a_swap_under_python_O_logs_the_dynamic_that_lowered_its_cost():
    done = subprocess.run([sys.executable, "-O", "-c", SWAP_UNDER_QUICK_HANDS], cwd=ROOT, capture_output=True,
                          check=True)
    optimize, lines = orjson.loads(done.stdout)
    events = [decode_event(topic, data) for topic, data in lines]
    assert optimize == 1
    # 3 AP - 1 (Quick Hands, at any severity) = 2 AP
    assert events == [UnitSwapped(seat="p1", unit="fang_shrike", out="p1.grizzlor", cost=2),
                      EffectTriggered(kind="quick_hands", owner="d1", on="SwapCost"), ApSpent(seat="p1", amount=2)]
