"""The one decision a finished battle makes for its set, as given / when / then: pure, exact,
and the very events a live set records."""
from __future__ import annotations

import random

import msgspec
import pytest

from domain.battles import Battles
from domain.engine.ruleset import get_ruleset
from domain.sets import (BattleResult, SetBattleFinished, SetBattleStarted, SetCreated, SetEnded, Sets, SetState,
                         chain_events, decide_battle_end, evolve_set, start_battle)
from tests.golden.ring_playthroughs import SET_SETUP, ring_set
from tests.storage.helpers import play_out

DECKDUEL = get_ruleset("deckduel")
RING = get_ruleset("ring")
PLAYERS = {"p1": "alice", "p2": {"bot": "greedy"}}       # a house seat is just another player entry
SET_ID = "5e7a0000-0000-4000-8000-000000000001"
HEAD = "ab" * 32
NEXT = "5e7a0000-0000-4000-8000-0000000000ff"


def created(ruleset=DECKDUEL, *, games: int = 3, mode: str = "best_of", setup=None) -> SetCreated:
    setup = dict(ruleset.default_setup if setup is None else setup)
    return SetCreated(set_id=SET_ID, ruleset=ruleset.id, ruleset_version=ruleset.version,
                      content_hash=ruleset.content_hash, players=PLAYERS, games=games, mode=mode,
                      public_setup=setup, setup=setup, created_at="2024-01-01T00:00:00.000Z")


def given(first: SetCreated, *winners: str | None) -> SetState:
    """A set whose battles `b0`, `b1`, ... ended with these winners, and whose next one is on."""
    state = chain_events(None, [first])[0]
    for index, winner in enumerate(winners):
        state = chain_events(state, [
            SetBattleStarted(set_id=SET_ID, index=index, battle_id=f"b{index}", carry=None),
            SetBattleFinished(set_id=SET_ID, index=index, battle_id=f"b{index}", winner=winner, head=HEAD, carry=None),
        ])[0]
    index = len(winners)
    return chain_events(state, [SetBattleStarted(set_id=SET_ID, index=index, battle_id=f"b{index}", carry=None)])[0]


def finished(index: int, winner: str | None) -> SetBattleFinished:
    return SetBattleFinished(set_id=SET_ID, index=index, battle_id=f"b{index}", winner=winner, head=HEAD, carry=None)


def won_by(side: str | None) -> BattleResult:
    return BattleResult(winner=side, head=HEAD, game=None)       # deckduel carries nothing over


def ended(winner: str | None, score: dict[str, int]) -> SetEnded:
    return SetEnded(set_id=SET_ID, ruleset="deckduel", players=PLAYERS, winner=winner, score=score)


def test_a_first_win_in_a_best_of_three_starts_the_second_battle():
    then = decide_battle_end(given(created()), won_by("p2"), DECKDUEL, NEXT)
    assert then.events == (finished(0, "p2"), SetBattleStarted(set_id=SET_ID, index=1, battle_id=NEXT, carry=None))
    assert then.next_setup == {"p1": {"character": "kira"}, "p2": {"character": "brom"}}


def test_a_second_win_for_the_same_side_ends_a_best_of_three():
    then = decide_battle_end(given(created(), "p1"), won_by("p1"), DECKDUEL, NEXT)
    assert then.events == (finished(1, "p1"), ended("p1", {"p1": 2, "p2": 0}))
    assert then.next_setup is None


def test_all_mode_plays_every_game_after_a_majority():
    then = decide_battle_end(given(created(mode="all"), "p1"), won_by("p1"), DECKDUEL, NEXT)
    assert then.events == (finished(1, "p1"), SetBattleStarted(set_id=SET_ID, index=2, battle_id=NEXT, carry=None))


def test_a_drawn_battle_counts_for_nobody():
    then = decide_battle_end(given(created(mode="all"), "p1", "p1"), won_by(None), DECKDUEL, NEXT)
    assert then.events == (finished(2, None), ended("p1", {"p1": 2, "p2": 0}))


def test_a_split_set_of_two_ends_level_with_no_winner():
    then = decide_battle_end(given(created(games=2, mode="all"), "p1"), won_by("p2"), DECKDUEL, NEXT)
    assert then.events == (finished(1, "p2"), ended(None, {"p1": 1, "p2": 1}))


def test_a_set_without_a_battle_in_progress_has_nothing_to_decide():
    state = given(created(games=1))
    over = chain_events(state, decide_battle_end(state, won_by("p1"), DECKDUEL, NEXT).events)[0]
    assert over.ended == ended("p1", {"p1": 1, "p2": 0})
    with pytest.raises(ValueError, match=f"^set {SET_ID} has no battle in progress$"):
        decide_battle_end(over, won_by("p1"), DECKDUEL, NEXT)


def test_the_decision_is_pure_and_carries_ring_units_over_as_the_golden_set():
    """Battle 1 of the golden ring set decides battle 2's carry-over and setup; asking twice gives
    the same answer and leaves the set as it was."""
    first, second = ring_set()[:2]
    state = given(created(RING, setup=SET_SETUP))
    before = msgspec.json.encode(state)
    result = BattleResult.of(first.state)
    then = decide_battle_end(state, result, RING, NEXT)
    assert then == decide_battle_end(state, result, RING, NEXT)
    assert msgspec.json.encode(state) == before
    assert then.events == (
        SetBattleFinished(set_id=SET_ID, index=0, battle_id="b0", winner=first.state.outcome.winner,
                          head=first.state.chain, carry=first.carry),
        SetBattleStarted(set_id=SET_ID, index=1, battle_id=NEXT, carry=first.carry))
    assert then.next_setup == second.setup


def test_the_first_battle_starts_from_the_sets_own_setup():
    state = chain_events(None, [created(RING, setup=SET_SETUP)])[0]
    assert start_battle(state, RING, NEXT) == start_battle(state, RING, NEXT)
    assert start_battle(state, RING, NEXT).events == (SetBattleStarted(set_id=SET_ID, index=0, battle_id=NEXT,
                                                                       carry=None),)
    assert start_battle(state, RING, NEXT).next_setup == SET_SETUP


def following(records, at: int) -> str:
    """The id of the battle the set started right after its record `at`; NEXT if it ended there."""
    after = records[at + 1].event if at + 1 < len(records) else None
    return after.battle_id if isinstance(after, SetBattleStarted) else NEXT


def test_a_live_set_records_exactly_what_the_decision_says(sqlite_url):
    """Play a live best-of-five: at each battle's end, the set as it stood, the battle's result and
    the next battle's id give the recorded events, one for one."""
    with Battles(sqlite_url) as battles:
        sets = Sets(battles)
        made = sets.create("deckduel", {"p1": "alice", "p2": "bob"}, games=5, mode="best_of")
        rng = random.Random(7)
        while (found := sets.get(made.set_id))["current_battle"] is not None:
            play_out(battles, found["current_battle"], rng)
        records = sets.records(made.set_id)
        state, checked = None, 0
        for at, rec in enumerate(records):
            if isinstance(rec.event, SetBattleFinished):
                then = decide_battle_end(state, BattleResult.of(battles.load(rec.event.battle_id)), DECKDUEL,
                                         following(records, at))
                assert then.events == tuple(r.event for r in records[at:at + len(then.events)])
                checked += 1
            state = evolve_set(state, rec)
    assert checked == len(found["battles"]) >= 3
    assert isinstance(records[-1].event, SetEnded) and records[-1].event.score == found["score"]
