"""The battleboard golden battles: what each pinned log shows, and that each verifies as a
replay. (`test_golden.py` checks that every battle still reproduces its pinned log.)"""
from __future__ import annotations

import pytest

from domain.engine.events import OMNISCIENT, SPECTATOR, Viewer, wire_event
from domain.rulesets.battleboard import events as ev
from replays.format import build
from replays.verify import verify

from .battleboard_playthroughs import BATTLES, boss_fight, scripted_opening


@pytest.mark.parametrize("name", sorted(set(BATTLES) - {"battleboard_scripted_opening"}))
def test_every_finished_battleboard_golden_battle_verifies(name):
    state, records = BATTLES[name]()
    report = verify(build(state, records))
    assert (report.status, report.reason, report.winner) == ("ok", None, state.outcome.winner)


def test_the_unfinished_opening_waits_for_its_seed_to_be_verified():
    """Its seed is revealed only when the battle ends; `test_golden.py` re-plays it meanwhile."""
    state, records = scripted_opening()
    report = verify(build(state, records, OMNISCIENT))
    assert (state.outcome, report.status) == (None, "fail") and "not ended" in report.reason


def test_the_scripted_opening_hides_the_foes_arrangement_until_the_heroes_have_arranged():
    state, records = scripted_opening()
    placed = [r for r in records if isinstance(r.event, ev.Placed)]
    foes, heroes = placed[:3], placed[3:]
    for rec in foes:            # the game master's placements, while the heroes arrange
        assert wire_event(rec, Viewer(seat="h1"), False)["data"]["cell"] is None
        assert wire_event(rec, Viewer(seat="gm"), False)["data"]["cell"] is not None
    for rec in heroes:          # each hero seat sees its teammate's placement; the foes do not
        assert wire_event(rec, Viewer(seat="h2" if rec.event.seat == "h1" else "h1"), False)["data"]["cell"]
        assert wire_event(rec, Viewer(seat="gm"), False)["data"]["cell"] is None
        assert wire_event(rec, SPECTATOR, False)["data"]["cell"] is None


def test_the_scripted_opening_shows_a_half_turn_a_defense_choice_and_snap_back():
    state, records = scripted_opening()
    events = [r.event for r in records]
    first = next(e for e in events if isinstance(e, ev.TurnBegan))
    assert (first.side, first.half, first.round) == ("heroes", True, 1)
    # Aria steps from her mound onto the mud next to two goblins: 1 + 1 difficult + 2 zones = 4.
    assert [(e.unit, list(e.to), e.cost) for e in events if isinstance(e, ev.Moved)][0] == ("h1", [2, 3], 4)
    assert ("h1", [2, 2]) in [(e.unit, e.to) for e in events if isinstance(e, ev.SnappedBack)]
    # Bram's 2 focus lower the goblin's break (AV 5 against Defense 3) to a tap.
    defended = next(e for e in events if isinstance(e, ev.Defended))
    assert (defended.unit, defended.focus, defended.band) == ("h2", 2, "tap")
    assert [(e.unit, e.action) for e in events if isinstance(e, ev.ActionTaken) and e.double_down] == [
        ("h2", "firebolt"), ("h1", "recover")]


def test_three_hero_seats_fight_the_cinder_drake_to_the_end():
    state, records = boss_fight()
    assert state.table.seats == ("h1", "h2", "h3", "gm")
    assert state.outcome is not None and state.outcome.winner in ("heroes", "foes")
    acted = {e.seat for r in records if isinstance(e := r.event, ev.ActionTaken)}
    assert acted == {"h1", "h2", "h3", "gm"}
    assert any(isinstance(r.event, ev.DefenseAwaited) and r.event.chooser.startswith("h") for r in records)
