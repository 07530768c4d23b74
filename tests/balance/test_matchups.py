"""Each ruleset's matchups (`<ruleset>/matchups.py`): every setup parses and opens a battle,
names an entry for every side, and every label is unique and free of commas (`--matchups`
splits at them). A ruleset that declares none plays its default setup alone."""
from __future__ import annotations

import dataclasses
import importlib

import pytest

from domain.balance import plan
from domain.engine.battle import open_battle, parse_battle_setup
from domain.engine.ruleset import Matchup, default_setup_only, get_ruleset

COUNTS = {"deckduel": 6, "ring": 20, "skirmish": 20, "rat": 32, "battleboard": 6}


@pytest.mark.parametrize("ruleset_id", sorted(COUNTS))
def test_every_matchup_opens_a_battle(ruleset_id):
    ruleset = get_ruleset(ruleset_id)
    declared = importlib.import_module(f"domain.rulesets.{ruleset_id}.matchups").matchups()
    assert len(declared) == COUNTS[ruleset_id]
    labels = [m.label for m in declared]
    assert len(set(labels)) == len(labels)
    assert not [name for m in declared for name in (m.label, *m.entries.values()) if "," in name]
    plan(ruleset, ["random"], 1, "0", matchups=declared)       # parses each, and checks its entries
    for number, matchup in enumerate(declared):
        parse_battle_setup(ruleset, matchup.setup)
        state, _ = open_battle(ruleset, battle_id=f"m{number}", setup=matchup.setup,
                               players={seat: {"bot": "random"} for seat in ruleset.table(matchup.setup).seats},
                               revealed=bytes(32), created_at="1970-01-01T00:00:00Z")
        assert state.outcome is None


def test_the_pairings_of_a_duel_are_every_ordered_pair():
    from domain.rulesets.deckduel.matchups import matchups

    assert [(m.entries["p1"], m.entries["p2"]) for m in matchups()] == [
        ("Kira", "Brom"), ("Kira", "Vex"), ("Brom", "Kira"), ("Brom", "Vex"), ("Vex", "Kira"), ("Vex", "Brom")]
    assert matchups()[0].setup == {"p1": {"character": "kira"}, "p2": {"character": "brom"}}


def test_the_enemy_ai_level_is_a_matchup_of_its_own():
    from domain.rulesets.rat.matchups import matchups

    ambush = [m for m in matchups() if m.setup["formation"] == "sewer_ambush"]
    assert [(m.label, m.setup.get("enemy_ai")) for m in ambush] == [
        ("Sewer Ambush", None), ("Sewer Ambush (random)", "random"), ("Sewer Ambush (no_memory)", "no_memory"),
        ("Sewer Ambush (memory)", "memory")]
    assert {m.entries["party"] for m in matchups()} == {"default party"}


def test_a_ruleset_that_declares_none_plays_its_default_setup():
    ruleset = dataclasses.replace(get_ruleset("battleboard"), matchups=default_setup_only)
    assert ruleset.matchups() == [Matchup(setup=ruleset.default_setup, entries={"heroes": "heroes", "foes": "foes"},
                                          label="heroes v foes")]
