"""Every battle ends: in every ruleset, over every matchup it declares (`Ruleset.matchups`),
greedy and random bots play battles that reach an outcome, and no game state comes back within
a battle. A state that comes back is a cycle some policy can follow for ever (two free cards
returning each other, a move and its undo that cost nothing); it is caught the first time
round, before any decision bound. The deals named in `LOOPED` are battles that once looped."""
from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.balance.harness import UNFINISHED, plan, play_matchup
from domain.engine.ruleset import all_rulesets, get_ruleset

RULESETS = sorted(all_rulesets())
POLICIES = ("greedy", "random")
BATTLES = 24                 # per ruleset and policy, spread over its matchups (one each at least)
# (ruleset, matchup label, run seed, battle number): deals that looped in an earlier version
LOOPED = [
    # deckduel 1.0.0: two free Second Winds (Focus Lens) returned each other, a combat without end
    ("deckduel", "Vex v Brom", "0", 62),
]


class Recurred(AssertionError):
    pass


def watcher() -> Any:
    """A `watch` for `play` that raises `Recurred` when a game state comes back."""
    seen: set[bytes] = set()

    def watch(game: Any) -> None:
        key = msgspec.msgpack.encode(game)
        if key in seen:
            raise Recurred(f"a game state came back: {msgspec.to_builtins(game)}")
        seen.add(key)
    return watch


def ends(ruleset_id: str, bots: tuple[str, ...], seed: str, number: int, only: tuple[str, ...] = ()) -> None:
    ruleset = get_ruleset(ruleset_id)
    run = plan(ruleset, bots, number + 1, seed, only=only)
    for matchup in run.matchups:
        fought = play_matchup(run, matchup, number, watch=watcher())
        assert not fought.reason.startswith(UNFINISHED), f"{ruleset_id} {matchup.label} #{number}: {fought.reason}"


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_battles_end_without_a_state_coming_back(ruleset_id, policy):
    matchups = len(get_ruleset(ruleset_id).matchups())
    for number in range(max(1, BATTLES // matchups)):
        ends(ruleset_id, (policy,), f"ends-{policy}", number)


@pytest.mark.parametrize(("ruleset_id", "label", "seed", "number"), LOOPED)
def test_a_deal_that_once_looped_ends(ruleset_id, label, seed, number):
    ends(ruleset_id, ("greedy",), seed, number, only=(label,))
