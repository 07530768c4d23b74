"""Seed 002, Building a Character: each affinity is 1 plus the points put in it; Speed = Air +
Earth, Evasion = Air + Water, Defense = Earth + Water, Resilience = Earth + Fire, Focus = Fire +
Water, Energy = Air + Fire. Light armor +1 Evasion, medium +1 Defense, heavy +1 Evasion, +1
Defense and -1 Speed. A class's two archetypes give their base powers, weapons their actions,
and each upgrade what it unlocks."""
from __future__ import annotations

import pytest

from domain.rulesets.battleboard.build import affinity_stats, foe_sheet, hero_sheet, sheets
from domain.rulesets.battleboard.content import CONTENT
from domain.rulesets.battleboard.evolve import evolve
from domain.rulesets.battleboard.events import BattleboardStarted
from domain.rulesets.battleboard.setup import Build, parse_setup


def test_the_affinity_formulas():
    # air 1+1=2, earth 1+2=3, fire 1+3=4, water 1+0=1
    assert affinity_stats({"air": 1, "earth": 2, "fire": 3, "water": 0}, 1) == {
        "speed": 5, "evasion": 3, "defense": 4, "resilience": 7, "focus_stat": 5, "energy_stat": 6}


@pytest.mark.parametrize(("affinity", "raised"), [
    ("air", {"speed", "evasion", "energy_stat"}), ("earth", {"speed", "defense", "resilience"}),
    ("fire", {"resilience", "focus_stat", "energy_stat"}), ("water", {"evasion", "defense", "focus_stat"}),
])
def test_each_affinity_feeds_three_stats(affinity, raised):
    base = affinity_stats({"air": 0, "earth": 0, "fire": 0, "water": 0}, 1)
    more = affinity_stats({"air": 0, "earth": 0, "fire": 0, "water": 0, affinity: 1}, 1)
    assert base == dict.fromkeys(base, 2)                      # every stat is two affinities of 1
    assert {k for k in base if more[k] != base[k]} == raised
    assert all(more[k] - base[k] == 1 for k in raised)


def test_the_starting_affinity_is_a_param():
    assert affinity_stats({"air": 0, "earth": 0, "fire": 0, "water": 0}, 2)["speed"] == 4


def build(armor="light", upgrades=("vanguard_hold_the_line",), cls=("vanguard", "warden"), weapons=("spear",),
          affinities=None):
    return Build(name="Tess", cls=cls, affinities=affinities or {"air": 2, "earth": 2, "fire": 2, "water": 1},
                 weapons=weapons, armor=armor, level=len(upgrades), upgrades=upgrades)


STATS = ("speed", "evasion", "defense", "resilience", "focus_stat", "energy_stat")


def stats_of(sheet):
    return tuple(sheet[k] for k in STATS)


def test_armor_changes_the_stats():
    # air 3, earth 3, fire 3, water 2: speed 6, evasion 5, defense 5, resilience 6, focus 5, energy 6
    assert {a: (CONTENT.armor[a].speed, CONTENT.armor[a].evasion, CONTENT.armor[a].defense) for a in CONTENT.armor} == {
        "light": (0, 1, 0), "medium": (0, 0, 1), "heavy": (-1, 1, 1)}
    assert stats_of(hero_sheet("h1", build("light"), 1)) == (6, 6, 5, 6, 5, 6)
    assert stats_of(hero_sheet("h1", build("medium"), 1)) == (6, 5, 6, 6, 5, 6)
    assert stats_of(hero_sheet("h1", build("heavy"), 1)) == (5, 6, 6, 6, 5, 6)


def test_no_armor_and_no_weapon_leave_the_affinity_stats_and_the_class_actions():
    # seed 002, Armor: "Each character can choose to wear Light, Medium or Heavy armor", or none
    sheet = hero_sheet("h1", build(None, weapons=()), 1)
    # air 3, earth 3, fire 3, water 2: speed 3 + 3, evasion 3 + 2, defense 3 + 2, resilience 3 + 3,
    # focus 3 + 2, energy 3 + 3, nothing added
    assert stats_of(sheet) == (6, 5, 5, 6, 5, 6)
    powers = [*CONTENT.archetypes["vanguard"].powers, *CONTENT.archetypes["warden"].powers]
    assert sheet["actions"] == ["strike", "aid", "recover", "reposition", *powers, "hold_the_line"]     # + its upgrade
    assert (sheet["build"]["armor"], sheet["build"]["weapons"]) == (None, [])


