"""A Dynamic removed by an earlier reaction to the same event reacts no more (seed 000,
Dynamic Rules: a Dynamic at severity 0 is gone)."""
from __future__ import annotations

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.engine.hooks import EffectTriggered
from domain.engine.rng import Rng
from domain.rulesets.ring import RULESET
from domain.rulesets.ring import events as ev
from replays.format import build, dumps, loads
from replays.verify import verify
from tests.conformance.coverage import ring_setup


def test_a_dynamic_eroded_away_by_one_reaction_does_not_react_to_the_same_turn_start():
    # given decks whose erosion wears a Dynamic to severity 0 at the start of a turn that the
    # eroded Dynamic's own hook also reacts to (this battle failed with KeyError 'd25')
    setup = ring_setup(Rng(seeded_bytes("crash", 108)))
    bots = {seat: get_policy("random", "ring") for seat in ("p1", "p2")}
    # when the battle is played out
    m = play(RULESET, bots, battle_id="00000000-0000-4000-8000-000000000108", setup=setup,
             revealed=seeded_bytes("crash", 108), bot_seed=seeded_bytes("crash-bots", 108))
    # then it ends and verifies, and no Dynamic triggers after its removal in the same batch
    assert m.state.outcome is not None and verify(loads(dumps(build(m.state, m.records)))).ok
    removed_in_batch: set[str] = set()
    removals = 0
    for rec in m.records:
        if rec.event.starts_batch():
            removed_in_batch = set()
        if isinstance(rec.event, ev.DynamicRemoved):
            removed_in_batch.add(rec.event.id)
            removals += 1
        if isinstance(rec.event, EffectTriggered):
            assert rec.event.owner not in removed_in_batch, rec.seq
    assert removals > 0
