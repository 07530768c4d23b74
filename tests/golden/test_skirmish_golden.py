"""The skirmish golden battles: what each pinned log shows, and that each verifies as a replay.
(`test_golden.py` checks that every battle still reproduces its pinned log.)"""
from __future__ import annotations

import pytest

from domain.engine.events import SPECTATOR, Viewer, wire_event
from domain.rulesets.skirmish import events as ev
from replays.format import build
from replays.verify import verify

from .skirmish_playthroughs import BATTLES, greedy_vs_memory, raid, scripted_duel


@pytest.mark.parametrize("name", sorted(BATTLES))
def test_every_skirmish_golden_battle_verifies(name):
    state, records = BATTLES[name]()
    report = verify(build(state, records))
    assert (report.status, report.reason, report.winner) == ("ok", None, state.outcome.winner)


def test_the_scripted_duel_shows_counters_keywords_a_second_chance_and_a_forfeit():
    state, records = scripted_duel()
    events = [r.event for r in records]
    counters = [(e.unit, e.target, e.power) for e in events if isinstance(e, ev.Struck) and e.counter]
    # Ember's Amplified counter (18 + 2 in round 1); melee answers melee; a ranged unit answers
    # a ranged one two tiles away; Thorn's blows from one tile away on Cinder and Ember go unanswered.
    assert counters == [("p1.ember", "p2.sable", 20), ("p2.thorn", "p1.flint", 12), ("p1.ember", "p2.sable", 18),
                        ("p1.flint", "p2.thorn", 12), ("p1.cinder", "p2.sable", 16)]
    assert [(e.card, e.keyword, e.times) for e in events if isinstance(e, ev.KeywordActivated)] == [
        ("vanish", "channel", 1), ("sap_mending", "channel", 1), ("ashen_arrow", "storm", 1),
        ("thicket_snare", "aftermath", 1), ("flurry_of_sparks", "storm", 2)]
    # Kindle's Threshold needs five AP left: with two, it only gives Amplify.
    assert not any(isinstance(e, ev.KeywordActivated) and e.card == "kindle" for e in events)
    fainted = [e.unit for e in events if isinstance(e, ev.UnitFainted)]
    # Flurry of Sparks' second Storm point takes Thorn past its armor: 75 + 4 + 4 = 83 > 80
    assert fainted == ["p1.ember", "p2.thorn", "p2.sable"]
    assert [e.unit for e in events if isinstance(e, ev.UnitReturned)] == ["p2.sable"]
    assert (state.outcome.winner, state.outcome.reason) == ("p2", "p1 forfeited")


def test_placements_and_hands_stay_hidden_in_the_scripted_log():
    _, records = scripted_duel()
    for rec in records:
        if isinstance(rec.event, ev.UnitPlaced):
            other = Viewer(seat="p2" if rec.event.seat == "p1" else "p1")
            assert wire_event(rec, other, False)["data"]["cell"] is None
            assert wire_event(rec, SPECTATOR, False)["data"]["cell"] is None
        if isinstance(rec.event, ev.CardsDrawn):
            assert wire_event(rec, SPECTATOR, False)["data"]["cards"] is None


def test_the_raid_fields_five_against_the_wyrm_whose_gathering_storm_raises_the_storm():
    state, records = raid()
    game = state.game
    assert len(game.fielded("p1")) == 5
    assert [u.character for u in game.fielded("p2")] == ["tempest_wyrm", "stormling", "squall"]
    events = [r.event for r in records]
    gathered = [e for e in events if isinstance(e, ev.StormRaised) and e.by == "p2.tempest_wyrm"]
    assert len(gathered) == sum(1 for e in events if isinstance(e, ev.TalentTriggered)
                                and e.talent == "gathering_storm") >= 3
    raised = [e.storm for e in events if isinstance(e, ev.StormRaised) and e.seat == "p2"]
    assert raised == list(range(1, len(raised) + 1))        # every raise is by one, Storm skills included
    assert game.player("p2").storm == len(raised) > len(gathered)
    # Storm skills activate once per point of the counter, so their damage grows with it.
    counter, storms = 0, []
    for e in events:
        if isinstance(e, ev.StormRaised) and e.seat == "p2":
            counter = e.storm
        elif isinstance(e, ev.KeywordActivated) and e.keyword == "storm":
            storms.append((e.times, counter))
    assert storms and all(times == at for times, at in storms)
    assert [times for times, _ in storms] == sorted(times for times, _ in storms)
    assert any(isinstance(e, ev.AttackForced) for e in events)
    assert (state.outcome.winner, state.outcome.reason) == ("p2", "p1 lost every character")


def test_the_greedy_and_memory_duel_is_fought_to_the_end():
    state, records = greedy_vs_memory()
    events = [r.event for r in records]
    assert any(isinstance(e, ev.Struck) and e.counter for e in events)
    assert any(isinstance(e, ev.KeywordActivated) for e in events)
    assert state.game.turn > 2 and state.outcome.reason == "p1 lost every character"
    assert records[0].event.players == {"p1": "ann", "p2": "bob"}