def test_a_hero_has_the_basic_actions_its_powers_and_its_weapons_actions_once_each():
    sheet = hero_sheet("h2", build(weapons=("spear", "shield")), 1)
    # spear: spear_thrust, hold_the_line (also the upgrade's action); shield: shield_bash, raise_shield (a power too)
    assert sheet["actions"] == ["strike", "aid", "recover", "reposition", "heavy_blow", "raise_shield", "undertow",
                                "mend", "tide_ward", "spear_thrust", "hold_the_line", "shield_bash"]
    assert (sheet["id"], sheet["seat"], sheet["side"], sheet["rank"], sheet["name"]) == ("h2", "h2", "heroes",
                                                                                          "character", "Tess")


@pytest.mark.parametrize(("upgrade", "cls", "changed"), [
    ("vanguard_stone_skin", ("vanguard", "warden"), {"defense": 1}),
    ("vanguard_stalwart", ("vanguard", "warden"), {"resilience": 1}),
    ("warden_still_waters", ("vanguard", "warden"), {"focus_stat": 1}),
    ("arcanist_fire_heart", ("arcanist", "warden"), {"energy_stat": 1}),
    ("skirmisher_fleet", ("skirmisher", "warden"), {"speed": 1}),
    ("skirmisher_elusive", ("skirmisher", "warden"), {"evasion": 1}),
])
def test_a_stat_upgrade_raises_its_stat(upgrade, cls, changed):
    assert CONTENT.upgrades[upgrade].amount == 1
    plain = hero_sheet("h1", build(cls=cls, upgrades=()), 1)
    raised = hero_sheet("h1", build(cls=cls, upgrades=(upgrade,)), 1)
    assert {k: raised[k] - plain[k] for k in STATS if raised[k] != plain[k]} == changed


def test_an_action_upgrade_adds_its_action():
    sheet = hero_sheet("h1", build(upgrades=("vanguard_charge",)), 1)
    assert sheet["actions"][-1] == "charge"


def test_a_movement_upgrade_gives_movement_for_good():
    assert hero_sheet("h1", build(upgrades=("vanguard_juggernaut",)), 1)["movement"] == ["bull_rush"]


def test_a_teleport_upgrade_gives_teleport_points_every_turn():
    sheet = hero_sheet("h1", build(cls=("arcanist", "warden"), upgrades=("arcanist_phase_walker",)), 1)
    assert sheet["teleport"] == 1


def test_a_foe_has_its_content_stats_and_the_basic_actions():
    foe = CONTENT.foes["goblin_archer"]
    sheet = foe_sheet(2, "goblin_archer")
    assert (sheet["id"], sheet["seat"], sheet["side"], sheet["rank"]) == ("f2", "gm", "foes", foe.rank)
    assert (sheet["speed"], sheet["evasion"], sheet["defense"], sheet["resilience"]) == (
        foe.speed, foe.evasion, foe.defense, foe.resilience)
    assert sheet["actions"] == ["strike", "aid", "recover", "reposition", *foe.actions]


def test_every_combatant_starts_with_resilience_untapped_tokens_and_its_energy():
    setup = parse_setup({"heroes": ["aria"], "foes": ["goblin_archer"], "map": "training_ground"})
    state = evolve(None, BattleboardStarted(params=setup.params_json(), rules={}, map=setup.map, heroes=["h1"],
                                            units=sheets(setup)))
    for u in state.units.values():
        assert (u.untapped, u.tapped, u.energy, u.focus, u.cell) == (u.resilience, 0, u.energy_stat, 0, None)
    assert list(state.units) == ["h1", "f1"] and (state.phase, state.border) == ("order", 3)
