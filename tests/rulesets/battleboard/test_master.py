"""The game master's base policy (README, Bots): greedy's scorer with weights of its own, which
spends focus on its Defense where a break would cost it a token; its rollouts play the heroes
by greedy."""
from __future__ import annotations

from typing import Any

import pytest

from domain.engine.events import Viewer
from domain.rulesets.battleboard import RULESET
from domain.rulesets.battleboard.bots.greedy import LAST_TOKEN, greedy, score
from domain.rulesets.battleboard.bots.plan import EFFECT_WORTH, GREEDY, Weights, board_of
from domain.rulesets.battleboard.bots.search import MASTER, TUNING

from domain.rulesets.battleboard.commands import Act

from .given import ACTIONS, battle, play, unit

BREAK = [5, 6]      # strike 2d*2+1: 2 hits x 2 + 1 = 5 > f1's Defense 4
GUARDED = Weights(tap_worth=0.4, guard=0.2)


def defend_scores(weights: Weights, **target: Any) -> dict[int, float]:
    """h1 breaks f1 with a Strike: the score of each `defend` f1's seat may answer, by its focus."""
    given = battle(unit("h1", (2, 2)), unit("f1", (2, 3), **target), unit("f2", (0, 5)))
    _, state = play(given, "h1", Act(unit="h1", action="strike", targets=("f1",)), BREAK)
    view = RULESET.view(state, Viewer(seat="gm"))
    wires = [RULESET.codec.wire(c) for c in RULESET.legal_commands(state, "gm")]
    assert all(w["type"] == "defend" and w["lose"] == "untapped" for w in wires)
    return {w.get("focus", 0): score(view, w, weights) for w in wires}


def test_the_content_numbers_these_tests_quote():
    assert (ACTIONS["strike"].dice, ACTIONS["strike"].kind, ACTIONS["strike"].effects) == ("2d*2+1", "attack", ())


def test_greedy_never_spends_focus_on_its_defense():
    # given f1 (focus 2, 3 untapped tokens) is broken: AV 5 - Defense 4 = 1 focus makes it a tap
    # then losing an untapped token scores 0.5, and with 1 focus 0.5 - 0.1 = 0.4: the break is taken
    assert defend_scores(GREEDY, focus=2, untapped=3) == {0: 0.5, 1: pytest.approx(0.4)}


def test_a_guarded_policy_spends_focus_where_it_keeps_a_token():
    # given the same break, weighed with a tapped token worth 0.4 and a focus point 0.2
    # then 1 focus keeps the token (1) for a tap (0.4) and costs 0.2: 0.5 + 0.6 - 0.2 = 0.9 (strike has no effect)
    assert defend_scores(GUARDED, focus=2, untapped=3) == {0: 0.5, 1: pytest.approx(0.9)}


def test_a_guarded_policy_values_its_last_token_most():
    # given f1 has one token left: the break would leave it none, the next hit felling it
    # then 0.5 + 0.6 + LAST_TOKEN (2.0) - 0.2 = 2.9
    assert LAST_TOKEN == 2.0 and EFFECT_WORTH == 0.3
    assert defend_scores(GUARDED, focus=2, untapped=1, tapped=0) == {0: 0.5, 1: pytest.approx(2.9)}


def test_a_board_is_read_with_the_weights_asked_for():
    state = battle(unit("h1", (2, 0)), unit("f1", (2, 3)))
    view = RULESET.view(state, Viewer(seat="h1"))
    # given one view read with greedy's weights and then the game master's: two boards, each its own
    assert board_of(view).weights is GREEDY and board_of(view, MASTER).weights is MASTER
    assert board_of(view, MASTER) is board_of(view, MASTER)


def test_the_game_master_s_rollouts_play_its_weights_and_model_the_heroes_by_greedy():
    rollouts = TUNING.rollouts
    assert rollouts is not None and rollouts.model is greedy
    base = rollouts.policy()
    assert base.score.keywords == {"weights": MASTER}         # type: ignore[attr-defined]
