"""Ring's `search` in battle: a battle turn's command is rolled out (greedy's choice and the
three it rates next, from the seat's knowledge), every other decision searched; the draws
follow the budget.

Each test builds the state and asks the bot through the seat's `Seen`, as `domain.ai.match`
does.
"""
from __future__ import annotations

from typing import Any

import pytest

from domain.ai import get_policy
from domain.ai.search import SearchBot
from domain.engine.bots import Seen
from domain.engine.rng import Rng
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.bots.search import CANDIDATES, DRAWS, TUNING, moving, rate
from domain.rulesets.ring.bots.value import ValuePolicy
from domain.rulesets.ring.state import Ring

from .given import battle

SIDES = {seat: side for side, seats in RULESET.default_table().sides for seat in seats}


def seen(s: Ring, seat: str = "p1") -> Seen:
    return Seen(RULESET, seat, RULESET.knowledge(s, seat), SIDES)


def wires(s: Ring, seat: str = "p1") -> list[dict[str, Any]]:
    return [RULESET.codec.wire(c) for c in RULESET.legal_commands(s, seat)]


def test_a_battle_turn_is_rolled_out_and_a_forced_swap_is_not():
    # given p1's turn with 10 AP, then the free choice is rolled out
    turn = battle()
    assert moving(seen(turn))
    # given p1's Ring unit knocked out and a swap required, then it is searched whole
    forced = battle(units={"p1.grizzlor": {"hp": 0, "ko": True}}, swap_required=True)
    assert not moving(seen(forced))


def test_the_rolled_out_choice_is_a_candidate_and_reproducible():
    s = battle()
    legal = RULESET.legal_commands(s, "p1")
    listed = wires(s)
    assert len(legal) > CANDIDATES
    rated = rate(seen(s).view(), listed)
    bot = get_policy("search", "ring", iterations=50)       # 16 x 50 / 200 = 4 draws
    # given the same seed twice, then the same command
    first, again = (RULESET.codec.wire(bot.choose(seen(s), legal, Rng(b"same"))) for _ in range(2))
    assert first == again
    # and it is greedy's own or one of the three greedy rates next (4 candidates)
    assert rated[listed.index(first)] >= sorted(rated, reverse=True)[CANDIDATES - 1]


@pytest.mark.parametrize("iterations, draws", [(200, 16), (100, 8), (25, 2), (12, 0), (8, 0)])
def test_the_draws_follow_the_budget(iterations, draws):
    # given 16 draws at the default 200 iterations: 16 x iterations / 200, rounded; none under 2
    # (25: 2.0; 12: 0.96 rounds to 1, too few; 8, a clock's least: 0.64)
    assert TUNING.rollouts is not None and DRAWS == 16
    assert TUNING.rollouts.draws_for(iterations / 200) == draws


def test_with_too_small_a_budget_a_battle_turn_is_greedy_s_choice_at_once():
    s = battle()
    legal = RULESET.legal_commands(s, "p1")
    greedy = ValuePolicy().choose(seen(s).view(), wires(s), Rng(b"at once"))
    bot = SearchBot(TUNING).with_iterations(8)
    # given 8 iterations: 16 x 8 / 200 = 0.64 draws, so none: greedy's choice, same seed, same pick
    assert RULESET.codec.wire(bot.choose(seen(s), legal, Rng(b"at once"))) == greedy
