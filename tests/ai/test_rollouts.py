"""Rollouts: which candidate a decision keeps, what a rollout plays, and its budget."""
from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from msgspec.structs import replace as msgspec_replace

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.ai.rollouts import MIN_DRAWS, Policies, Rollouts, clear_lead
from domain.ai.search import SearchBot
from domain.engine.bots import Seen
from domain.engine.playout import Sim, step
from domain.engine.rng import Rng
from domain.engine.ruleset import get_ruleset


def test_greedy_s_choice_is_kept_without_a_clear_lead():
    # given greedy's choice won 1, 0, 1, 1 and another 1, 1, 1, 1: differences 0, 1, 0, 0,
    # mean 0.25, sample variance (3 x 0.0625 + 0.5625) / 3 = 0.25, standard error sqrt(0.25 / 4) = 0.25
    results = [[1.0, 0.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]
    # when the lead must be 2 standard errors (0.5), then greedy's (0.25 is 1 standard error)
    assert clear_lead(results, 2.0) == 0
    # when 1 standard error will do, then the other
    assert clear_lead(results, 1.0) == 1


def test_the_largest_clear_lead_wins_and_a_loss_never_does():
    # given leads of 0.5 (every draw) and 1.0 (every draw): no spread, both clear at any z
    results = [[0.0, 0.0], [0.5, 0.5], [1.0, 1.0]]
    # then the larger
    assert clear_lead(results, 3.0) == 2
    # given the only other candidate lost every draw, then greedy's, even at z = 0
    assert clear_lead([[1.0, 1.0], [0.0, 0.0]], 0.0) == 0


def test_a_tie_in_every_draw_keeps_greedy_s_choice():
    # the same result in every draw is a lead of 0: never "something" to trade for
    assert clear_lead([[0.5, 1.0, 0.0], [0.5, 1.0, 0.0]], 0.0) == 0


def test_a_rollout_plays_the_base_policy_on_its_side_and_the_model_elsewhere():
    own, other = get_policy("greedy", "battleboard"), get_policy("random", "battleboard")
    # given the game master's seat on the foes, two heroes' seats, and a seat no side names
    policies = Policies("foes", {"gm": "foes", "h1": "heroes", "h2": "heroes"}, own, other)
    # then the base policy plays the foes' seat, the model every other
    assert [policies.of(seat) for seat in ("gm", "h1", "h2", "x")] == [own, other, other, other]


@cache
def game_master_choice() -> tuple[Any, str]:
    """The first state of a greedy battleboard battle where the game master (seat gm) chooses
    among more than two commands in battle, and the seat."""
    rs = get_ruleset("battleboard")
    found: list[tuple[Any, str]] = []

    def watch(game: Any) -> None:
        if not found and "gm" in rs.awaiting(game) and game.phase == "turn" and len(rs.legal_commands(game, "gm")) > 2:
            found.append((game, "gm"))
    bots = {seat: get_policy("greedy", "battleboard") for seat in rs.default_table().seats}
    play(rs, bots, battle_id="00000000-0000-4000-8000-000000000003", revealed=seeded_bytes("rollouts"),
         bot_seed=seeded_bytes("rollouts-bots"), watch=watch)
    return found[0]


def game_master_rollouts() -> Rollouts:
    bot = get_policy("search", "battleboard")
    assert isinstance(bot, SearchBot) and bot.tuning.rollouts is not None
    return bot.tuning.rollouts


def test_the_game_master_s_choice_is_a_candidate_and_reproducible():
    rs = get_ruleset("battleboard")
    bot = get_policy("search", "battleboard", iterations=50)
    rollouts = game_master_rollouts()
    game, seat = game_master_choice()
    seen = Seen(rs, seat, rs.knowledge(game, seat), {s: side for side, seats in rs.default_table().sides
                                                     for s in seats})
    legal = rs.legal_commands(game, seat)
    view = seen.view()
    wires = [rs.codec.wire(c) for c in legal]
    rated = rollouts.rank(view, wires)
    # given the game master's choice, when it is made twice from the same seed, then the same
    first, again = (rs.codec.wire(bot.choose(seen, legal, Rng(b"same"))) for _ in range(2))
    assert first == again
    # and it is greedy's own or one of the commands greedy rates next (3 candidates)
    assert rated[wires.index(first)] >= sorted(rated, reverse=True)[rollouts.candidates - 1]


def test_a_rollout_scores_the_outcome_or_the_evaluation_where_it_stops():
    rs = get_ruleset("battleboard")
    rollouts = game_master_rollouts()
    game, seat = game_master_choice()
    seen = Seen(rs, seat, rs.knowledge(game, seat), {"gm": "foes"})
    command = rs.legal_commands(game, seat)[0]
    seeds = (b"r" * 32, b"b" * 32)
    # given no command after the candidate, then the evaluation of the state it leads to
    after = step(rs, Sim(game, 0, seeds[0]), seat, command)
    assert replace(rollouts, depth=0).rollout(seen, game, command, seeds) == rollouts.evaluate(after.game, "foes")
    # given a rollout to the end, then the foes' result: 1, 0, or 0.5 for a draw
    assert replace(rollouts, depth=100_000).rollout(seen, game, command, seeds) in (0.0, 0.5, 1.0)


@pytest.mark.parametrize("share, expected", [(1.0, 6), (2.0, 12), (0.25, MIN_DRAWS), (0.2, 0), (0.04, 0)])
def test_draws_follow_the_budget(share, expected):
    rollouts = game_master_rollouts()
    # given 6 draws at the default budget: 6 x the budget's share, rounded; none under MIN_DRAWS (2)
    # (0.25: 1.5 rounds to 2; 0.2: 1.2 rounds to 1, too few; 0.04, a clock's least 8 of 200 iterations: 0.24)
    assert rollouts.draws_for(share) == expected


def test_with_no_draws_the_choice_is_the_base_policy_s_at_once():
    rs = get_ruleset("battleboard")
    game, seat = game_master_choice()
    seen = Seen(rs, seat, rs.knowledge(game, seat), {"gm": "foes"})
    legal = rs.legal_commands(game, seat)
    rollouts = game_master_rollouts()
    greedy = rollouts.policy().choose(seen.view(), [rs.codec.wire(c) for c in legal], Rng(b"at once"))
    # given a budget of 8 iterations (a clock's least): 6 x 8 / 200 = 0.24 draws, so none
    assert rs.codec.wire(rollouts.choose(seen, legal, Rng(b"at once"), 8 / 200)) == greedy


def test_the_game_master_s_arrangement_never_reads_where_the_heroes_stand():
    """The conformance contract perturbs what one seat hides from all others; the heroes' cells
    are hidden from the foes by side, so this checks that case: while the game master arranges
    after the heroes, swapping two heroes' hidden cells never changes its rolled-out choice."""
    rs = get_ruleset("battleboard")
    found: list[Any] = []

    def watch(game: Any) -> None:
        heroes = [k for k in game.placed if game.units[k].side == "heroes"]
        if not found and game.phase == "arrange" and "gm" in rs.awaiting(game) and len(heroes) >= 2:
            found.append(game)
    bots = {seat: get_policy("greedy", "battleboard") for seat in rs.default_table().seats}
    play(rs, bots, battle_id="00000000-0000-4000-8000-000000000000", revealed=seeded_bytes("x0"),
         bot_seed=seeded_bytes("y0"), watch=watch)
    game = found[0]
    a, b = [k for k in game.placed if game.units[k].side == "heroes"][:2]
    swapped = msgspec_replace(game, placed={**game.placed, a: game.placed[b], b: game.placed[a]})
    sides = {s: side for side, seats in rs.default_table().sides for s in seats}
    assert swapped != game and rs.knowledge(swapped, "gm") == rs.knowledge(game, "gm")
    bot = get_policy("search", "battleboard", iterations=50)
    chosen = [rs.codec.wire(bot.choose(Seen(rs, "gm", rs.knowledge(g, "gm"), sides), rs.legal_commands(g, "gm"),
                                       Rng(b"arrange"))) for g in (game, swapped)]
    assert chosen[0] == chosen[1]
