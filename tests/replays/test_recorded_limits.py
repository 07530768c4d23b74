"""A limit on new battles never refuses a battle recorded before it: a replay whose setup or
players today's limits refuse still verifies, under the rules it pinned."""
from __future__ import annotations

import pytest

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.engine.battle import check_inputs
from domain.engine.content import recorded_inputs
from domain.engine.errors import RingsideError
from domain.engine.ruleset import get_ruleset
from replays.format import build, dumps, loads
from replays.verify import verify

CASES = [
    # a param past today's range (skirmish's starting hand was bounded by 1,000,000 alone)
    ("skirmish", {"params": {"starting_hand": 8, "hand_limit": 12}}, {"p1": "ann", "p2": "bo"}),
    # a person who sat as a house id before house ids were reserved
    ("deckduel", None, {"p1": "house:greedy", "p2": "bo"}),
]


@pytest.mark.parametrize(("ruleset_id", "setup", "players"), CASES)
def test_a_battle_recorded_before_a_limit_still_verifies(ruleset_id, setup, players):
    ruleset = get_ruleset(ruleset_id)
    setup = {**ruleset.fresh_setup(), **(setup or {})}
    # given a battle today's limits refuse to create
    with pytest.raises(RingsideError):
        check_inputs(ruleset, players, setup, None)
    # when it was recorded before the limit
    with recorded_inputs():
        bots = {seat: get_policy("random", ruleset_id) for seat in players}
        m = play(ruleset, bots, battle_id="00000000-0000-4000-8000-00000000abcd", setup=setup, players=players,
                 revealed=seeded_bytes("limits", ruleset_id), bot_seed=seeded_bytes("limits-bots", ruleset_id))
    # then its replay verifies
    report = verify(loads(dumps(build(m.state, m.records))))
    assert (report.status, report.reason, report.head) == ("ok", None, m.records[-1].chain)
