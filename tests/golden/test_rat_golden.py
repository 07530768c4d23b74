"""The rat golden battles: what each pinned log shows, and that each verifies as a replay.
(`test_golden.py` checks that every battle still reproduces its pinned log.)"""
from __future__ import annotations

import pytest

from domain.engine.events import SPECTATOR, Viewer, wire_event
from domain.rulesets.rat import events as ev
from replays.format import build
from replays.verify import verify

from .rat_playthroughs import AI_FORMATIONS, BATTLES, against, rat_set


@pytest.mark.parametrize("level", sorted(AI_FORMATIONS))
def test_each_ai_level_chooses_for_its_formation_before_the_party_is_revealed(level):
    state, records = against(level)()
    chose = [r for r in records if isinstance(r.event, ev.EnemyChose)]
    assert chose and {r.event.ai for r in chose} == {level}
    for rec in chose:
        # Every enemy choice in a batch comes before that batch's reveal of the party's plans.
        batch_reveals = [r.seq for r in records if isinstance(r.event, ev.ActionRevealed) and r.seq > rec.seq]
        assert batch_reveals and batch_reveals[0] > rec.seq
    assert state.outcome is not None and state.outcome.winner in ("party", "enemies", None)


@pytest.mark.parametrize("name", sorted(BATTLES))
def test_every_golden_battle_verifies(name):
    state, records = BATTLES[name]()
    report = verify(build(state, records))
    assert report.ok, report


def test_enemy_hp_and_the_partys_plans_stay_hidden_in_the_golden_logs():
    _, records = against("memory")()
    for rec in records:
        if isinstance(rec.event, ev.RatStarted):
            # A Clockwork Sentry (499 HP) and two Hex Crows (172 HP): the log keeps their HP,
            # the party and spectators read none of it.
            assert rec.event.enemy_hp == {"e1": 499, "e2": 172, "e3": 172}
            for viewer in (SPECTATOR, Viewer(seat="p1")):
                data = wire_event(rec, viewer, False)["data"]
                assert data["enemy_hp"] is None and [e for e in data["enemies"] if {"hp", "max_hp"} & set(e)] == []
        if isinstance(rec.event, ev.EnemyHpChanged):
            for viewer in (SPECTATOR, Viewer(seat="p1")):
                data = wire_event(rec, viewer, False)["data"]
                assert data["hp"] is None and data["delta"] is None
        if isinstance(rec.event, ev.ActionPlanned):
            assert wire_event(rec, SPECTATOR, False)["data"]["action"] is None


def test_the_set_carries_hp_and_consumables_and_spends_durability():
    first, second, third = rat_set()
    # Battle 1 starts from the set's setup: GIRL's potions at durability 1.
    girl = next(m for m in first.setup["party"] if m["member"] == "girl")
    assert girl["items"]["potion"] == {"count": 5, "durability": 1}
    # After battle 1 the save costs one durability: 1 -> 0, and the stack is still carried.
    assert first.carry["party"]["girl"]["items"]["potion"]["durability"] == 0
    girl2 = next(m for m in second.setup["party"] if m["member"] == "girl")
    assert girl2["items"]["potion"]["durability"] == 0
    assert girl2["hp"] == first.carry["party"]["girl"]["hp"]
    # At the end of battle 2 the stack at durability 0 is discarded, whatever is left of it.
    assert "potion" not in second.carry["party"]["girl"]["items"]
    # The route moves on: each battle plays the next formation.
    assert [b.state.game.formation for b in (first, second, third)] == ["sewer_ambush", "beetle_burrow",
                                                                          "back_alley"]
    # A member knocked out or killed leaves a battle at 1 HP.
    for battle in (first, second, third):
        for member in battle.state.game.side("party"):
            if not member.standing:
                assert battle.carry["party"][member.id]["hp"] == 1
