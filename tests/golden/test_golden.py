"""Golden playthroughs: every ruleset's battles reproduce their pinned event logs exactly; the
deckduel battles show what they were written for."""
from collections import Counter

import orjson
import pytest

from domain.rulesets.deckduel.events import DamageFlipped, DefenseTriggered
from replays.format import build
from replays.verify import verify

from .deckduel_playthroughs import BATTLES as DECKDUEL, drills_and_end_step, perfect_and_counter
from .golden import RULES_CHANGED, all_battles, first_difference, golden_path, log_lines

BATTLES = all_battles()


@pytest.mark.parametrize("name", list(BATTLES))
def test_the_battle_reproduces_its_pinned_log(name):
    _, records = BATTLES[name]()
    pinned = golden_path(name).read_text().splitlines()
    difference = first_difference(name, pinned, log_lines(records))
    if difference is not None:
        pytest.fail(difference, pytrace=False)


@pytest.mark.parametrize("name", list(BATTLES))
def test_a_pinned_log_is_one_numbered_wire_event_per_line(name):
    lines = [orjson.loads(line) for line in golden_path(name).read_text().splitlines()]
    assert [line["seq"] for line in lines] == list(range(1, len(lines) + 1))
    assert all(set(line) - {"v"} == {"seq", "type", "data", "chain"} and line["chain"] for line in lines)
    assert lines[0]["type"] == "engine.BattleCreated"
    assert lines[0]["data"]["created_at"] == "2024-01-01T00:00:00Z"


def test_a_changed_event_is_reported_at_its_seq():
    pinned = ['{"seq":1}', '{"seq":2,"type":"deckduel.Passed"}', '{"seq":3}']
    produced = ['{"seq":1}', '{"seq":2,"type":"deckduel.CombatEnded"}', '{"seq":3}']
    message = first_difference("demo", pinned, produced)
    assert message is not None and message.startswith("demo: seq 2 differs; " + RULES_CHANGED)
    assert "python -m tests.golden.regen" in message and "bump the ruleset version" in message


def test_a_longer_or_shorter_log_is_reported_where_it_stops_matching():
    assert first_difference("demo", ["a", "b"], ["a"]).startswith("demo: seq 2 differs (the pinned log has 2 events")
    assert first_difference("demo", ["a"], ["a", "b"]).startswith("demo: seq 2 differs")
    assert first_difference("demo", ["a", "b"], ["a", "b"]) is None


def test_the_scripted_battle_shows_perfect_defense_and_defense_triggers():
    state, records = perfect_and_counter()
    events = [r.event for r in records]
    perfect = [(e.seat, e.card) for e in events if isinstance(e, DamageFlipped) and e.perfect]
    assert perfect == [("p2", "jab"), ("p2", "rebound")]
    assert [(e.seat, e.trigger) for e in events if isinstance(e, DefenseTriggered)] == [
        ("p1", "counter"), ("p2", "disrupt"), ("p2", "recycle"), ("p2", "recycle")]
    assert (state.outcome.winner, state.outcome.reason) == ("p1", "p2's deck is empty")


def test_the_drills_battle_goes_through_two_end_steps():
    state, records = drills_and_end_step()
    seen = Counter(r.event.TOPIC.split(".")[1] for r in records)
    assert (seen["RoundEnded"], seen["CardDiscarded"], seen["DrillPlayed"], seen["EffectTriggered"]) == (2, 7, 3, 7)
    assert (state.game.round, state.game.active, state.outcome) == (3, "p1", None)


@pytest.mark.parametrize("battle", [perfect_and_counter, DECKDUEL["deckduel_greedy_vs_random"]])
def test_a_finished_golden_battle_verifies_as_a_replay(battle):
    state, records = battle()
    report = verify(build(state, records))
    assert (report.status, report.reason, report.winner) == ("ok", None, state.outcome.winner)
